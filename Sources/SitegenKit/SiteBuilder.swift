import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenOutput
import SitegenRender

/// Why a build stopped, with its exit status (README.md, "Using it").
public enum BuildFailure: Error, Sendable {
    /// Bad export data (exit 1); the diagnostics are in the log.
    case inputErrors(count: Int)
    /// Bad site.yml or templates (exit 2): every problem found, in file order.
    case configuration([Diagnostic])
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
    /// The site to build into instead of site.yml's output folder (a MemoryOutput in tests).
    var siteOutput: (any SiteOutput)?
    /// Renders templates instead of sitegen's renderer; tests compare it with swift-mustache.
    public var templateEngine: TemplateSet.Engine?
    /// Leaves removing the replaced site to a detached process (OutputFolder.discard), so the
    /// build returns as soon as the new site is in place. The command line sets it.
    public var removesReplacedSiteInBackground = false
    /// `--changes FILE`: after a successful build, the output paths it added (A), changed (M)
    /// and removed (D), one a line in path order; empty when nothing changed.
    public var changesFile: URL?

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
    /// Poll export files, and how many of them were read: the others were unchanged since
    /// the last build, their polls taken from it (PollFileCache).
    public var pollFiles = 0
    public var pollFilesRead = 0
    /// The same for vote files, whose ballots were taken from the last build.
    public var voteFiles = 0
    public var voteFilesRead = 0

    /// For `--verbose`: how much of the polls and votes a rebuild read again.
    public var pollFilesLine: String {
        func line(_ kind: String, _ read: Int, _ all: Int) -> String {
            "\(kind) files read: \(Formatting.grouped(read)) of \(Formatting.grouped(all))"
                + (read < all ? " (\(Formatting.grouped(all - read)) unchanged since the last build)" : "")
        }
        return line("Poll", pollFilesRead, pollFiles) + "; " + line("vote", voteFilesRead, voteFiles)
    }

    /// The closing summary line. The site's title comes from site.yml: its control
    /// characters are named, as in diagnostics, so it can neither colour the terminal nor
    /// start a line that CI reads as a workflow command (`::error::…`).
    public var summary: String { Diagnostic.terminalSafe(summaryText) }

