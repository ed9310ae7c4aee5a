import Foundation

/// A file's lines, read a megabyte at a time.
package final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    package init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// The next line without its line break; nil at the end of the file.
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
            let old = buffer.count
            buffer += repeatElement(0, count: 1 << 20)
            let read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + old, 1 << 20) }
            guard read >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            buffer.removeLast((1 << 20) - read)
            if read == 0 { atEnd = true }
        }
    }
}
