import Foundation

/// Turns byte offsets of one file into line and column, built on first use. Columns count
/// Unicode scalars, a leading byte order mark aside (editors do not show it); checkpoints every 4 KiB keep a lookup cheap even in a file that is
/// one long line (a minified export).
///
/// Built from the file on disk at the first lookup, so a build keeps no export's bytes in
/// memory for positions that are almost never asked for.
package final class LineIndex: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let path: String?
    private let lock = NSLock()
    private var built = false
    private var lineStarts: [Int] = [0]
    /// Scalars before each 4 KiB block.
    private var scalarsBeforeBlock: [Int] = [0]
    private static let blockSize = 4096

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        path = nil
    }

    package init(path: String) {
        self.path = path
    }

    private func build() {
        if let path, bytes.isEmpty, let data = FileManager.default.contents(atPath: path) {
            bytes = [UInt8](data)
        }
        startsWithMark = bytes.starts(with: SourcePosition.byteOrderMark)
        var scalars = 0
        for (index, byte) in bytes.enumerated() {
            if index > 0 && index % Self.blockSize == 0 { scalarsBeforeBlock.append(scalars) }
            if byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
            if startsScalar(byte, at: index) { scalars += 1 }
        }
        built = true
    }

    /// Scalars in bytes[0..<offset].
    private func scalars(before offset: Int) -> Int {
        let block = offset / Self.blockSize
        var count = scalarsBeforeBlock[min(block, scalarsBeforeBlock.count - 1)]
        var index = min(block, scalarsBeforeBlock.count - 1) * Self.blockSize
        while index < offset {
            if startsScalar(bytes[index], at: index) { count += 1 }
            index += 1
        }
        return count
    }

    private var startsWithMark = false

    private func startsScalar(_ byte: UInt8, at index: Int) -> Bool {
        byte & 0xC0 != 0x80 && !(index == 0 && startsWithMark)
    }

    /// Whether a position was asked for, and so the file read and indexed.
    package var isBuilt: Bool { lock.withLock { built } }

    package func position(of offset: Int) -> SourcePosition {
        lock.lock()
        defer { lock.unlock() }
        if !built { build() }
        let offset = min(max(offset, 0), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return SourcePosition(line: low + 1, column: scalars(before: offset) - scalars(before: lineStarts[low]) + 1)
    }
}
