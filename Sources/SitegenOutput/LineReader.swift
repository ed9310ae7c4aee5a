import Foundation

/// A file's lines, read a megabyte at a time; or the lines of one part of it, so that parts
/// can be read in parallel (`parts`).
package final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The next byte to read, and where to stop.
    private var position: Int
    private let end: Int

    package init(path: String, from start: Int = 0, to end: Int = .max) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        position = start
        self.end = end
    }

    deinit { close(descriptor) }

    /// The next line without its line break; nil at the end of the file (or part).
    package func next() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return buffer[start..<newline]
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return buffer[start...]
            }
            buffer.removeFirst(start)
            start = 0
            let old = buffer.count, wanted = min(1 << 20, end - position)
            buffer += repeatElement(0, count: wanted)
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + old, wanted, off_t(position)) }
            guard read >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            buffer.removeLast(wanted - read)
            position += read
            if read == 0 { atEnd = true }
        }
    }

    /// The file after its first line, cut at line breaks into about `count` parts of
    /// similar size, as byte ranges for `init(path:from:to:)`.
    package static func parts(of path: String, count: Int) throws -> [Range<Int>] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let size = Int(info.st_size)
        /// The offset just past the first line break at or after `offset`; the size if none.
        func lineStart(after offset: Int) throws -> Int {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var at = offset
            while at < size {
                let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(at)) }
                guard read > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                if let newline = chunk[..<read].firstIndex(of: UInt8(ascii: "\n")) { return at + newline + 1 }
                at += read
            }
            return size
        }
        let first = try lineStart(after: 0)
        var bounds = [first]
        for part in 1..<max(1, count) {
            let cut = try lineStart(after: first + (size - first) * part / count)
            if cut > bounds.last! { bounds.append(cut) }
        }
        if size > bounds.last! { bounds.append(size) }
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }
}
