/// A deflate (RFC 1951) encoder for byte streams fed as runs of one byte, the shape of a
/// card's palette rows: long runs of a flat colour between short antialiased edges. A run
/// becomes a literal and matches at distance 1 (what zlib's `Z_RLE` strategy finds), and the
/// zlib checksum is kept per run rather than per byte.
///
/// Every stream is one block written with the same Huffman code (`CardCode`), fitted once to
/// the symbols of many cards: a card is then written as its runs are found, with no symbols
/// kept, counted or read a second time. The code fits a card about 5% worse than a code of
/// its own would; counting and coding each card's symbols twice was a third of its encoding
/// time (docs/performance.md, "Link preview images"). Every byte and match length has a code,
/// so any stream can be written. PreviewTests inflate every test card with zlib, which checks
/// the stream and its checksum, and compare the pixels.
package struct RunDeflate: ~Copyable {
    /// The run not yet written. A new run's byte always differs from the last one's: `add`
    /// joins runs of the same byte.
    private var runByte = 0, runLength = 0

    /// The zlib checksum (Adler-32) of every byte added so far.
    private var sum1: UInt64 = 1, sum2: UInt64 = 0

    /// The compressed bytes. Each write stores eight bytes, of which the bits not yet whole
    /// (`bitCount`, fewer than 8) are the first: the buffer keeps `slack` bytes spare.
    private var output: UnsafeMutablePointer<UInt8>
    private var outputCapacity: Int
    private var outputCount = 0
    private var bits: UInt64 = 0, bitCount: UInt64 = 0
    private static let slack = 64

    /// CardCode's tables, where the hot path reads them without going through the class.
    private let literalBits: UnsafeMutablePointer<UInt32>, literalCount: UnsafeMutablePointer<UInt8>
    private let literalPairBits: UnsafeMutablePointer<UInt32>
    private let matchBits: UnsafeMutablePointer<UInt32>, matchCount: UnsafeMutablePointer<UInt8>

    package init() {
        outputCapacity = 1 << 16
        output = .allocate(capacity: outputCapacity)
        let code = CardCode.shared
        (literalBits, literalCount, literalPairBits) = (code.literalBits, code.literalCount, code.literalPairBits)
        (matchBits, matchCount) = (code.matchBits, code.matchCount)
    }

    deinit {
        output.deallocate()
    }

    /// Starts a new stream: the block's header, with the code.
    package mutating func reset() {
        (runByte, runLength) = (0, 0)
        (sum1, sum2) = (1, 0)
        (outputCount, bits, bitCount) = (0, 0, 0)
        for (value, count) in CardCode.shared.header { put(UInt64(value), UInt64(count)) }
    }

    /// Adds `count` copies of `byte` to the stream.
    @inline(__always)
    package mutating func add(_ byte: UInt8, count: Int) {
        if Int(byte) == runByte {
            runLength &+= count
            return
        }
        endRun()
        (runByte, runLength) = (Int(byte), count)
    }

    /// Ends the stream: the deflate data (no zlib header: the caller writes it) and the
    /// Adler-32 of what was added. The bytes are valid until the next `reset`.
    package mutating func finish() -> (deflate: UnsafeBufferPointer<UInt8>, adler: UInt32) {
        endRun()
        let code = CardCode.shared
        put(UInt64(code.endOfBlock.bits), UInt64(code.endOfBlock.count))
        if bitCount > 0 { outputCount += 1 }
        return (UnsafeBufferPointer(start: output, count: outputCount), UInt32((sum2 % 65521) << 16 | sum1 % 65521))
    }

    /// Writes the waiting run: its byte as a literal, then matches of up to 258 bytes at
    /// distance 1, and what is left under 3 bytes as literals. This runs once per run, some
    /// 40,000 times a card, and where a run ends is unpredictable: a run of up to 259 bytes
    /// (nearly all: longer ones are the flat stretches, a few a row) is one write of its
    /// literal and either its match or its one or two more literals, chosen without a branch.
    @inline(__always)
    private mutating func endRun() {
        guard runLength > 0 else { return }
        if outputCount &+ Self.slack > outputCapacity { grow() }
        addToChecksum(runLength, copiesOf: runByte)
        let byte = runByte, literal = UInt64(literalBits[byte]), literalLength = UInt64(literalCount[byte])
        let left = runLength &- 1
        runLength = 0
        guard left <= 258 else { return writeLongRun(literal: literal, literalLength: literalLength, left: left) }
        // At most 13 + 26 bits (a literal, then a match or two literals): one write. The
        // match or the literals are chosen by a mask, not a branch (lengths 0–2 have no match
        // bits: they are zeros).
        let literalsCount = UInt64(truncatingIfNeeded: left) &* literalLength
        let literals = UInt64(literalPairBits[byte]) & ((1 &<< literalsCount) &- 1)
        let matchMask = 0 &- (UInt64(bitPattern: Int64(truncatingIfNeeded: 2 &- left)) &>> 63)  // all ones when left >= 3
        let tail = UInt64(matchBits[left]) & matchMask | literals & ~matchMask
        let tailCount = UInt64(matchCount[left]) & matchMask | literalsCount & ~matchMask
        put(literal | tail &<< literalLength, literalLength &+ tailCount)
    }

    /// The rest of a run of more than 259 bytes (a flat stretch): its literal, then matches,
    /// the last of at least 3 bytes.
    private mutating func writeLongRun(literal: UInt64, literalLength: UInt64, left: Int) {
        var left = left
        put(literal, literalLength)
        while left > 258 {
            // Leave at least 3 for the last match: 260 is 257 + 3, not 258 + 2 literals.
            let take = left &- 258 >= 3 ? 258 : left &- 3
            put(UInt64(matchBits[take]), UInt64(matchCount[take]))
            left &-= take
            if outputCount &+ Self.slack > outputCapacity { grow() }
        }
        put(UInt64(matchBits[left]), UInt64(matchCount[left]))
    }

    /// Adler-32 of `count` copies of `byte`, in closed form. The sums are kept below 2^32
    /// and 2^56 between runs and reduced modulo 65521 only when they pass that (Adler-32 is
    /// linear, so when makes no difference): with at most 2^24 bytes at a time, a run adds
    /// under 2^56 + 2^55 to the second sum, which cannot overflow 64 bits.
    @inline(__always)
    private mutating func addToChecksum(_ count: Int, copiesOf byte: Int) {
        var left = UInt64(truncatingIfNeeded: count)
        let value = UInt64(truncatingIfNeeded: byte)
        repeat {
            let part = min(left, 1 << 24)
            sum2 &+= part &* sum1 &+ value &* ((part &* (part &+ 1)) &>> 1)
            sum1 &+= part &* value
            if sum1 | sum2 &>> 24 >= 1 << 32 { (sum1, sum2) = (sum1 % 65521, sum2 % 65521) }
            left &-= part
        } while left > 0
    }

    /// Appends `count` bits (at most 56), least significant first. Always stores eight bytes
    /// and moves on by the whole ones: no branch on how full the bit buffer is.
    @inline(__always)
    private mutating func put(_ value: UInt64, _ count: UInt64) {
        // bitCount is under 8 here, so the shift never reaches 64 and needs no check.
        bits |= value &<< bitCount
        bitCount &+= count
        UnsafeMutableRawPointer(output + outputCount).storeBytes(of: bits.littleEndian, as: UInt64.self)
        let whole = bitCount &>> 3
        outputCount &+= Int(truncatingIfNeeded: whole)
        bits = bits &>> (whole &<< 3)
        bitCount &= 7
    }

    private mutating func grow() {
        let capacity = outputCapacity * 2
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: output, count: outputCount &+ 8)
        output.deallocate()
        (output, outputCapacity) = (grown, capacity)
    }
}

