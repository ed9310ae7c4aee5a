import Foundation
import SitegenCore
import SitegenInput

/// A published site held in memory (SiteOutput), so a test can run the pipeline, or render
/// a single page, without writing a file.
///
/// It keeps the rules of OutputFolder that do not depend on a disk: the new site is
/// invisible until `publish`; `abandon` leaves the published one as it was; files the last
/// build did not write stop the build unless kept (`keep:`); a file identical to the last
/// build's keeps its modification time. Modification times count builds: a file written by
/// the third build that changed it has time 3.
package final class MemoryOutput: SiteOutput, @unchecked Sendable {
    /// Shown in messages as the output folder's name.
    package let name: String
    package let keep: [String]
    private let lock = NSLock()
    private var published: [String: [UInt8]]
    private var publishedTimes: [String: Int] = [:]
    private var record: BuildRecord?
    /// The last build's files, for keeping modification times and refusing strangers.
    private var recorded: [String: WrittenFile] = [:]
    private var staged: [String: [UInt8]] = [:]
    private var written = OutputList()
    private var late: [OutputList.Entry] = []
    /// The time files written by the current build get.
    private var time = 0
    private var reusedPaths: Set<String> = []

    /// `files`: what the site holds before any build, as if put there by hand.
    package init(name: String = "Output", files: [String: [UInt8]] = [:], keep: [String] = []) {
        self.name = name
        self.keep = keep
        published = files
    }

    /// The published site: path → bytes.
    package var files: [String: [UInt8]] { lock.withLock { published } }

    /// Each published file's modification time (see the type's description).
    package var modificationTimes: [String: Int] { lock.withLock { publishedTimes } }

    /// The files the current (or last) build took from the one before without rendering them.
    package var reused: Set<String> { lock.withLock { reusedPaths } }

    /// The record the last published build left.
    package var lastRecord: BuildRecord? { lock.withLock { record } }

    package func open() throws(OutputError) {
        lock.withLock {
            staged = [:]
            written = OutputList()
            late = []
            reusedPaths = []
            time = (publishedTimes.values.max() ?? 0) + 1
        }
    }

    package func lastBuild(matching fingerprint: String) throws(OutputError) -> BuildRecord? {
        if let record = lock.withLock({ record }), record.fingerprint == fingerprint {
            abandon()
            return record
        }
        let strangers = lock.withLock { published.keys.filter { recorded[$0] == nil && !isKept($0) }.sorted() }
        guard strangers.isEmpty else {
            throw .strangers(in: name, named: Array(strangers.prefix(OutputError.namedStrangers)), count: strangers.count,
                             missingRecord: lock.withLock { record } == nil ? "its build record" : nil)
        }
        return nil
    }

    package func write(_ path: String, _ bytes: [UInt8]) throws(OutputError) {
        let file = WrittenFile(hash: ContentHash(of: bytes), size: bytes.count)
        lock.withLock {
            staged[path] = bytes
            written.add(path, stamped(path, file))
        }
    }

    package var lastPollKeys: Set<String> { lock.withLock { Set(record?.pollKeys ?? []) } }

    package func awaitLastBuildsFiles() throws(OutputError) {}

    package var lastFileCount: Int { lock.withLock { recorded.count } }

    package var lastInputHashes: [HashedInput] { lock.withLock { record?.inputHashes ?? [] } }

    private var pollCache: [UInt8]?
    package func withLastPollCache<T>(_ body: (UnsafeRawBufferPointer) -> T?) -> T? {
        guard let bytes = lock.withLock({ record == nil ? nil : pollCache }) else { return nil }
        return bytes.withUnsafeBytes(body)
    }

    package func reuse(_ paths: [String]) throws(OutputError) -> Bool {
        lock.withLock {
            guard paths.allSatisfy({ recorded[$0] != nil && published[$0] != nil }) else { return false }
            for path in paths {
                staged[path] = published[path]
                written.add(path, recorded[path]!)
                reusedPaths.insert(path)
            }
            return true
        }
    }

    package func hasLastBuildsPaths(besides later: [String]) -> Bool {
        lock.withLock {
            guard record != nil, late.isEmpty, recorded.count == written.count + later.count,
                  later.allSatisfy({ recorded[$0] != nil }) else { return false }
            var all = true
            try? written.forEachSorted { path, _ in all = all && recorded[path] != nil }
            return all
        }
    }

    @discardableResult
    package func writeStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) -> WrittenFile {
        try streamed(path, produce) { late.append(($0, $1)) }
    }

    package func writePageStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) {
        try streamed(path, produce) { written.add($0, $1) }
    }

    /// Stages what `produce` writes and records it with `record`, under the lock.
    @discardableResult
    private func streamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void,
                          record: (String, WrittenFile) -> Void) throws(OutputError) -> WrittenFile {
        let buffer = ChunkBuffer()
        var stream = StreamedFile(writingTo: buffer.append)
        do {
            try produce(&stream)
            let file = try stream.finish()
            return lock.withLock {
                staged[path] = buffer.bytes
                let stamped = stamped(path, file)
                record(path, stamped)
                return stamped
            }
        } catch {
            throw OutputError(message: "\(name)/\(path): cannot write: \(error)")
        }
    }

    package func writtenFiles() throws(OutputError) -> OutputList.SortedEntries {
        let list = lock.withLock { written }
        do {
            return try list.sorted()
        } catch {
            throw OutputError(message: "\(name): cannot read back the list of written files: \(error)")
        }
    }

    package var fileCount: Int { lock.withLock { written.count + late.count } }

    package func writeManifest(_ manifest: Manifest) throws(OutputError) {
        let (list, late) = lock.withLock { (written, self.late) }
        try writeStreamed(Manifest.path) { file in
            try manifest.write(outputs: { body in
                try list.forEachSortedRecord(adding: late) { path, file in try body(path, file.hash) }
            }, to: &file)
        }
    }

    /// A publish in memory is never cut short.
    package var carriedChanges: [String] { [] }
    package func noteChanges(_ lines: [String]) {}

    package func changes() throws(OutputError) -> [String] {
        let (list, late, old) = lock.withLock { (written, self.late, recorded) }
        do {
            return try OutputChanges.lines(old: old) { body in try list.forEachSorted(adding: late, body) }
        } catch {
            throw OutputError(message: "\(name): cannot read back the list of written files: \(error)")
        }
    }

    package var lastBuildFingerprint: String? { lock.withLock { record?.fingerprint } }

    private var pendingPollCache: [UInt8]?
    package func startPollCache(_ writer: @escaping PollCacheWriter) {
        var cache: [UInt8] = []
        let written = (try? writer { cache += $0 }) != nil
        lock.withLock { pendingPollCache = written ? cache : nil }
    }

    package func publish(_ record: BuildRecord, placeChanges: () throws(OutputError) -> Void) throws(OutputError) {
        let cache = lock.withLock { () -> [UInt8]? in
            defer { pendingPollCache = nil }
            return pendingPollCache
        }
        let (list, late) = lock.withLock { (written, self.late) }
        var files: [String: WrittenFile] = [:]
        do {
            try list.forEachSorted(adding: late) { path, file in files[path] = file }
        } catch {
            throw OutputError(message: "\(name): cannot read back the list of written files: \(error)")
        }
        let clash: String? = lock.withLock {
            var site = staged
            for (path, bytes) in published where isKept(path) {
                guard site[path] == nil else { return path }
                site[path] = bytes
            }
            publishedTimes = site.keys.reduce(into: [:]) { times, path in
                times[path] = files[path]?.modified ?? publishedTimes[path] ?? 0
            }
            published = site
            recorded = files
            self.record = record
            self.pollCache = cache
            staged = [:]
            return nil
        }
        if let clash { throw .keptAndWritten("\(name)/\(clash)") }
        try placeChanges()
    }

    package func abandon() {
        lock.withLock {
            staged = [:]
            pendingPollCache = nil
        }
    }

    /// `file` with its modification time: the last build's when it wrote the same bytes.
    /// Called under the lock.
    private func stamped(_ path: String, _ file: WrittenFile) -> WrittenFile {
        var file = file
        if let old = recorded[path], old.hash == file.hash, old.size == file.size, published[path] != nil {
            file.modified = old.modified
        } else {
            file.modified = time
        }
        return file
    }

    private func isKept(_ path: String) -> Bool {
        keep.contains { path == $0 || path.hasPrefix($0 + "/") }
    }
}

/// The chunks of a streamed file, gathered in memory.
private final class ChunkBuffer {
    private(set) var bytes: [UInt8] = []

    func append(_ chunk: [UInt8]) {
        bytes += chunk
    }
}
