import Foundation
import SitegenCore

/// What a request path means for the output folder.
public enum SiteResponse: Equatable, Sendable {
    /// A regular file inside the output folder (after resolving symlinks), with its content type.
    case file(URL, contentType: String)
    /// A folder asked for without its trailing slash: the browser must resolve relative links from inside it.
    case redirect(location: String)
    case notFound
}

/// Maps raw request paths to files of the output folder, and never to anything outside it.
///
/// Works on the raw, still percent-encoded path of the request line, so that `..`, `%2e%2e`
/// and `..%2f` are all seen and refused (FlyingFox's own `request.path` has already folded
/// dot segments away, which would turn `/../site.yml` into an innocent-looking `/site.yml`).
public struct SiteFileResolver: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func resolve(rawPath: String) -> SiteResponse {
        guard let segments = Self.segments(ofRawPath: rawPath),
              let rootPath = realPath(root.path) else { return .notFound }
        let wantsFolder = segments.isEmpty || rawPath.hasSuffix("/")
        guard let resolved = realPath(([rootPath] + segments).joined(separator: "/")),
              Self.isInside(resolved, root: rootPath) else { return .notFound }

        switch Self.kind(of: resolved) {
        case .folder:
            guard wantsFolder else { return .redirect(location: rawPath + "/") }
            guard let index = realPath(resolved + "/index.html"),
                  Self.isInside(index, root: rootPath), Self.kind(of: index) == .regularFile else { return .notFound }
            return .file(URL(fileURLWithPath: index), contentType: ContentType.html)
        case .regularFile:
            guard !wantsFolder, let name = segments.last else { return .notFound }
            return .file(URL(fileURLWithPath: resolved), contentType: ContentType.forFileName(name))
        case .other:
            return .notFound
        }
    }

    /// The decoded path segments, or nil when the path is not a plain path inside the site:
    /// bytes that must be escaped, bad escapes, empty, `.`-prefixed (`.`, `..`, hidden files)
    /// or slash-carrying segments, backslashes, NUL and other control characters.
    static func segments(ofRawPath rawPath: String) -> [String]? {
        guard rawPath.hasPrefix("/"),
              rawPath.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var parts = rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if parts.last == "" { parts.removeLast() }
        var segments: [String] = []
        for part in parts {
            guard let decoded = part.removingPercentEncoding,
                  !decoded.isEmpty, !decoded.hasPrefix("."),
                  !decoded.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F })
            else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    enum Kind { case folder, regularFile, other }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .regularFile
        default: return .other
        }
    }
}

/// Content types for the files a sitegen site contains (README.md, "What the pages show"), by file name extension.
public enum ContentType {
    public static let html = "text/html; charset=utf-8"
    public static let plainText = "text/plain; charset=utf-8"

    static let byExtension: [String: String] = [
        "html": html,
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json",
        "ics": "text/calendar; charset=utf-8",
        "gpx": "application/gpx+xml",
        "xml": "application/xml",
        "txt": plainText,
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
    ]

    public static func forFileName(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
