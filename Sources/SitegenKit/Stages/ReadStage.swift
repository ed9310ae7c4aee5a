import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenRender

/// What the read stage hands on: everything the site is made from, the polls as summaries.
struct Inputs {
    var config: SiteConfig
    var templates: TemplateSet
    /// Every export but the polls, the ballots handed to the poll stream and dropped.
    var exports: ExportSet
    /// The polls that ballots were cast for, to find votes for absent polls.
    var ballotPolls: Set<UUID>
    /// In file order, then record order.
    var polls: [PollSummary]
    /// Each poll's key (PollSteps), and later each keyed file's (RenderStage), for the build record.
    var keys: PollKeys
    /// What each poll file gave this build, for the next (nil for `sitegen check`).
    var pollCache: PollFileCache?
    /// How many poll and vote files were read; the others were unchanged since the last build.
    var pollFilesRead: Int
    var voteFilesRead: Int
    var pages: [MarkdownPage]
    var assets: [SiteModel.Asset]
    var tipCatalog: TipCatalog
    var layout: ItineraryLayout
    var itineraries: [PublishedItinerary]
    var navigation: [RenderKit.NavigationItem]
    var loader: ExportLoader
    /// The dates read, for the site-wide `numericDates` check.
    var plausibility: DatePlausibility
}

/// Stage 2: templates, assets, Markdown pages, the tips file and every export, with each
/// file's own problems logged as it is read. Polls stream through their later steps as
/// they are read (PollStream); with an input error logged, they are still read and checked,
/// so every problem is reported, but no longer written.
struct ReadStage {
    let config: SiteConfig
    let options: BuildOptions
    let log: DiagnosticLog
    /// Where streamed polls are planned and rendered.
    let paths: PlannedPaths
    let render: RenderStage
    /// BuildFingerprint.pollContext and catalogContext (nil for `sitegen check`), and the
    /// last build's poll keys.
    var pollContext: String?
    var catalogContext: String?
    var reusablePolls: Set<String> = []
    /// The fingerprint's hash of each input file, and the last build's PollFileCache when it
    /// has this build's context: still being decoded while the other exports are read, and
    /// waited for only when the votes need it.
    var hashes: [String: String] = [:]
    var lastPollCache: LastPollCache?

    func run() throws(BuildFailure) -> Inputs {
        let templates: TemplateSet
        do {
            templates = try TemplateSet.load(from: config.templates, required: SitePlan.requiredTemplates, engine: options.templateEngine)
        } catch {
            throw .configuration([error.diagnostic])
        }
        // Templates and assets: links out of the folder are template errors (exit 2), special
        // files warnings. TemplateSet has refused links out among the templates themselves.
        let templateFolder = InputFolder.list(config.templates)
        if let unreadable = templateFolder.problems.first(where: \.isUnreadable) {
            throw .io("\(unreadable.file): \(unreadable.message)")
        }
        if let linkOut = templateFolder.problems.first(where: { $0.severity == .error }) {
            throw .configuration([linkOut])
        }
        templateFolder.problems.forEach(log.add)

        let plausibility = DatePlausibility(numericDates: config.numericDates)
        let loader = ExportSet.loader(config: config, log: log, plausibility: plausibility)
        let votes = VoteFiles(loader: loader, log: log, dates: plausibility, last: { lastPollCache?.value }, hashes: hashes,
                              keeps: pollContext != nil)
        var exports = ExportSet.load(config: config, loader: loader, log: log, readVotes: votes.ballots)
        let pages = MarkdownPages.load(config.pages, siteFolder: config.folder, log: log)
        // Their links are checked against the paths as written (PageLinkCheck).
        if !pages.isEmpty { paths.keepExactPaths() }
        let assets: [SiteModel.Asset]
        do {
            assets = try Self.readAssets(config.templates.appendingPathComponent("assets"))
        } catch {
            throw .io("\(displayPath(config.templates))/assets: cannot read: \(error.localizedDescription)")
        }
        // Every page links its stylesheet (layout.stylesheet): without it the site was
        // published unstyled, with no word.
        if !assets.contains(where: { $0.name == "site.css" }) && templates.uses("layout.stylesheet") {
            log.add(Diagnostic(.warning, file: displayPath(config.templates.appendingPathComponent("assets/site.css")),
                               message: "the templates link every page to assets/site.css, which does not exist; the pages would show unstyled"))
        }
        let tipCatalog = Self.tipCatalog(config, log: log)
        let layout = ItineraryLayout(exports: exports, timeZone: config.timeZone, log: log)
        let itineraries = layout.itineraries(exports.itineraries)

        let navigation = SitePlan.navigation(pages: pages)
        let kit = RenderKit(config: config, templates: templates, links: SiteLinks(style: config.urls, baseURL: config.baseURL),
                            format: Formatting(timeZone: config.timeZone), buildTime: nil, navigation: navigation)
        // The ballots are dropped when every poll is counted.
        let ballots = exports.ballots
        exports.ballots = BallotsByPoll()
        let steps = PollSteps(config: config, ballots: ballots, layout: layout, paths: paths, render: render, kit: kit,
                              context: pollContext, reusable: reusablePolls)
        let stream = PollStream(loader: loader, steps: steps, log: log, dates: plausibility, last: lastPollCache?.value,
                                next: pollContext.map { context in
                                    var cache = PollFileCache(context: PollFileCache.context(pollContext: context), files: [:], votes: votes.kept)
                                    cache.catalog = catalogContext ?? ""
                                    return cache
                                },
                                hashes: hashes)
        try render.awaitLastBuildsFiles()
        let (polls, pollCache, pollFilesRead) = stream.run(exports.pollFiles)
        return Inputs(config: config, templates: templates, exports: exports, ballotPolls: ballots.pollIds, polls: polls,
                      keys: steps.keys, pollCache: pollCache, pollFilesRead: pollFilesRead, voteFilesRead: votes.filesRead,
                      pages: pages, assets: assets, tipCatalog: tipCatalog, layout: layout, itineraries: itineraries,
                      navigation: navigation, loader: loader, plausibility: plausibility)
    }

    /// The built-in catalog, or site.yml's `tips.file` (an empty one when it cannot be read).
    static func tipCatalog(_ config: SiteConfig, log: DiagnosticLog) -> TipCatalog {
        config.tips.file.map { TipCatalog.load($0, log: log) ?? TipCatalog(tips: []) } ?? TipCatalog.builtIn()
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
