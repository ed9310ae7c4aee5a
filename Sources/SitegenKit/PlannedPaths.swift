import Foundation
import SitegenCore
import SitegenRender
import SitegenInput

/// Every output path of the site, claimed as files are planned: a path outside the output
/// folder, or two files whose paths differ only in case (hosts on case-insensitive file
/// systems would merge them), stop the build. Paths are remembered by the key of their
/// case-folded bytes.
///
/// Streamed polls and the rest of the site are planned through it alike, so it also counts
/// what the build report and the sitemap need.
final class PlannedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = Set<PathKey>()
    /// The paths as written too, not case-folded, once `keepExactPaths` asks: what a page's
    /// links are checked against (`PageLinkCheck`), as "../TIPS/" fails on most hosts.
    private var exact: Set<PathKey>?
    private var counts = (files: 0, pages: 0, sitemapPages: 0)
    /// `keep:` entries as folders ("polls/x7k9m2/trips/", case-folded), and the first path
    /// in byte order claimed inside each: a kept folder sitegen writes into passed the first
    /// build and failed every later one at publishing (exit 3).
    private let keptFolders: [[UInt8]?]
    private let checksKept: Bool
    private var insideKept: [String?]

    /// `expectedFiles`: about how many paths will be claimed (the last build's count), room
    /// made for at once: growing the set rehashed every key claimed so far, a third of the
    /// claims' time in a rebuild at 10,000 polls. `kept`: site.yml's `keep:` paths.
    init(expectedFiles: Int = 0, kept: [String] = []) {
        seen.reserveCapacity(expectedFiles)
        // .git, CNAME and .nojekyll, always kept, hold no path sitegen writes: no site pays for them.
        keptFolders = kept.map { SiteConfigLoader.defaultKeep.contains($0) ? nil : Self.caseFolded($0) + [UInt8(ascii: "/")] }
        checksKept = keptFolders.contains { $0 != nil }
        insideKept = Array(repeating: nil, count: kept.count)
    }

    /// For each `keep:` entry, the first claimed path inside it in byte order (whichever
    /// thread claimed it first), or nil.
    var pathsInsideKept: [String?] {
        lock.withLock { insideKept }
    }

    /// Files planned so far, pages among them (HTML files), and pages the sitemap lists.
    var files: Int { lock.withLock { counts.files } }
    var pages: Int { lock.withLock { counts.pages } }
    var sitemapPages: Int { lock.withLock { counts.sitemapPages } }

    /// Claims and counts `files`; nil when every path is new and safe, else why not.
    func plan(_ files: [PlannedFile], listPolls: Bool) -> String? {
        plan(paths: files.map(\.path), listPolls: listPolls)
    }

    /// The same for files known by path only (a poll kept from the last build).
    func plan(paths: [String], listPolls: Bool) -> String? {
        let pages = paths.count { $0.hasPathSuffix(".html") }
        let listed = paths.count { Sitemap.lists($0, listPolls: listPolls) }
        lock.withLock {
            counts.files += paths.count
            counts.pages += pages
            counts.sitemapPages += listed
        }
        return claim(paths)
    }

    /// nil when every path is new and safe, else why not.
    func claim(_ paths: [String]) -> String? {
        for path in paths where !SafePath.isSafe(path) {
            return "refusing to write outside the output folder: \(path)"
        }
        let folded = paths.map(Self.caseFolded)
        let keys = folded.map { PathKey($0) }
        return lock.withLock {
            for (path, key) in zip(paths, keys) where !seen.insert(key).inserted {
                return "two files of the site would be written to \(path)"
            }
            for (index, folder) in keptFolders.enumerated() where checksKept {
                guard let folder else { continue }
                for (path, bytes) in zip(paths, folded) where bytes.starts(with: folder) {
                    if let found = insideKept[index], !Array(path.utf8).lexicographicallyPrecedes(Array(found.utf8)) { continue }
                    insideKept[index] = path
                }
            }
            if exact != nil {
                for path in paths { exact!.insert(PathKey(Array(path.utf8))) }
            }
            return nil
        }
    }

    /// From now on, keeps every claimed path as written as well (a site with Markdown
    /// pages, before any path is claimed): a few megabytes at 10,000 polls, only then.
    func keepExactPaths() {
        lock.withLock { if exact == nil { exact = [] } }
    }

    /// Whether `path` was claimed, before `forgetClaims`: as written when `keepExactPaths`
    /// was called first, else with its case aside.
    func isPlanned(_ path: String) -> Bool {
        lock.withLock {
            if let exact { return exact.contains(PathKey(Array(path.utf8))) }
            return seen.contains(PathKey(Self.caseFolded(path)))
        }
    }

    /// Lets the claimed paths' keys go once every file is planned; the counts stay. A path
    /// claimed after this is not checked against the earlier ones.
    func forgetClaims() {
        lock.withLock {
            seen = []
            exact = exact.map { _ in [] }
        }
    }

    /// The path's bytes lower-cased, with a fast path for ASCII paths (nearly all of them).
    static func caseFolded(_ path: String) -> [UInt8] {
        var bytes = Array(path.utf8)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0x80 { return Array(path.lowercased().utf8) }
            if byte &- 0x41 < 26 { bytes[index] = byte | 0x20 }
        }
        return bytes
    }
}
