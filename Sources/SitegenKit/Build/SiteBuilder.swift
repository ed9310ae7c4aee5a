import Foundation
import SitegenCore
import SitegenInput
import SitegenModel

/// Why a build stopped, with its exit status (README.md, "Using it").
public enum BuildFailure: Error, Sendable {
    /// Bad export data (exit 1); the diagnostics are in the log.
    case inputErrors(count: Int)
    /// Bad site.yml or templates (exit 2).
    case configuration(Diagnostic)
    /// Could not write the site (exit 3).
    case io(String)

    public var exitStatus: Int32 {
        switch self {
        case .inputErrors: return 1
        case .configuration: return 2
        case .io: return 3
        }
    }
}

public struct BuildOptions: Sendable {
    public var configFile: URL
    /// Overrides site.yml's `output`.
    public var output: URL?
    /// The build date for tip rotation (`--date`).
    public var date: Date?
    /// Fixes the tip permutation (`--seed`).
    public var seed: UInt64?
    /// false for `sitegen check`: read and validate everything, write nothing.
    public var write = true
    /// `SOURCE_DATE_EPOCH` and friends; injected so tests control them.
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Where files are written; tests swap in a failing disk.
    public var fileSystem: OutputFileSystem = .disk
    /// Renders templates instead of sitegen's renderer; tests compare it with swift-mustache.
    public var templateEngine: TemplateSet.Engine?
    /// Leaves removing the replaced site to a detached process (OutputFolder.discard), so the
    /// build returns as soon as the new site is in place. The command line sets it.
    public var removesReplacedSiteInBackground = false

    public init(configFile: URL) {
        self.configFile = configFile
    }
}

public struct BuildReport: Sendable {
    public var title: String
    public var output: URL
    public var pages: Int
    public var files: Int
    public var polls: Int
    public var ballots: Int
    public var seconds: Double
    public var wrote: Bool
    /// Nothing changed since the last build, so nothing was written.
    public var upToDate = false

    /// The closing summary line.
    public var summary: String {
        let what = "\(Formatting.count(pages, "page")) (\(Formatting.count(files, "file"))) from \(Formatting.count(polls, "poll")) and \(Formatting.count(ballots, "ballot"))"
        let time = String(format: "%.2f s", seconds)
        if upToDate {
            return "Nothing changed: \(what) for \"\(title)\" already up to date in \(time) → \(displayPath(output))/"
        }
        return wrote
            ? "Built \(what) for \"\(title)\" in \(time) → \(displayPath(output))/"
            : "Checked \(what) for \"\(title)\" in \(time); nothing written"
    }
}

/// The pipeline of STYLE.md, one stage after another:
/// site.yml → config → exports → validation → results → plan → render → staging → swap.
public struct SiteBuilder {
    public let options: BuildOptions
    public let log: DiagnosticLog
    /// Called as each stage starts (BuildReporter: the status line and `--verbose`).
    public var progress: @Sendable (BuildStage) -> Void = { _ in }

    /// The stages `run()` reports: `check` stops after "Planning pages". A test pins both counts.
    static func stageCount(writing: Bool) -> Int { writing ? 11 : 8 }

    public init(options: BuildOptions, log: DiagnosticLog) {
        self.options = options
        self.log = log
    }

