import Foundation

/// Output paths are made only from validated parts (share codes, UUIDs, slugs); this
/// check is the last line of defence against writing outside the output folder.
public enum SafePath {
    public static func isSafe(_ path: String) -> Bool {
        // Byte by byte, without splitting: a rebuild checks the 140,000 paths it keeps.
        path.utf8.withContiguousStorageIfAvailable(isSafe) ?? isSafe(Array(path.utf8))
    }

    /// The same for a path's UTF-8 bytes (a line of the build state, not yet a string).
    public static func isSafe(bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer(isSafe)
    }

    private static func isSafe(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var partStart = 0
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
            if byte == 0 || byte == UInt8(ascii: "\\") { return false }
            guard byte == UInt8(ascii: "/") else { continue }
            // A part that is empty, "." or "..".
            let length = index - partStart
            if length == 0 { return false }
            if length <= 2, bytes[partStart] == UInt8(ascii: "."), length == 1 || bytes[partStart + 1] == UInt8(ascii: ".") { return false }
            partStart = index + 1
        }
        return true
    }

    private static func isSafe(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer(isSafe)
    }
}
