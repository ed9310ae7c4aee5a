/// A path remembered by 128 bits for as long as one process runs: two SipHash digests of its
/// bytes (Swift's `Hasher`, told apart by a first byte), under the process's random seed.
///
/// For the sets and tables a build keeps of its paths (the planned paths, the last build's
/// files), which key 430,000 paths in a rebuild at 10,000 polls: with `DigestKey`'s SHA-256
/// (swift-crypto allocates a context a call) that was about 90 ms of CPU (issue #16). A seed
/// chosen when the process starts keeps paths made to collide from being found in advance. Two paths sharing a key is a chance of
/// about 1 in 10^26 for a million paths. Never written down: another process keys the same
/// path differently (DigestKey is for keys that are kept, such as voter ids).
package struct PathKey: Hashable, Sendable {
    private let high: UInt64, low: UInt64

    package init(_ text: String) {
        // A native string's bytes are hashed where they are.
        if let key = text.utf8.withContiguousStorageIfAvailable({ PathKey(UnsafeRawBufferPointer($0)) }) {
            self = key
        } else {
            self = Array(text.utf8).withUnsafeBytes { PathKey($0) }
        }
    }

    /// The key of a path's bytes (a case-folded path).
    package init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { PathKey($0) }
    }

    /// The key of bytes read in place (a line of the build state).
    package init(_ bytes: ArraySlice<UInt8>) {
        self = bytes.withUnsafeBytes { PathKey($0) }
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        var first = Hasher(), second = Hasher()
        first.combine(0 as UInt8)
        second.combine(1 as UInt8)
        first.combine(bytes: bytes)
        second.combine(bytes: bytes)
        high = UInt64(UInt(bitPattern: first.finalize()))
        low = UInt64(UInt(bitPattern: second.finalize()))
    }

    /// Bits already spread by the seed: a table can place the key by them without hashing again.
    package var spread: UInt64 { high }
}