    private var summaryText: String {
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

/// Runs the pipeline: the stages of PipelineStage, one after another, each reported as it
/// starts. `sitegen check` stops after planning; a failed build abandons the new site.
public struct SiteBuilder {
    public let options: BuildOptions
    public let log: DiagnosticLog
    /// Called as each stage starts (BuildReporter: the status line and `--verbose`).
    public var progress: @Sendable (BuildStage) -> Void = { _ in }

    /// How many stages `run()` reports.
    static func stageCount(writing: Bool) -> Int { PipelineStage.list(writing: writing).count }

    public init(options: BuildOptions, log: DiagnosticLog) {
        self.options = options
        self.log = log
    }

    public func run() throws(BuildFailure) -> BuildReport {
        let clock = ContinuousClock()
        let started = clock.now
        var stages = StageDriver(writing: options.write, progress: progress)
        let outcome = try stages.run(.config, "Reading \(displayPath(options.configFile))") { () throws(BuildFailure) in
            try ConfigStage(options: options).run()
        }
        switch outcome {
        case .upToDate(let config, let record, let carriedChanges):
            // Same bytes in, same bytes out: every published file (and its mtime) is left alone.
            record.diagnostics.forEach(log.add)
            record.omissions.forEach(log.add)
            if let file = options.changesFile {
                do throws(OutputError) {
                    try PublishStage.writeChanges(carriedChanges, to: file)
                } catch {
                    throw .io(error.message)
                }
            }
            return BuildReport(title: config.title, output: config.output, pages: record.pages, files: record.files,
                               polls: record.polls, ballots: record.ballots, seconds: (clock.now - started).seconds,
                               wrote: true, upToDate: true)
        case .build(let setup):
            do {
                var report = try build(setup, stages: &stages)
                report.seconds = (clock.now - started).seconds
                return report
            } catch {
                setup.output?.abandon()
                throw error
            }
        }
    }

    /// The stages after config.
    private func build(_ setup: Setup, stages: inout StageDriver) throws(BuildFailure) -> BuildReport {
        let config = setup.config
        let paths = PlannedPaths(expectedFiles: setup.output?.lastFileCount ?? 0, kept: config.keep)
        let render = RenderStage(output: setup.output, log: log)
        var inputs = try stages.run(.read, options.write ? "Reading inputs and writing polls" : "Reading inputs") { () throws(BuildFailure) in
            try ReadStage(config: config, options: options, log: log, paths: paths, render: render,
                          pollContext: setup.fingerprint?.pollContext, catalogContext: setup.fingerprint?.catalogContext,
                          reusablePolls: setup.reusablePolls,
                          hashes: setup.fingerprint?.hashes ?? [:], lastPollCache: setup.lastPollCache).run()
        }
        setup.lastPollCache?.release()
        if var cache = inputs.pollCache, let output = setup.output, let fingerprint = setup.fingerprint {
            // Written while the rest of the site is rendered (on a core the render leaves
            // idle at times), then let go; `publish` puts it in place.
            cache.build = fingerprint.value
            output.startPollCache { [cache] write in try cache.write(to: write) }
            inputs.pollCache = nil
        }
        var checked = try stages.run(.check, "Checking across exports") { () throws(BuildFailure) in
            try CheckStage(log: log, failure: render.failure).run(inputs)
        }
        // The summaries are `checked`'s alone from here, so the compute stage sorts them in
        // place into the site model: a sorted copy beside them was 4 MB of a one-ballot
        // rebuild's peak at 10,000 polls.
        inputs.polls = []
        let pollCount = checked.polls.count
        let computed = try stages.run(.compute, "Computing build time and tips") { ComputeStage(options: options, log: log).run(&checked) }
        let plan = try stages.run(.plan, "Planning pages") { () throws(BuildFailure) in
            try PlanStage(paths: paths, log: log).run(computed)
        }
        var report = BuildReport(title: config.title, output: config.output, pages: plan.pages, files: plan.fileCount,
                                 polls: pollCount, ballots: checked.exports.ballotCount, seconds: 0, wrote: options.write)
        report.pollFiles = checked.exports.pollFiles.count
        report.pollFilesRead = checked.pollFilesRead
        report.voteFiles = checked.exports.voteFiles.count
        report.voteFilesRead = checked.voteFilesRead
        guard let output = setup.output, let fingerprint = setup.fingerprint else { return report }

        try stages.run(.render, "Rendering \(Formatting.count(plan.files.count, "file"))") { () throws(BuildFailure) in
            try render.run(plan.files, kit: computed.kit,
                           keys: RenderStage.Keys(context: fingerprint.siteContext, last: setup.reusablePolls, now: inputs.keys))
        }
        report.files = try stages.run(.publish, "Publishing to \(displayPath(config.output))") { () throws(BuildFailure) in
            try PublishStage(output: output, fingerprint: fingerprint, log: log, pollKeys: inputs.keys.sorted,
                             lastKeys: setup.reusablePolls, changesFile: options.changesFile).run(plan, computed, report: report)
        }
        return report
    }
}

/// The last build's PollFileCache, opened when it was written in this build's context: its
/// vote files' ballots decoded, its poll files' shares only located (each is read again
/// from the file when its poll file comes up, PollFileCache.entry).
///
/// A rebuild starts opening it on the other core while the config stage reads the last
/// build's list of files: both grow with the site, and neither needs the other.
final class LastPollCache: @unchecked Sendable {
    private let output: any SiteOutput
    private let fingerprint: BuildFingerprint
    private let decoding = DispatchGroup()
    private var started = false
    private let lock = NSLock()
    /// nil until decoded; then the cache, or nil when there is none for this build.
    private var cache: PollFileCache??

    init(output: any SiteOutput, fingerprint: BuildFingerprint) {
        self.output = output
        self.fingerprint = fingerprint
    }

    /// Starts decoding in the background, unless the last build had these very inputs: then
    /// the build is most likely up to date and needs no cache.
    func startUnlessUpToDate() {
        guard let build = output.lastBuildFingerprint, build != fingerprint.value else { return }
        started = true
        decoding.enter()
        DispatchQueue.global().async { [self] in
            let decoded = decode()
            lock.withLock { cache = decoded }
            decoding.leave()
        }
    }

    /// The decoded cache, or nil when there is none for this build (every poll file is read).
    /// Safe from many threads (the vote files are read in parallel); decoded once.
    var value: PollFileCache? {
        if started { decoding.wait() }
        return lock.withLock {
            if let cache { return cache }
            let decoded = decode()
            cache = decoded
            return decoded
        }
    }

    /// Lets the decoded cache go once the read stage is done with it. What this build kept
    /// of it is in this build's cache, which is written and let go while the site renders.
    /// Held to the end of the build, it kept the heap in use after the read stage at 64 MB
    /// instead of 48 MB (one-ballot rebuild, 10,000 polls).
    func release() {
        if started { decoding.wait() }
        lock.withLock { cache = .some(nil) }
    }

    private func decode() -> PollFileCache? {
        guard let build = output.lastBuildFingerprint else { return nil }
        let context = PollFileCache.context(pollContext: fingerprint.pollContext)
        // The file is not replaced before this build publishes, after its own cache is written.
        let last = PollFileCache.LastCacheBytes { [output] range in
            output.withLastPollCache { bytes in range.upperBound <= bytes.count ? [UInt8](UnsafeRawBufferPointer(rebasing: bytes[range])) : nil }
        }
        return output.withLastPollCache { PollFileCache.decode($0, context: context, build: build, last: last) }
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
