import Foundation

/// Where a link written in a Markdown page leads inside the site: what the plan stage checks
/// a page's links against (`PageLinkCheck`), so that a mistyped share code or a link written
/// from the wrong folder ("tips/" from /about/) is a warning, not a friend's 404.
package enum LinkTarget: Equatable, Sendable {
    /// Not a path of this site: another site, an e-mail address, a place on the same page.
    case elsewhere
    /// The site's output files the link reaches, any one of them: a folder's `index.html`,
    /// a file, or for a name without an extension either (hosts add the slash).
    case files([String])
    /// More "../" than the page has folders above it.
    case aboveRoot
    /// A path from the host's root that is not under baseURL's path.
    case outsideSite

    /// `url` as written in the page at `page` ("about/"); `basePath` is baseURL's path
    /// ("/trips/"), or "/" without one.
    package static func of(_ url: String, from page: String, basePath: String = "/") -> LinkTarget {
        let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let end = url.firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let written = String(url[..<end])
        // "#section", "?q", "", "https:…", "mailto:…", "//host/…".
        if written.isEmpty || written.hasPrefix("//") { return .elsewhere }
        if let colon = written.firstIndex(of: ":"), !written[..<colon].contains("/") { return .elsewhere }
        let path = written.removingPercentEncoding ?? written
        var folders: [Substring]
        var rest = Substring(path)
        if path.hasPrefix("/") {
            let base = basePath.hasSuffix("/") ? basePath : basePath + "/"
            guard path.hasPrefix(base) || path + "/" == base else { return .outsideSite }
            rest = path.dropFirst(min(base.count, path.count))
            folders = []
        } else {
            folders = page.split(separator: "/")
            if !page.hasSuffix("/") { _ = folders.popLast() }   // a file's folder
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            switch part {
            case "", ".": continue
            case "..":
                guard !folders.isEmpty else { return .aboveRoot }
                folders.removeLast()
            default: folders.append(part)
            }
        }
        let joined = folders.joined(separator: "/")
        let last = parts.last ?? ""
        // Ends in a folder: "tips/", "..", ".", or the site's root itself.
        if last.isEmpty || last == "." || last == ".." || joined.isEmpty {
            return .files([joined.isEmpty ? "index.html" : joined + "/index.html"])
        }
        return .files(last.contains(".") ? [joined] : [joined, joined + "/index.html"])
    }
}
