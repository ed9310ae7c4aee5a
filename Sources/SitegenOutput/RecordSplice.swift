import Foundation
import SitegenCore
import SitegenInput

/// The build state's file lines and manifest.json's outputs both list one record per output
/// file, in path order. A rebuild that changed a few files writes each of them as the last
/// build's bytes with those records replaced, added or dropped, instead of making all of
/// them again: at 10,000 polls that was 144,000 records in each of two files (26 and 21 MB),
/// one after the other on one core, about a tenth of a one-ballot rebuild.
///
/// Each changed path is found by a binary search over the old file's records (mapped), so
/// the work follows the change; the bytes between changes are copied as they are (read
/// with `pread`, SpliceSource). Anything not in the expected shape or order gives no splice, and the
/// caller writes the file whole.
package struct RecordSplice {
    /// A path whose record changes: its new record, or nil when the path is gone.
    package struct Change {
        package let path: [UInt8]
        package let file: WrittenFile?

        package init(path: [UInt8], file: WrittenFile?) {
            self.path = path
            self.file = file
        }
    }

    package enum Piece: Equatable {
        /// Old records as they are, from one record's start to the next unchanged one's (or
        /// the end of the records).
        case old(Range<Int>)
        /// The new record of the change at this index.
        case new(Int)
    }

    /// The new list: old records and new ones, in path order.
    package let pieces: [Piece]
    /// How many records the changes add and drop.
    package let added: Int
    package let removed: Int

    /// `changes` in path order (OutputList.precedes), each path once; the records lie in
    /// `region` of `source`, in path order (the file is one sitegen wrote).
    package init?<Layout: RecordLayout>(_ source: SpliceSource, region: Range<Int>, changes: [Change], layout: Layout) {
        let bytes = source.bytes
        // Pages are given back after each look (SpliceSource): 64 KB are mapped around every
        // byte read, 1 MB or more for one binary search, and the state's head line (0.7 MB at
        // 10,000 polls) was read before this. Kept, they raised the build's peak by 3–6 MB.
        source.releasePages()
        // The bytes between changes are copied unread: the file is the one the last build
        // wrote (its recorded size and time), and its first and last records are whole.
        if !region.isEmpty {
            guard layout.record(bytes, at: region.lowerBound, end: region.upperBound) != nil,
                  let last = layout.recordStart(bytes, holding: region.upperBound - 1, from: region.lowerBound),
                  layout.record(bytes, at: last, end: region.upperBound)?.next == region.upperBound else { return nil }
            source.releasePages()
        }
        var pieces: [Piece] = []
        var cursor = region.lowerBound
        var added = 0, removed = 0
        for (index, change) in changes.enumerated() {
            let found = Self.find(change.path, in: bytes, from: cursor, to: region.upperBound, layout)
            source.releasePages()
            guard let (start, next) = found else { return nil }
            if start > cursor { pieces.append(.old(cursor..<start)) }
            switch (next, change.file) {
            case (nil, nil): return nil   // dropping a path the old list does not have: not our list
            case (nil, _?): added += 1; pieces.append(.new(index))
            case (_?, nil): removed += 1
            case (_?, _?): pieces.append(.new(index))
            }
            cursor = next ?? start
        }
        if cursor < region.upperBound { pieces.append(.old(cursor..<region.upperBound)) }
        self.pieces = pieces
        self.added = added
        self.removed = removed
    }

    /// Where `path`'s record is, or would go: the first record in `low..<end` (`low` a
    /// record's start) whose path does not precede it, and where the record after it starts
    /// when it is `path`'s own. nil when a record it reads is not in the layout's form.
    static func find<Layout: RecordLayout>(_ path: [UInt8], in bytes: UnsafeRawBufferPointer, from low: Int, to end: Int,
                                           _ layout: Layout) -> (start: Int, next: Int?)? {
        var low = low, high = end
        while low < high {
            let middle = low + (high - low) / 2
            guard let start = layout.recordStart(bytes, holding: middle, from: low), start >= low, start <= middle,
                  let (found, next) = layout.record(bytes, at: start, end: end), next > middle, next <= end else { return nil }
            if OutputList.precedes(found, path) { low = next } else { high = start }
        }
        guard low < end else { return (low, nil) }
        guard let (found, next) = layout.record(bytes, at: low, end: end) else { return nil }
        return (low, found == path ? next : nil)
    }
}

