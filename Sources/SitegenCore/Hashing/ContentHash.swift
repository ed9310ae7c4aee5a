import Crypto

/// A SHA-256 digest held as 32 bytes. A build keeps one per output file until the manifest
/// is written; as a hex String each would cost over a hundred bytes of heap.
public struct ContentHash: Sendable, Hashable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    public init(of bytes: [UInt8]) {
        self.init(digest: SHA256.hash(data: bytes))
    }

    package init(digest: SHA256.Digest) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in digest.withUnsafeBytes { raw.copyMemory(from: $0) } }
        self.words = words
    }

    /// From the 32 bytes `appendBytes` wrote, starting at `start`.
    package init(bytes: UnsafeRawBufferPointer, at start: Int) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 32])) }
        self.words = words
    }

    /// The 32 bytes of the digest (for OutputList's spill file).
    package func appendBytes(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: words) { bytes.append(contentsOf: $0) }
    }

    /// From 64 hex digits (upper or lower case); nil otherwise.
    public init?(hex: String) {
        self.init(hexDigits: Array(hex.utf8)[...])
    }

    /// The same from the digits' bytes, read in place: the build state holds 140,000 of them.
    package init?(hexDigits digits: ArraySlice<UInt8>) {
        guard digits.count == 64 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        // Without a branch per digit: a bad digit only marks `invalid`.
        var invalid: UInt8 = 0
        digits.withUnsafeBufferPointer { digits in
            withUnsafeMutableBytes(of: &words) { raw in
                for index in 0..<32 {
                    let high = Self.nibble(digits[2 * index]), low = Self.nibble(digits[2 * index + 1])
                    invalid |= (high | low) & 0xF0
                    raw[index] = high << 4 | low
                }
            }
        }
        guard invalid == 0 else { return nil }
        self.words = words
    }

    /// 64 lower-case hex digits, as in manifest.json.
    public var hex: String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        appendHex(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The 64 digits of `hex`, appended in one go: manifest.json and the build state write
    /// one for each of a large site's 140,000 files.
    package func appendHex(to text: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        // Made on the stack and copied in one piece: manifest.json and the build state each
        // write 140,000 hashes at 10,000 polls.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { out in
            withUnsafeBytes(of: words) { raw in
                for index in 0..<32 {
                    let byte = raw[index]
                    out[2 * index] = digits.utf8Start[Int(byte >> 4)]
                    out[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                }
            }
            text.append(contentsOf: out)
        }
    }

    public static func == (a: ContentHash, b: ContentHash) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    /// A hex digit's value (either case), or 0xFF for any other byte.
    @inline(__always)
    private static func nibble(_ digit: UInt8) -> UInt8 {
        let decimal = digit &- UInt8(ascii: "0"), letter = (digit | 0x20) &- UInt8(ascii: "a")
        return decimal < 10 ? decimal : letter < 6 ? letter + 10 : 0xFF
    }
}

/// A SHA-256 taken over bytes that arrive in pieces (a file streamed to disk).
package struct ContentHasher {
    private var hasher = SHA256()

    package init() {}

    package mutating func update(_ bytes: [UInt8]) {
        hasher.update(data: bytes)
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    package func finalize() -> ContentHash {
        ContentHash(digest: hasher.finalize())
    }
}