    public func run() throws(BuildFailure) -> BuildReport {
        let clock = ContinuousClock()
        let started = clock.now
        // Numbers the stages for the status line ("[4/11] Reading pages…").
        var stageNumber = 0
        func progress(_ name: String) {
            stageNumber += 1
            self.progress(BuildStage(number: stageNumber, count: Self.stageCount(writing: options.write), name: name))
        }

        progress("Reading \(displayPath(options.configFile))")
        var config: SiteConfig
        do {
            config = try SiteConfigLoader.load(options.configFile)
        } catch {
            throw .configuration(error.diagnostic)
        }
        _ = try SourceDateEpoch.read(options.environment)
        if let output = options.output { config.output = output.standardizedFileURL }
        config.output = OutputFolder.resolvingLinks(config.output)

        // The output lock is taken before anything is read, so a concurrent build of the same
        // site waits, and the "nothing changed" check below sees a settled output folder.
        var output: OutputFolder?
        var fingerprint: BuildFingerprint?
        if options.write {
            let folder = OutputFolder(output: config.output, fileSystem: options.fileSystem,
                                      removesInBackground: options.removesReplacedSiteInBackground)
            folder.keep = config.keep
            do {
                try folder.checkSafe(siteFolder: config.folder, protecting: [config.templates] + config.inputFolders)
                try folder.prepare()
            } catch {
                throw .io(error.message)
            }
            output = folder
            let current = BuildFingerprint.compute(config: config, options: options)
            fingerprint = current
            let previous = BuildState.read(for: config.output)
            if let previous, previous.fingerprint == current.value, OutputFolder.isSitegenOutput(config.output),
               previous.isIntact(config.output) {
                // Same bytes in, same bytes out: leave every published file (and its mtime) alone.
                folder.abandon()
                previous.diagnostics.forEach(log.add)
                previous.omissions.forEach(log.add)
                return BuildReport(title: config.title, output: config.output, pages: previous.pages, files: previous.files,
                                   polls: previous.polls, ballots: previous.ballots, seconds: (clock.now - started).seconds,
                                   wrote: true, upToDate: true)
            }
            let index = previous?.outputIndex()
            do {
                try folder.checkOwnership(recorded: index, keep: config.keep)
            } catch {
                folder.abandon()
                throw .io(error.message)
            }
            // Unchanged files will be linked from the published site rather than written.
            if let index { folder.usePrevious(index) }
        }
        do {
            return try build(config: config, output: output, fingerprint: fingerprint, clock: clock, started: started, progress: progress)
        } catch {
            output?.abandon()
            throw error
        }
    }

