import Crypto

/// A string remembered by 128 bits of the SHA-256 of its bytes: a build keeps a voter id
/// for each of hundreds of thousands of ballots waiting for their poll, and a key costs 16
/// bytes where a string costs up to a hundred (issue #8). Keys are only compared, and they
/// are the same in every process, so the poll cache keeps them (Ballot). Two different
/// strings sharing a key is a chance of about 1 in 10^26 for a million strings. Paths, which
/// are never kept, have the cheaper PathKey.
package struct DigestKey: Hashable, Sendable {
    private let high: UInt64, low: UInt64

    package init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// The key of bytes read in place (a line of the build state).
    package init(_ bytes: ArraySlice<UInt8>) {
        self = bytes.withUnsafeBytes { DigestKey($0) }
    }

    /// The key's 16 bytes, to hash it into another digest or to keep it (`init(reading:at:)`).
    package func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: (high, low)) { bytes += $0 }
    }

    /// The key `append(to:)` wrote at `offset`, which moves past it; nil past the end.
    package init?(reading bytes: [UInt8], at offset: inout Int) {
        guard offset + 16 <= bytes.count else { return nil }
        (high, low) = bytes.withUnsafeBytes { ($0.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                                               $0.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) }
        offset += 16
    }

    package init(_ text: String) {
        // A native string's bytes are hashed where they are: a rebuild keys 140,000 paths.
        if let key = text.utf8.withContiguousStorageIfAvailable({ DigestKey(UnsafeRawBufferPointer($0)) }) {
            self = key
        } else {
            self.init(Array(text.utf8))
        }
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in SHA256.hash(data: bytes).withUnsafeBytes { raw.copyMemory(from: $0) } }
        high = words.0
        low = words.1
    }
}
