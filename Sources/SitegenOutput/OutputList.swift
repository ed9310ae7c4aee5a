import Foundation
import SitegenCore

/// Every file a build writes, with its hash, size and modification time, handed back in
/// path order for the sitemap, manifest.json and the build state.
///
/// A large site writes hundreds of thousands of files, in no order (polls are written in
/// parallel), so the list would grow with the site (issue #8). Instead entries gather in a
/// batch; a full batch is sorted and appended to a temporary file as one sorted run, and
/// `forEachSorted` merges the runs. Memory stays at one batch plus a small buffer per run.
/// A batch is one buffer of records, as the file has them, not an array per path: 140,000
/// small allocations at 10,000 polls, made on the worker threads between the ones they
/// keep, left their heaps fragmented.
/// The temporary file is unlinked as soon as it is opened: nothing is left behind even if
/// the build is killed.
package final class OutputList: @unchecked Sendable {
    package typealias Entry = (path: String, file: WrittenFile)

    private let lock = NSLock()
    private let descriptor: Int32
    private let batchSize: Int
    /// The batch's records (`appendRecord`), in the order they came, and where each starts.
    private var records: [UInt8] = []
    private var starts: [Int] = []
    /// Byte ranges of the sorted runs in the temporary file.
    private var runs: [Range<Int>] = []
    private var spilled = 0
    private(set) var count = 0
    /// Why spilling failed; reported by `forEachSorted`.
    private var failure: Error?

    /// `folder` holds the temporary file for as long as it takes to unlink it (the output's
    /// parent folder, which the build has locked).
    /// A batch of 8,192 records is about 0.8 MB; the sorted copy spilled takes as much again.
    package init(temporaryFolder folder: URL, batchSize: Int = 8_192) throws {
        let path = folder.appendingPathComponent(".sitegen-outputs-\(getpid()).tmp").path
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        unlink(path)
        self.batchSize = batchSize
        starts.reserveCapacity(batchSize)
        records.reserveCapacity(batchSize * 96)
    }

    /// A list that never spills: for a site held in memory (MemoryOutput).
    package init() {
        descriptor = -1
        batchSize = .max
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Records a written file; safe to call from many threads.
    package func add(_ path: String, _ file: WrittenFile) {
        lock.withLock { append(path, file) }
    }

    /// Records files kept from the last build, taking the lock once for all of them.
    package func add(contentsOf files: [Entry]) {
        lock.withLock {
            for (path, file) in files { append(path, file) }
        }
    }

    /// Appends one record to the batch. Called under the lock.
    private func append(_ path: String, _ file: WrittenFile) {
        starts.append(records.count)
        var path = path
        path.withUTF8 { Self.appendRecord(path: $0, file: file, to: &records) }
        count += 1
        if starts.count >= batchSize { spill() }
    }

    /// Hands every entry, and the `extra` ones (files written last, such as manifest.json),
    /// to `body` in path order (byte order of the UTF-8 paths).
    package func forEachSorted(adding extra: [Entry] = [], _ body: (String, WrittenFile) throws -> Void) throws {
        var entries = try sorted(adding: extra)
        while let entry = try entries.next() {
            try body(entry.path, entry.file)
        }
    }

    /// `forEachSorted` with each path as its UTF-8 bytes, for writers that copy it as it is
    /// (the build state: 140,000 lines at 10,000 polls).
    package func forEachSortedRecord(adding extra: [Entry] = [], _ body: ([UInt8], WrittenFile) throws -> Void) throws {
        var entries = try sorted(adding: extra)
        while let entry = try entries.nextRecord() {
            try body(entry.path, entry.file)
        }
    }

    /// The entries and `extra` in path order, one at a time; for a reader that consumes
    /// them in several pieces (the sitemap's files).
    package func sorted(adding extra: [Entry] = []) throws -> SortedEntries {
        let pending = lock.withLock { sortedRecords() }
        if let failure = lock.withLock({ failure }) { throw failure }
        var cursors: [RunCursor] = try runs.map { try RunCursor(descriptor: descriptor, range: $0) }
        cursors.append(try RunCursor(records: pending))
        var extraRecords: [UInt8] = []
        for (path, file) in extra.sorted(by: { Self.precedes(Array($0.path.utf8), Array($1.path.utf8)) }) {
            var path = path
            path.withUTF8 { Self.appendRecord(path: $0, file: file, to: &extraRecords) }
        }
        cursors.append(try RunCursor(records: extraRecords))
        cursors.removeAll { $0.current == nil }
        return SortedEntries(heap: MinHeap(cursors))
    }

    /// The batch's records in path order, as one run. Called under the lock.
    private func sortedRecords() -> [UInt8] {
        records.withUnsafeBytes { raw in
            /// A record's path, in place.
            func path(_ start: Int) -> UnsafeRawBufferPointer {
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
                return UnsafeRawBufferPointer(rebasing: raw[start + 4..<start + 4 + length])
            }
            let order = starts.sorted { Self.precedes(path($0), path($1)) }
            var sorted: [UInt8] = []
            sorted.reserveCapacity(raw.count)
            for start in order {
                sorted.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start..<start + 4 + path(start).count + 48]))
            }
            return sorted
        }
    }

    /// A k-way merge of the sorted runs.
    package struct SortedEntries {
        fileprivate var heap: MinHeap

        package mutating func next() throws -> Entry? {
            guard let entry = heap.top?.current else { return nil }
            try heap.advanceTop()
            return (String(decoding: entry.path, as: UTF8.self), entry.file)
        }

        /// `next` with the path left as bytes.
        package mutating func nextRecord() throws -> (path: [UInt8], file: WrittenFile)? {
            guard let entry = heap.top?.current else { return nil }
            try heap.advanceTop()
            return entry
        }
    }

    /// Sorts the batch and appends it to the temporary file as a run. Called under the lock.
    private func spill() {
        let bytes = failure == nil ? sortedRecords() : []
        records.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        guard failure == nil else { return }
        // Runs are only appended (and read back with pread), so plain writes at the end do.
        do {
            try writeFully(descriptor, bytes)
        } catch {
            failure = error
            return
        }
        runs.append(spilled..<spilled + bytes.count)
        spilled += bytes.count
    }

    /// One record: path length (4 bytes), path, hash (32), size (8), modification time (8).
    package static func appendRecord(path: UnsafeBufferPointer<UInt8>, file: WrittenFile, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(path.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: path)
        file.hash.appendBytes(to: &bytes)
        withUnsafeBytes(of: Int64(file.size).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(file.modified).littleEndian) { bytes.append(contentsOf: $0) }
    }

    package static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { a in b.withUnsafeBytes { b in precedes(a, b) } }
    }

    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order != 0 ? order < 0 : a.count < b.count
    }
}