    /// Everything after the output folder is locked: read, count, plan, render, write, swap.
    private func build(config: SiteConfig, output: OutputFolder?, fingerprint: BuildFingerprint?, clock: ContinuousClock,
                       started: ContinuousClock.Instant, progress: (String) -> Void) throws(BuildFailure) -> BuildReport {
        progress("Loading templates")
        let templates: TemplateSet
        do {
            templates = try TemplateSet.load(from: config.templates, required: SitePlan.requiredTemplates, engine: options.templateEngine)
        } catch {
            throw .configuration(error.diagnostic)
        }

        // Templates and assets: links out of the folder are template errors (exit 2), special
        // files warnings. TemplateSet has refused links out among the templates themselves.
        let templateFolder = InputFolder.list(config.templates)
        if let linkOut = templateFolder.problems.first(where: { $0.severity == .error }) {
            throw .configuration(linkOut)
        }
        templateFolder.problems.forEach(log.add)

        progress("Reading exports")
        let plausibility = DatePlausibility(numericDates: config.numericDates)
        let loader = ExportSet.loader(config: config, log: log, plausibility: plausibility)
        var exports = ExportSet.load(config: config, loader: loader, log: log)
        progress("Reading pages")
        let pages = MarkdownPages.load(config.pages, siteFolder: config.folder, log: log)
        let assets: [SiteModel.Asset]
        do {
            assets = try Self.readAssets(config.templates.appendingPathComponent("assets"))
        } catch {
            throw .io("\(displayPath(config.templates))/assets: cannot read: \(error.localizedDescription)")
        }
        progress("Laying out itineraries")
        let layout = ItineraryLayout(exports: exports, timeZone: config.timeZone, log: log)
        let itineraries = layout.itineraries(exports.itineraries)

        // Polls: read, counted, laid out and written one file at a time (PollStream). After
        // an input error they are still read and checked, so every error is reported, but
        // nothing more is written.
        progress(options.write ? "Writing polls" : "Checking polls")
        let navigation = SitePlan.navigation(pages: pages)
        let pollKit = RenderKit(config: config, templates: templates, links: SiteLinks(style: config.urls, baseURL: config.baseURL),
                                format: Formatting(timeZone: config.timeZone), buildTime: nil, navigation: navigation)
        let paths = PlannedPaths()
        // Where files go, and the list of those written (nil for `sitegen check`).
        var target: (folder: OutputFolder, list: OutputList)?
        if let output {
            do {
                target = (output, try OutputList(temporaryFolder: config.output.deletingLastPathComponent()))
            } catch {
                throw .io("\(displayPath(config.output.deletingLastPathComponent())): cannot create a temporary file: \(error.localizedDescription)")
            }
        }
        let polls = streamPolls(&exports, config: config, loader: loader, layout: layout, kit: pollKit, paths: paths, output: target)
        ExportSet.checkUniqueness(polls.summaries, log: log)
        plausibility.report(to: log)
        layout.reportOrphanItems(exports.customItems, pollTrips: Set(polls.summaries.flatMap(\.tripIds)))
        let buildTime = exports.buildTime(environment: options.environment,
                                          streamedDates: polls.summaries.map(\.modifiedAt))

        progress("Choosing tips")
        let tips = Self.publishedTips(config: config, options: options, buildTime: buildTime, log: log)
        if log.hasErrors { throw .inputErrors(count: log.errorCount) }
        if let message = polls.failure { throw .io(message) }
        var site = SiteModel(config: config, tips: tips, polls: polls.summaries.sorted { $0.shareCode < $1.shareCode },
                             assets: assets, convoys: ConvoyPages.sorted(exports.convoys),
                             optionSets: exports.optionSets, itineraries: itineraries)
        site.pages = pages

        progress("Planning pages")
        var files = SitePlan.files(for: site)
        let sitemapPages = config.baseURL == nil ? nil : files.count { Sitemap.lists($0.path, listPolls: config.listPolls) } + polls.sitemapPages
        if let message = paths.claim(files.map(\.path) + (sitemapPages == nil ? [] : [Sitemap.path]) + ["manifest.json"]) {
            throw .io(message)
        }
        let pageCount = files.count { $0.path.hasSuffix(".html") } + polls.pages
        var report = BuildReport(title: config.title, output: config.output, pages: pageCount,
                                 files: files.count + polls.files + Sitemap.fileCount(pages: sitemapPages) + 1,
                                 polls: polls.summaries.count, ballots: exports.ballotCount, seconds: 0, wrote: options.write)
        guard let target, let fingerprint else {
            report.seconds = (clock.now - started).seconds
            return report
        }
        let (output, written) = target

        let kit = RenderKit(config: config, templates: templates, links: pollKit.links, format: pollKit.format,
                            buildTime: buildTime, navigation: navigation)
        progress("Rendering \(Formatting.count(files.count, "file"))")
        let fileCount = files.count
        let failure = ConcurrentResults<String>(count: 1)
        let pending = PendingFiles(files)
        files = []
        DispatchQueue.concurrentPerform(iterations: fileCount) { index in
            guard failure[0] == nil else { return }
            let file = pending.take(index)
            do throws(OutputError) {
                written.add(file.path, try Self.write(file, kit: kit, to: output))
            } catch {
                failure[0] = error.message
            }
        }
        if let message = failure[0] {
            throw .io(message)
        }

        // The sitemap and manifest.json list the written files in path order; the build
        // state lists them and these last files.
        progress("Writing sitemap and manifest")
        var late: [OutputList.Entry] = []
        do {
            if let sitemapPages {
                var outputs = try written.sorted()
                late += try Sitemap.write(count: sitemapPages, links: kit.links, listPolls: config.listPolls, outputs: &outputs) {
                    path, produce throws in try output.writeStreamed(path, produce)
                }
            }
            let manifest = Manifest(buildTime: buildTime, inputs: fingerprint.inputs, hiddenPrefix: config.listPolls ? nil : "polls/")
            let manifestFile = try output.writeStreamed("manifest.json") { file in
                try manifest.write(outputs: { body in
                    try written.forEachSorted(adding: late) { path, file in try body(Manifest.Entry(path: path, hash: file.hash)) }
                }, to: &file)
            }
            late.append(("manifest.json", manifestFile))
            report.files = written.count + late.count
            progress("Publishing to \(displayPath(config.output))")
            // What was read must be what the manifest and the state record: an input edited
            // mid-build would otherwise be published under its old hash.
            if let changed = fingerprint.changedInputs().first {
                throw OutputError(message: "\(displayPath(changed)): changed while the build was reading it; nothing was published. Build again")
            }
            // Kept files join the new site before the old state goes, so a path that is both
            // kept and written stops the build with the state (the record of what sitegen
            // wrote) still in place.
            try output.carryOverKept()
            // The state is dropped first: a crash between the swap and saving it must not
            // leave an old fingerprint next to a new site.
            BuildState.remove(for: config.output)
            try output.commit()
        } catch let error as OutputError {
            throw .io(error.message)
        } catch {
            throw .io("\(displayPath(config.output)): cannot read back the list of written files: \(error.localizedDescription)")
        }
        // Without the state the next build is simply a full one.
        try? BuildState.save(for: config.output, fingerprint: fingerprint.value, pages: report.pages, files: report.files,
                             polls: report.polls, ballots: report.ballots, diagnostics: log.all, omissions: log.omissions,
                             outputs: { body in try written.forEachSorted(adding: late, body) })
        report.seconds = (clock.now - started).seconds
        return report
    }