/// The Huffman code every card's deflate block is written with, and its header. The code
/// lengths were fitted by scripts/card-code-lengths.py to the symbols of the cards of
/// Benchmarks' 1,000-poll corpus and of the sample site (1,105 cards), each symbol given a
/// small share more so that every byte and match length has a code of at most 13 bits.
package final class CardCode: @unchecked Sendable {
    package static let shared = CardCode()

    /// Code lengths of the 286 literal/length symbols: bytes 0–255, end of block, lengths.
    package static let lengths: [UInt8] = [
        3, 9, 3, 4, 12, 8, 7, 11, 9, 9, 8, 11, 9, 10, 12, 11,
        10, 10, 9, 9, 10, 11, 9, 10, 10, 8, 10, 9, 10, 10, 9, 10,
        12, 8, 9, 12, 11, 11, 11, 8, 11, 11, 10, 10, 9, 9, 8, 10,
        10, 11, 10, 10, 11, 11, 11, 10, 8, 9, 10, 10, 10, 11, 10, 9,
        10, 10, 10, 8, 11, 10, 11, 11, 9, 11, 8, 11, 10, 9, 11, 10,
        9, 10, 8, 10, 11, 11, 9, 11, 8, 12, 10, 11, 10, 11, 10, 10,
        11, 10, 10, 9, 8, 9, 11, 12, 12, 10, 11, 9, 11, 11, 9, 11,
        10, 11, 12, 11, 10, 11, 11, 10, 11, 11, 10, 11, 11, 10, 11, 12,
        11, 11, 10, 10, 9, 10, 8, 10, 11, 11, 11, 12, 12, 12, 11, 9,
        9, 9, 10, 11, 8, 11, 11, 11, 9, 11, 11, 12, 9, 10, 12, 12,
        9, 11, 10, 11, 12, 10, 11, 10, 8, 12, 11, 11, 9, 10, 10, 11,
        11, 11, 11, 8, 11, 9, 9, 10, 12, 10, 11, 11, 10, 11, 10, 10,
        11, 13, 10, 11, 10, 10, 12, 11, 10, 10, 8, 8, 9, 8, 9, 9,
        9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
        8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
        8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
        13, 6, 4, 5, 6, 7, 6, 6, 8, 7, 7, 8, 8, 7, 8, 8,
        10, 9, 10, 10, 10, 9, 9, 10, 10, 9, 7, 10, 9, 5,
    ]

    /// Each byte's code, bit-reversed, and its length; the code twice over, for two literals.
    package let literalBits: UnsafeMutablePointer<UInt32>
    package let literalCount: UnsafeMutablePointer<UInt8>
    package let literalPairBits: UnsafeMutablePointer<UInt32>
    /// For each match length 3–258 (0–2: nothing): its length code, extra bits and the
    /// distance code (distance 1, the only one: one code of one bit, as RFC 1951 allows).
    package let matchBits: UnsafeMutablePointer<UInt32>
    package let matchCount: UnsafeMutablePointer<UInt8>
    package let endOfBlock: (bits: UInt32, count: UInt8)
    /// The block's header as writes of (bits, count): final block, dynamic codes, the code
    /// lengths run-length coded in the code length alphabet (RFC 1951 3.2.7).
    package let header: [(UInt32, UInt8)]

    private init() {
        let lengths = Self.lengths
        let codes = Huffman.codes(lengths)
        literalBits = .allocate(capacity: 256)
        literalCount = .allocate(capacity: 256)
        literalPairBits = .allocate(capacity: 256)
        for byte in 0..<256 {
            literalBits[byte] = codes[byte]
            literalCount[byte] = lengths[byte]
            literalPairBits[byte] = codes[byte] | codes[byte] << UInt32(lengths[byte])
        }
        matchBits = .allocate(capacity: 259)
        matchCount = .allocate(capacity: 259)
        matchBits.initialize(repeating: 0, count: 259)
        matchCount.initialize(repeating: 0, count: 259)
        for length in 3...258 {
            let symbol = 257 + Self.lengthBase.lastIndex { Int($0) <= length }!
            let extra = UInt32(length - Int(Self.lengthBase[symbol - 257]))
            matchBits[length] = codes[symbol] | extra << UInt32(lengths[symbol])
            matchCount[length] = lengths[symbol] + Self.lengthExtraBits[symbol - 257] + 1
        }
        endOfBlock = (codes[256], lengths[256])
        header = Self.header(lengths)
    }

    private static func header(_ literalLengths: [UInt8]) -> [(UInt32, UInt8)] {
        let distanceLengths: [UInt8] = [1]
        typealias LengthSymbol = (symbol: Int, extra: UInt32, extraBits: UInt8)
        var lengthSymbols: [LengthSymbol] = []
        let all = literalLengths + distanceLengths
        var index = 0
        while index < all.count {
            let length = all[index]
            var run = 1
            while index + run < all.count, all[index + run] == length { run += 1 }
            index += run
            if length == 0 {
                while run >= 11 {
                    let take = min(run, 138)
                    lengthSymbols.append((18, UInt32(take - 11), 7))
                    run -= take
                }
                if run >= 3 {
                    lengthSymbols.append((17, UInt32(run - 3), 3))
                    run = 0
                }
                lengthSymbols += repeatElement(LengthSymbol(0, 0, 0), count: run)
            } else {
                lengthSymbols.append((Int(length), 0, 0))
                run -= 1
                while run >= 3 {
                    let take = min(run, 6)
                    lengthSymbols.append((16, UInt32(take - 3), 2))
                    run -= take
                }
                lengthSymbols += repeatElement(LengthSymbol(Int(length), 0, 0), count: run)
            }
        }
        var lengthFrequencies = [UInt32](repeating: 0, count: 19)
        for entry in lengthSymbols { lengthFrequencies[entry.symbol] += 1 }
        let lengthLengths = lengthFrequencies.withUnsafeBufferPointer { Huffman.lengths($0, limit: 7) }
        let lengthCodes = Huffman.codes(lengthLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let orderCount = max(4, (order.lastIndex { lengthLengths[$0] > 0 } ?? 0) + 1)

        var writes: [(UInt32, UInt8)] = [(1, 1), (2, 2), (UInt32(literalLengths.count - 257), 5),
                                         (UInt32(distanceLengths.count - 1), 5), (UInt32(orderCount - 4), 4)]
        for symbol in order.prefix(orderCount) { writes.append((UInt32(lengthLengths[symbol]), 3)) }
        for entry in lengthSymbols {
            writes.append((lengthCodes[entry.symbol], lengthLengths[entry.symbol]))
            if entry.extraBits > 0 { writes.append((entry.extra, entry.extraBits)) }
        }
        return writes
    }

    // MARK: The length alphabet (RFC 1951 3.2.5)

    private static let lengthBase: [UInt16] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                               35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                                   3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
}

/// Canonical Huffman codes for deflate.
package enum Huffman {
    /// Code lengths of at most `limit` bits for symbols with these frequencies (0: unused).
    /// At least two symbols get a code, so the code is complete. Should a code run past the
    /// limit, the frequencies are halved (made more alike) until it fits.
    package static func lengths(_ frequencies: UnsafeBufferPointer<UInt32>, limit: Int) -> [UInt8] {
        var weights = frequencies.map { Int($0) }
        var used = weights.indices.filter { weights[$0] > 0 }
        for symbol in weights.indices where used.count < 2 && weights[symbol] == 0 {
            weights[symbol] = 1
            used.append(symbol)
        }
        while true {
            // Leaves by weight, then the classic two queues: leaves, and the nodes made from them
            // (made in order of weight, so each queue stays sorted).
            let leaves = used.sorted { (weights[$0], $0) < (weights[$1], $1) }
            let leafCount = leaves.count
            var weight = leaves.map { weights[$0] }
            weight.reserveCapacity(2 * leafCount - 1)
            var parent = [Int](repeating: 0, count: 2 * leafCount - 1)
            var nextLeaf = 0, nextNode = leafCount
            for _ in 1..<leafCount {
                var pair = (0, 0)
                for pick in 0..<2 {
                    let takeLeaf = nextLeaf < leafCount && (nextNode >= weight.count || weight[nextLeaf] <= weight[nextNode])
                    let node = takeLeaf ? nextLeaf : nextNode
                    if takeLeaf { nextLeaf += 1 } else { nextNode += 1 }
                    if pick == 0 { pair.0 = node } else { pair.1 = node }
                }
                parent[pair.0] = weight.count
                parent[pair.1] = weight.count
                weight.append(weight[pair.0] + weight[pair.1])
            }
            var depth = [Int](repeating: 0, count: weight.count)
            for node in stride(from: weight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
            if depth[..<leafCount].max()! <= limit {
                var lengths = [UInt8](repeating: 0, count: frequencies.count)
                for (leaf, symbol) in leaves.enumerated() { lengths[symbol] = UInt8(depth[leaf]) }
                return lengths
            }
            for symbol in used { weights[symbol] = (weights[symbol] + 1) / 2 }
        }
    }

    /// Each symbol's code from the lengths (RFC 1951 3.2.2), bit-reversed: deflate writes a
    /// code from its most significant bit into a stream filled from the least.
    package static func codes(_ lengths: [UInt8]) -> [UInt32] {
        var countOfLength = [UInt32](repeating: 0, count: 16)
        for length in lengths where length > 0 { countOfLength[Int(length)] += 1 }
        var next = [UInt32](repeating: 0, count: 16), code: UInt32 = 0
        for bits in 1..<16 {
            code = (code + countOfLength[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let code = next[Int(length)]
            next[Int(length)] += 1
            var reversed: UInt32 = 0
            for bit in 0..<Int(length) where code & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            return reversed
        }
    }
}