/// Reads one sorted run back, a buffer at a time; or walks entries held in memory.
private struct RunCursor {
    private(set) var current: (path: [UInt8], file: WrittenFile)?
    private let descriptor: Int32
    private var next: Int
    private let end: Int
    private var buffer: [UInt8] = []
    private var position = 0

    init(descriptor: Int32, range: Range<Int>) throws {
        self.descriptor = descriptor
        next = range.lowerBound
        end = range.upperBound
        try advance()
    }

    /// A run held in memory.
    init(records: [UInt8]) throws {
        descriptor = -1
        next = 0
        end = 0
        buffer = records
        try advance()
    }

    mutating func advance() throws {
        guard try ensure(4) else { current = nil; return }
        let length = Int(buffer.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt32.self)) })
        guard try ensure(4 + length + 48) else { throw POSIXError(.EIO) }
        current = buffer.withUnsafeBytes { raw in
            let start = position + 4
            let path = Array(raw[start..<start + length])
            let hash = ContentHash(bytes: raw, at: start + length)
            let size = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: start + length + 32, as: Int64.self)))
            let modified = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: start + length + 40, as: Int64.self)))
            return (path, WrittenFile(hash: hash, size: size, modified: modified))
        }
        position += 4 + length + 48
    }

    /// Makes sure `count` unread bytes are buffered; false at the end of the run.
    private mutating func ensure(_ count: Int) throws -> Bool {
        if buffer.count - position >= count { return true }
        buffer.removeFirst(position)
        position = 0
        let wanted = min(max(count - buffer.count, 64 << 10), end - next)
        guard wanted > 0 else { return false }
        let old = buffer.count
        buffer += repeatElement(0, count: wanted)
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + old, wanted, off_t(next)) }
        guard read == wanted else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        next += wanted
        return buffer.count >= count
    }
}

/// The run cursors ordered by their current entry's path.
private struct MinHeap {
    private var items: [RunCursor]

    init(_ items: [RunCursor]) {
        self.items = items
        for index in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    var top: RunCursor? { items.first }

    /// Moves the top cursor on; drops it when its run is done.
    mutating func advanceTop() throws {
        try items[0].advance()
        if items[0].current == nil {
            items.swapAt(0, items.count - 1)
            items.removeLast()
        }
        if !items.isEmpty { siftDown(0) }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        OutputList.precedes(items[a].current!.path, items[b].current!.path)
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1, right = left + 1
            var smallest = index
            if left < items.count && less(left, smallest) { smallest = left }
            if right < items.count && less(right, smallest) { smallest = right }
            if smallest == index { return }
            items.swapAt(index, smallest)
            index = smallest
        }
    }
}