    /// The polls, through PollStream. The ballots are handed over, and dropped when every
    /// poll is counted.
    private func streamPolls(_ exports: inout ExportSet, config: SiteConfig, loader: ExportLoader, layout: ItineraryLayout, kit: RenderKit,
                             paths: PlannedPaths, output: (folder: OutputFolder, list: OutputList)?) -> PollStream.Outcome {
        let ballots = exports.ballots
        exports.ballots = [:]
        let stream = PollStream(config: config, loader: loader, ballots: ballots, layout: layout, paths: paths, log: log)
        var writer: PollStream.Writer?
        if let output {
            writer = { file throws(OutputError) in output.list.add(file.path, try Self.write(file, kit: kit, to: output.folder)) }
        }
        let outcome = stream.run(exports.pollFiles, writer: writer)
        let absent = Set(ballots.keys).subtracting(outcome.summaries.map(\.id))
        ExportSet.reportOrphanVotes(absent, voteFiles: exports.voteFiles, loader: loader, log: log)
        return outcome
    }

    /// Renders a planned file, hashes it and writes it (or links the previous build's copy).
    static func write(_ file: PlannedFile, kit: RenderKit, to output: OutputFolder) throws(OutputError) -> BuildState.OutputFile {
        let bytes = file.make(kit)
        let hash = ContentHash(of: bytes)
        let modified = try output.write(file.path, bytes, hash: hash)
        return BuildState.OutputFile(hash: hash, size: bytes.count, modified: modified)
    }

    /// The catalog (built in, or `tips.file`) and today's featured tips: the step is the UTC
    /// day number of `--date`, else of the build time; `--seed` overrides `tips.seed`.
    static func publishedTips(config: SiteConfig, options: BuildOptions, buildTime: Date, log: DiagnosticLog) -> PublishedTips {
        let catalog = config.tips.file.map { TipCatalog.load($0, log: log) ?? TipCatalog(tips: []) } ?? TipCatalog.builtIn()
        let date = options.date ?? buildTime
        let rotation = TipRotation(seed: options.seed ?? config.tips.seed, featured: config.tips.featured)
        let step = config.tips.rotation == .daily ? TipRotation.dayNumber(date.timeIntervalSince1970) : 0
        let featured = rotation.featuredIndices(count: catalog.tips.count, step: step).map { catalog.tips[$0] }
        return PublishedTips(catalog: catalog, featured: featured, date: date, rotation: config.tips.rotation)
    }

    /// The files below `Templates/assets`, subfolders included, as `assets/…` paths.
    /// Links out of the templates folder were refused with the templates.
    static func readAssets(_ folder: URL) throws -> [SiteModel.Asset] {
        let prefix = folder.standardizedFileURL.path + "/"
        return try InputFolder.list(folder).files.compactMap { url in
            let name = String(url.path.dropFirst(prefix.count))
            guard SafePath.isSafe(name) else { return nil }
            return SiteModel.Asset(name: name, bytes: [UInt8](try Data(contentsOf: url)))
        }
    }
}

/// The planned files, each handed out once and then forgotten, so what a page's closure
/// holds (a poll, its rendered trip cards) is freed as soon as its last file is written.
private final class PendingFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [PlannedFile?]

    init(_ files: [PlannedFile]) { self.files = files }

    func take(_ index: Int) -> PlannedFile {
        lock.withLock {
            defer { files[index] = nil }
            return files[index]!
        }
    }
}

extension SiteConfig {
    var inputFolders: [URL] {
        [inputs.polls, inputs.votes, inputs.trips, inputs.items, inputs.games, inputs.options, inputs.convoys]
            + [pages, tips.file].compactMap { $0 }
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
