import Foundation
import SitegenCore

/// File writing as a value, so a test can make the disk fail at the Nth file.
public struct OutputFileSystem: Sendable {
    /// Writes bytes to a file path; returns its modification time in nanoseconds since 1970,
    /// or 0 when unknown (it is then read from the file).
    public var writeFile: @Sendable (String, [UInt8]) throws -> Int

    public init(writeFile: @escaping @Sendable (String, [UInt8]) throws -> Int) {
        self.writeFile = writeFile
    }

    /// Plain open/write/close: Foundation's Data.write costs a quarter of a large build in
    /// URL and attribute handling. No fsync: the atomic swap, not durability after a power
    /// cut, is what keeps the published site whole.
    public static let disk = OutputFileSystem { path, bytes in
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try writeFully(descriptor, bytes)
        var info = stat()
        return fstat(descriptor, &info) == 0 ? nanoseconds(info.st_mtim) : 0
    }
}

/// Writes all of `bytes` to an open file, however many write(2) calls it takes.
package func writeFully(_ descriptor: Int32, _ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try writeFully(descriptor, $0) }
}

package func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) throws {
    var written = 0
    while written < buffer.count {
        let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if result < 0 {
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        written += result
    }
}