/// The last build's file that a splice reads: mapped (MappedFile), or in memory (tests).
///
/// A mapped file's pages count towards the build's peak memory once read, and the kernel
/// maps up to 64 KB around each byte read (fault-around). The binary searches read a few
/// records through the mapping and give its pages back after each; the long runs copied
/// between changes are read with `pread`, never through the mapping: read through it,
/// even a megabyte at a time with each chunk's pages given back, the pages mapped around
/// the next chunk's first byte stayed behind, 18 MB of the 21 MB manifest.json.
package struct SpliceSource {
    package let bytes: UnsafeRawBufferPointer
    /// The open file the mapping is of; -1 for memory.
    let descriptor: Int32

    package static func mapped(_ bytes: UnsafeRawBufferPointer, descriptor: Int32) -> SpliceSource {
        SpliceSource(bytes: bytes, descriptor: descriptor)
    }

    package static func memory(_ bytes: UnsafeRawBufferPointer) -> SpliceSource { SpliceSource(bytes: bytes, descriptor: -1) }

    /// Hands `range` over 64 KB at a time: no more at once than a StreamedFile keeps room
    /// for beyond the megabyte it writes out at.
    func forEachChunk(of range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let size = 1 << 16
        guard descriptor >= 0 else {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: size) {
                try body(UnsafeRawBufferPointer(rebasing: bytes[start..<Swift.min(start + size, range.upperBound)]))
            }
            return
        }
        var buffer = [UInt8](repeating: 0, count: size)
        try buffer.withUnsafeMutableBytes { buffer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                let read = pread(descriptor, buffer.baseAddress!, Swift.min(size, range.upperBound - offset), off_t(offset))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                try body(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
                offset += read
            }
        }
    }

    /// Unmaps the whole mapping from the process, not from the page cache: a page read again
    /// is mapped again from the file. Nothing for memory, which it would zero.
    func releasePages() {
        guard descriptor >= 0, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED)
    }
}

/// How one file's records are told apart (RecordSplice).
package protocol RecordLayout {
    /// The start of the record that holds byte `offset`, searching back no further than
    /// `lowest` (itself a record's start).
    func recordStart(_ bytes: UnsafeRawBufferPointer, holding offset: Int, from lowest: Int) -> Int?
    /// The path of the record at `start`, and where the next record starts (`end` after the last).
    func record(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int) -> (path: [UInt8], next: Int)?
}

extension UnsafeRawBufferPointer {
    /// Whether `text`'s bytes are at `offset`.
    func has(_ text: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + text.count <= count && text.withUnsafeBytes { memcmp(baseAddress! + offset, $0.baseAddress!, text.count) == 0 }
    }

    /// Where `text`'s bytes first are.
    func firstOffset(of text: [UInt8]) -> Int? {
        guard let first = text.first, count >= text.count else { return nil }
        var offset = 0
        while offset + text.count <= count {
            guard let found = memchr(baseAddress! + offset, Int32(first), count - text.count + 1 - offset) else { return nil }
            offset = UnsafeRawPointer(found) - baseAddress!
            if has(text, at: offset) { return offset }
            offset += 1
        }
        return nil
    }

    /// The bytes of the JSON string whose opening quote is at `offset`, decoded, and the
    /// offset after its closing quote.
    func jsonString(at offset: Int, before end: Int) -> (bytes: [UInt8], next: Int)? {
        guard offset < end, self[offset] == UInt8(ascii: "\"") else { return nil }
        var index = offset + 1
        var escaped = false
        while index < end {
            switch self[index] {
            case UInt8(ascii: "\\"): escaped = true; index += 2; continue
            case UInt8(ascii: "\""):
                let raw = Array(self[offset...index])
                guard escaped else { return (Array(raw.dropFirst().dropLast()), index + 1) }
                guard let node = try? JSONParser.parse(raw), let text = try? JSONField(node).string() else { return nil }
                return (Array(text.utf8), index + 1)
            case 0..<0x20: return nil   // a raw control character: not JSONOutput's
            default: index += 1
            }
        }
        return nil
    }
}

