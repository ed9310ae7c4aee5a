import Crypto

/// A path remembered by 128 bits of the SHA-256 of its bytes rather than as a string: a
/// build keeps hundreds of thousands of paths (planned files, the previous build's files),
/// and a key costs 16 bytes where a string costs a hundred (issue #8). Two different paths
/// sharing a key is a chance of about 1 in 10^26 for a million paths.
struct PathKey: Hashable, Sendable {
    private let high: UInt64, low: UInt64

    init(_ bytes: [UInt8]) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in SHA256.hash(data: bytes).withUnsafeBytes { raw.copyMemory(from: $0) } }
        high = words.0
        low = words.1
    }

    init(_ path: String) {
        self.init(Array(path.utf8))
    }
}
