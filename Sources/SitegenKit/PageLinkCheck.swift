import Foundation
import SitegenCore
import SitegenInput
import SitegenRender

/// Warns about a Markdown page's links and images that lead to no file of the site: a
/// mistyped share code, a page renamed since, or "tips/" written from /about/ (which leads
/// to /about/tips/). Run when every path is planned, polls' included (`PlanStage`); links to
/// other sites are not followed.
enum PageLinkCheck {
    static func report(_ pages: [MarkdownPage], config: SiteConfig, paths: PlannedPaths, log: DiagnosticLog) {
        let basePath = config.baseURL.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.path } ?? "/"
        // Kept files sitegen did not write (docs/site-config.md, "keep") may be linked to.
        let kept = config.keep.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        func exists(_ file: String) -> Bool {
            paths.isPlanned(file) || kept.contains { file == $0 || file.hasPrefix($0 + "/") }
        }
        for page in pages.sorted(by: { $0.slug < $1.slug }) {
            let depth = page.path.count { $0 == "/" }
            for link in MarkdownRenderer.links(in: page.markdown) {
                let problem: String
                switch LinkTarget.of(link.url, from: page.path, basePath: basePath) {
                case .elsewhere:
                    continue
                case .files(let files):
                    guard !files.contains(where: exists) else { continue }
                    problem = "leads to \(shown(files[0])) of the site, which has no such page or file"
                        + (suggestion(link.url, depth: depth, basePath: basePath, exists: exists).map { "; \"\($0)\" leads to the site's \(shownTarget(of: $0, page: page, basePath: basePath))" } ?? "")
                case .aboveRoot:
                    problem = "leads above the site's root folder"
                case .outsideSite:
                    let relative = String(repeating: "../", count: depth) + link.url.drop { $0 == "/" }
                    problem = "leads outside the site, which baseURL puts at \(basePath)"
                        + (reaches(relative, from: page.path, exists: exists) ? "; \"\(relative)\", relative to the page, leads to the site's \(shownTarget(of: relative, page: page, basePath: basePath))" : "")
                }
                log.add(Diagnostic(.warning, file: page.file, line: page.bodyLine + link.line - 1, column: link.column,
                                   message: "\(link.isImage ? "image" : "link") \"\(link.url)\" \(problem)"))
            }
        }
    }

    private static func reaches(_ url: String, from page: String, exists: (String) -> Bool) -> Bool {
        if case .files(let files) = LinkTarget.of(url, from: page) { return files.contains(where: exists) }
        return false
    }

    /// "about/tips/index.html" → "/about/tips/".
    private static func shown(_ file: String) -> String {
        "/" + (file == "index.html" ? "" : file.hasSuffix("/index.html") ? String(file.dropLast("index.html".count)) : file)
    }

    private static func shownTarget(of url: String, page: MarkdownPage, basePath: String) -> String {
        if case .files(let files) = LinkTarget.of(url, from: page.path, basePath: basePath) { return shown(files[0]) }
        return url
    }

    /// The same link written from the site's root folder, when that reaches a file: the
    /// usual slip is writing "polls/ABC/" in a page that sits a folder below the root.
    private static func suggestion(_ url: String, depth: Int, basePath: String, exists: (String) -> Bool) -> String? {
        guard depth > 0, !url.hasPrefix("/"), !url.hasPrefix("."),
              case .files(let files) = LinkTarget.of(url, from: "", basePath: basePath), files.contains(where: exists) else { return nil }
        return String(repeating: "../", count: depth) + url
    }
}
