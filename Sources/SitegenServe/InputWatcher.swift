import Foundation
import SitegenInput
import SitegenKit

/// Everything a build reads: site.yml, the templates folder and every input folder.
public struct WatchedInputs: Equatable, Sendable {
    public var roots: [URL]
    /// Never scanned, even below a root: a build's own output must not trigger the next build.
    public var excluded: [URL]

    public init(roots: [URL], excluded: [URL] = []) {
        self.roots = roots.map(\.standardizedFileURL)
        self.excluded = excluded.map(\.standardizedFileURL)
    }

    public init(config: SiteConfig) {
        let inputs = config.inputs
        let folders = [inputs.polls, inputs.votes, inputs.trips, inputs.items, inputs.games, inputs.options, inputs.convoys]
        self.init(roots: [config.file, config.templates] + folders + [config.pages, config.tips.file].compactMap { $0 },
                  excluded: [config.output])
    }
}

/// The modification time and size of every file below the watched roots, by path.
public struct InputSnapshot: Equatable, Sendable {
    public struct Stamp: Equatable, Sendable {
        var modified: Date?
        var size: Int?
    }

    public var stamps: [String: Stamp]

    /// Paths added, removed or changed since `earlier`, sorted.
    public func changes(since earlier: InputSnapshot) -> [String] {
        Set(stamps.keys).union(earlier.stamps.keys).filter { stamps[$0] != earlier.stamps[$0] }.sorted()
    }

    /// Polling stat() is portable (no inotify/FSEvents) and cheap for a site's few hundred files.
    public static func scan(_ inputs: WatchedInputs) -> InputSnapshot {
        let fileManager = FileManager.default
        let excluded = Set(inputs.excluded.map(\.path))
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isDirectoryKey]
        var stamps: [String: Stamp] = [:]
        func stamp(_ url: URL) -> Stamp {
            let values = try? url.resourceValues(forKeys: Set(keys))
            return Stamp(modified: values?.contentModificationDate, size: values?.fileSize)
        }
        for root in inputs.roots where !excluded.contains(root.path) {
            var isFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: root.path, isDirectory: &isFolder) else { continue }
            guard isFolder.boolValue else {
                stamps[root.path] = stamp(root)
                continue
            }
            // The files a build reads, listed as it lists them: links followed inside the folder
            // (a linked Data/votes is watched too), hidden files skipped (editors' swap files
            // are hidden), FIFOs never opened.
            for url in InputFolder.list(root).files {
                let path = url.standardizedFileURL.path
                if !excluded.contains(where: { path.hasPrefix($0 + "/") }) {
                    stamps[path] = stamp(url)
                }
            }
        }
        return InputSnapshot(stamps: stamps)
    }
}

/// Polls the inputs and reports a change once the files have stopped changing (an editor's
/// save, or a script copying twenty exports, then gives one rebuild instead of several).
public struct InputWatcher: Sendable {
    public var interval: TimeInterval = 0.5
    /// Rebuild anyway after this many intervals of continuous change.
    public var longestSettle = 10

    public init() {}

    /// Blocks until the inputs differ from `baseline` and were the same at two polls in a row;
    /// returns the settled snapshot and the paths that changed.
    public func waitForChange(after baseline: InputSnapshot, inputs: () -> WatchedInputs) -> (snapshot: InputSnapshot, changed: [String]) {
        var current = baseline
        while current == baseline {
            Thread.sleep(forTimeInterval: interval)
            current = InputSnapshot.scan(inputs())
        }
        for _ in 0..<longestSettle {
            Thread.sleep(forTimeInterval: interval)
            let next = InputSnapshot.scan(inputs())
            if next == current { break }
            current = next
        }
        return (current, current.changes(since: baseline))
    }
}
