import Foundation

/// A file written in pieces with write(2), so a large file never has to sit in memory whole.
package final class ChunkedFile {
    private var descriptor: Int32

    package init(_ path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    package func write(_ bytes: [UInt8]) throws {
        try writeFully(descriptor, bytes)
    }

    package func write(_ buffer: UnsafeRawBufferPointer) throws {
        try writeFully(descriptor, buffer)
    }

    package func close() throws {
        let result = Foundation.close(descriptor)
        descriptor = -1
        if result != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
