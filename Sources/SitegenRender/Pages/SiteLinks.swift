import Foundation
import SitegenInput

/// Builds links between output files. Links are relative so the site works under any
/// sub-path and, with `urls: files`, straight from disk; absolute URLs (canonical, Open
/// Graph, sitemap) exist only when baseURL is set.
public struct SiteLinks: Sendable {
    public let style: SiteConfig.URLStyle
    public let baseURL: URL?

    private let baseText: String?

    public init(style: SiteConfig.URLStyle, baseURL: URL?) {
        self.style = style
        self.baseURL = baseURL
        baseText = baseURL?.absoluteString
    }

    /// The file a page path is written to: "polls/ABC/" → "polls/ABC/index.html".
    public static func file(for path: String) -> String {
        path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
    }

    /// The link text for a target as seen from the site root: a page ("polls/ABC/") or a
    /// file ("assets/site.css").
    package func rootRelative(_ target: String) -> String {
        let isPage = target.isEmpty || target.hasSuffix("/")
        return isPage && style == .files ? target + "index.html" : target
    }

    /// A relative href from the output file `from` to `target`.
    public func href(_ target: String, from: String) -> String {
        let depth = from.reduce(0) { $1 == "/" ? $0 + 1 : $0 }
        let link = String(repeating: "../", count: depth) + rootRelative(target)
        return link.isEmpty ? "./" : link
    }

    /// `target` from the root of the domain ("/assets/site.css"), for a page a host serves at
    /// whatever address was mistyped (404.html) when baseURL is not set: a relative link from
    /// there points below that address. Right only when the site sits at the root of its
    /// domain (docs/publishing.md, "baseURL"). nil with `urls: files`, whose pages are opened
    /// from disk, where a link from the root leads nowhere.
    package func rooted(_ target: String) -> String? {
        guard style != .files else { return nil }
        let path = "/" + rootRelative(target)
        if path.utf8.allSatisfy(Self.isPlainPathByte) { return path }
        return path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
    }

    /// `target`'s path from the root of its host, percent-encoded as in a URL: under
    /// baseURL's path when it has one ("/trips/polls/"), else from the root ("/polls/").
    /// For robots.txt, whose rules are such paths.
    package func pathFromHost(_ target: String) -> String {
        let base = baseText.flatMap { URLComponents(string: $0)?.percentEncodedPath } ?? "/"
        let path = base.hasSuffix("/") ? base : base + "/"
        let rest = target.utf8.allSatisfy(Self.isPlainPathByte) ? target : target.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        return path + rest
    }

    /// The absolute URL of `target`, when baseURL is set.
    public func absolute(_ target: String) -> String? {
        guard let baseText else { return nil }
        let path = rootRelative(target)
        // Output paths are nearly always made of share codes, UUIDs and slugs, which need no
        // percent-encoding; Foundation's encoder is slow enough to show in large builds.
        if path.utf8.allSatisfy(Self.isPlainPathByte) { return baseText + path }
        return baseText + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
    }

    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
