import Foundation
import SitegenCore
import SitegenInput
import SitegenRender

/// What the plan stage hands on.
struct Plan {
    /// Every file but the polls' own (written as they streamed) and the sitemap's and
    /// manifest's (written last, from the list of written files).
    let files: PendingFiles
    /// Pages the sitemap lists; nil without `baseURL` (no sitemap).
    let sitemapPages: Int?
    /// The whole site's pages and files, sitemap and manifest.json included.
    let pages: Int
    let fileCount: Int
}

/// Stage 5: decides every remaining file of the site (SitePlan) and claims its path, as each
/// poll's files were claimed when it streamed past (`files(for:)`).
struct PlanStage {
    let paths: PlannedPaths
    let log: DiagnosticLog

    func run(_ computed: Computed) throws(BuildFailure) -> Plan {
        let config = computed.site.config
        let files = SitePlan.files(for: computed.site)
        if let refusal = paths.plan(files, listPolls: config.listPolls) { throw .io(refusal) }
        let sitemapPages = config.baseURL == nil ? nil : paths.sitemapPages
        if let refusal = paths.claim((sitemapPages == nil ? [] : [Sitemap.path]) + ["manifest.json"]) { throw .io(refusal) }
        PageLinkCheck.report(computed.site.pages, config: config, paths: paths, log: log)
        // site.yml refuses the site's own top-level names in keep:; a page, or a file or page
        // folder of a poll, is known only now. One sitegen writes passed the first build and
        // failed every build that changed it (exit 3).
        // Every such entry, in file order, as site.yml's other problems are.
        func refusal(_ kept: String, _ message: String) -> Diagnostic {
            let mark = config.keepMarks[kept]
            return Diagnostic(.error, file: displayPath(config.file), line: mark?.line ?? nil, column: mark?.column ?? nil,
                              field: "keep", message: message + "; keep lists only what it does not write, such as CNAME or downloads")
        }
        let inside = paths.pathsInsideKept
        let refusals = config.keep.enumerated().compactMap { index, kept -> Diagnostic? in
            if paths.isPlanned(kept) || paths.isPlanned(kept + "/index.html") { return refusal(kept, "sitegen writes \"\(kept)\" itself") }
            return inside[index].map { refusal(kept, "sitegen writes \"\($0)\" inside \"\(kept)\"") }
        }
        if !refusals.isEmpty { throw .configuration(refusals) }
        // Every path is claimed: the keys (4 MB at 10,000 polls) go before the site renders.
        paths.forgetClaims()
        return Plan(files: PendingFiles(files), sitemapPages: sitemapPages, pages: paths.pages,
                    fileCount: paths.files + Sitemap.fileCount(pages: sitemapPages) + 1)
    }

    /// A counted poll's files: its page and results, its preview card, its trips' pages and
    /// its option views.
    static func files(for published: PublishedPoll, config: SiteConfig, layout: ItineraryLayout, log: DiagnosticLog? = nil) -> [PlannedFile] {
        let unlisted = !config.listPolls
        var files = PollPages.files(for: published, unlisted: unlisted, tripPages: true)
        if config.previews { files.append(PreviewPages.pollFile(published)) }
        files += layout.trips(of: published, log: log).flatMap { ItineraryPages.files(for: $0, previews: false) }
        files += OptionPages.files(for: published, unlisted: unlisted, plannedPaths: Set(files.map(\.path)))
        return files
    }
}

/// The planned files, each handed out once and then forgotten, so what a page's closure
/// holds (a poll, its rendered trip cards) is freed as soon as its last file is written.
final class PendingFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [PlannedFile?]
    let count: Int

    init(_ files: [PlannedFile]) {
        self.files = files
        count = files.count
    }

    func take(_ index: Int) -> PlannedFile {
        lock.withLock {
            defer { files[index] = nil }
            return files[index]!
        }
    }
}
