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
    /// The stream; this owns its buffer.
    private var stream = Stream()

    package init() {}

    deinit {
        stream.output.deallocate()
    }

    /// Starts a new stream: the block's header, with the code.
    package mutating func reset() {
        stream.reset()
    }

    /// Adds `count` copies of `byte` to the stream.
    @inline(__always)
    package mutating func add(_ byte: UInt8, count: Int) {
        stream.add(byte, count: count)
    }

    /// Ends the stream: the deflate data (no zlib header: the caller writes it) and the
    /// Adler-32 of what was added. The bytes are valid until the next `reset`.
    package mutating func finish() -> (deflate: UnsafeBufferPointer<UInt8>, adler: UInt32) {
        stream.finish()
    }

    /// Adds a row's runs, at most 4,096 of them, each `length << 8 | byte` with a length of
    /// at most 4,096: what `add` does for each, in less time (PalettePNG finds a row's runs,
    /// then adds them).
    package mutating func add(runs: UnsafePointer<UInt32>, count: Int) {
        precondition(count <= 4_096, "at most 4,096 runs at a time")
        stream.add(runs: runs, count: count)
    }

    /// The stream's state; its buffer is RunDeflate's to free.
    private struct Stream {
        /// The run not yet written. A new run's byte always differs from the last one's: `add`
        /// joins runs of the same byte.
        private var runByte = 0, runLength = 0

        /// The zlib checksum (Adler-32) of every byte added so far.
        private var sum1: UInt64 = 1, sum2: UInt64 = 0

        /// The compressed bytes. Each write stores eight bytes, of which the bits not yet whole
        /// (`bitCount`, fewer than 8) are the first: the buffer keeps `slack` bytes spare.
        fileprivate var output = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
        private var outputCapacity = 1 << 16
        private var outputCount = 0
        private var bits: UInt64 = 0, bitCount: UInt64 = 0
        private static let slack = 64

        /// CardCode's tables, where the hot path reads them without going through the class.
        private let heads = CardCode.shared.heads, matches = CardCode.shared.matches

        /// Starts a new stream: the block's header, with the code.
        fileprivate mutating func reset() {
            (runByte, runLength) = (0, 0)
            (sum1, sum2) = (1, 0)
            (outputCount, bits, bitCount) = (0, 0, 0)
            for (value, count) in CardCode.shared.header { put(UInt64(value), UInt64(count)) }
        }

        /// Adds runs, each `length << 8 | byte` with a length of at most 4,096 (a row's), in
        /// two loops each with few enough values to stay in registers: the checksum, then the
        /// runs written out. Through `self`, every run loaded and stored the state again, since
        /// a store to the output could overwrite `self` for all the compiler knows; and in one
        /// loop there were more values than x86-64 has registers.
        fileprivate mutating func add(runs: UnsafePointer<UInt32>, count: Int) {
            // The checksum over the row from the row's start: after n bytes b(1)…b(n), the
            // first sum has grown by Σ b(i) and the second by n × the first + Σ (n + 1 − i) b(i).
            // Each run adds to Σ b(i), Σ i b(i) and n independently of the stream's sums, so the
            // loop's only chain is an addition a run. With at most 4,096 runs of at most 4,096
            // bytes, n < 2^24, and every term is under 2^57.
            var bytes: UInt64 = 0, sum: UInt64 = 0, weighted: UInt64 = 0
            for index in 0..<count {
                let run = UInt64(runs[index]), value = run & 0xFF, length = run &>> 8
                // The run's places are bytes + 1 … bytes + length.
                weighted &+= value &* (length &* bytes &+ (length &* (length &+ 1)) &>> 1)
                sum &+= length &* value
                bytes &+= length
            }
            reduceChecksum()
            sum2 = (sum2 &+ bytes &* sum1 &+ ((bytes &+ 1) &* sum &- weighted)) % 65521
            sum1 = (sum1 &+ sum) % 65521
            // Room for every run to be a short one (at most 39 bits); a long one makes its own.
            if outputCount &+ 5 &* count &+ Self.slack > outputCapacity { grow(toHold: 5 &* count) }
            var runByte = runByte, runLength = runLength
            var output = output, outputCount = outputCount, bits = bits, bitCount = bitCount
            let heads = heads, matches = matches
            for index in 0..<count {
                let run = runs[index]
                let byte = Int(truncatingIfNeeded: run & 0xFF), length = Int(truncatingIfNeeded: run &>> 8)
                if byte == runByte {
                    runLength &+= length
                    continue
                }
                if runLength > 259 {
                    (self.runLength, self.outputCount, self.bits, self.bitCount) = (runLength, outputCount, bits, bitCount)
                    writeLongRun(byte: runByte, left: runLength &- 1)
                    let left = 5 &* (count &- index)
                    if self.outputCount &+ left &+ Self.slack > outputCapacity { grow(toHold: left) }
                    (output, outputCount, bits, bitCount) = (self.output, self.outputCount, self.bits, self.bitCount)
                } else if runLength > 0 {
                    Self.writeShortRun(byte: runByte, count: runLength, heads: heads, matches: matches,
                                       to: output, at: &outputCount, bits: &bits, bitCount: &bitCount)
                }
                (runByte, runLength) = (byte, length)
            }
            (self.runByte, self.runLength) = (runByte, runLength)
            (self.outputCount, self.bits, self.bitCount) = (outputCount, bits, bitCount)
        }

        /// Adds `count` copies of `byte` to the stream.
        @inline(__always)
        fileprivate mutating func add(_ byte: UInt8, count: Int) {
            addToChecksum(count, copiesOf: Int(byte))
            if Int(byte) == runByte {
                runLength &+= count
                return
            }
            endRun()
            (runByte, runLength) = (Int(byte), count)
        }

        /// Ends the stream: the deflate data (no zlib header: the caller writes it) and the
        /// Adler-32 of what was added. The bytes are valid until the next `reset`.
        fileprivate mutating func finish() -> (deflate: UnsafeBufferPointer<UInt8>, adler: UInt32) {
            endRun()
            let code = CardCode.shared
            put(UInt64(code.endOfBlock.bits), UInt64(code.endOfBlock.count))
            if bitCount > 0 { outputCount += 1 }
            return (UnsafeBufferPointer(start: output, count: outputCount), UInt32((sum2 % 65521) << 16 | sum1 % 65521))
        }

        /// Writes the waiting run: its byte as a literal, then matches of up to 258 bytes at
        /// distance 1, and what is left under 3 bytes as literals. This runs once per run, some
        /// 40,000 times a card, and where a run ends is unpredictable: a run of up to 259 bytes
        /// (nearly all: longer ones are the flat stretches, a few a row) is one write of two
        /// table entries, its literal one to three times (`CardCode.heads`) and its match, if it
        /// has one (`CardCode.matches`), chosen without a branch.
        @inline(__always)
        private mutating func endRun() {
            guard runLength > 0 else { return }
            if outputCount &+ Self.slack > outputCapacity { grow(toHold: Self.slack) }
            guard runLength <= 259 else { return writeLongRun(byte: runByte, left: runLength &- 1) }
            Self.writeShortRun(byte: runByte, count: runLength, heads: heads, matches: matches,
                               to: output, at: &outputCount, bits: &bits, bitCount: &bitCount)
            runLength = 0
        }

        /// A run of 1 to 259 bytes: its literal and either its match or its one or two more
        /// literals, one table entry each (`CardCode.heads` and `.matches`), in one write.
        /// The output has room for it.
        @inline(__always)
        private static func writeShortRun(byte: Int, count: Int, heads: UnsafeMutablePointer<UInt64>,
                                          matches: UnsafeMutablePointer<UInt64>, to output: UnsafeMutablePointer<UInt8>,
                                          at outputCount: inout Int, bits: inout UInt64, bitCount: inout UInt64) {
            let left = count &- 1
            let head = heads[byte &<< 2 | min(left, 3)], tail = matches[left]
            let headCount = head & 0xFF
            put(head &>> 8 | (tail &>> 8) &<< headCount, headCount &+ tail & 0xFF, to: output, at: &outputCount, bits: &bits, bitCount: &bitCount)
        }

        /// A run of more than 259 bytes (a flat stretch): its literal, then matches, the last of
        /// at least 3 bytes.
        private mutating func writeLongRun(byte: Int, left: Int) {
            var left = left
            runLength = 0
            let head = heads[byte &<< 2 | 3]
            put(head &>> 8, head & 0xFF)
            while left > 258 {
                // Leave at least 3 for the last match: 260 is 257 + 3, not 258 + 2 literals.
                let take = left &- 258 >= 3 ? 258 : left &- 3
                put(matches[take] &>> 8, matches[take] & 0xFF)
                left &-= take
                if outputCount &+ Self.slack > outputCapacity { grow(toHold: Self.slack) }
            }
            put(matches[left] &>> 8, matches[left] & 0xFF)
        }

        /// Adler-32 of `count` copies of `byte`, in closed form, at most 2^24 bytes at a time.
        /// Reduced below 2^32 before each part, the second sum stays under 2^57.
        private mutating func addToChecksum(_ count: Int, copiesOf byte: Int) {
            var left = UInt64(truncatingIfNeeded: count)
            let value = UInt64(truncatingIfNeeded: byte)
            repeat {
                if (sum1 | sum2) &>> 32 != 0 { reduceChecksum() }
                let part = min(left, 1 << 24)
                sum2 &+= part &* sum1 &+ value &* ((part &* (part &+ 1)) &>> 1)
                sum1 &+= part &* value
                left &-= part
            } while left > 0
        }

        private mutating func reduceChecksum() {
            (sum1, sum2) = (sum1 % 65521, sum2 % 65521)
        }

        /// Appends `count` bits (at most 56), least significant first.
        @inline(__always)
        private mutating func put(_ value: UInt64, _ count: UInt64) {
            Self.put(value, count, to: output, at: &outputCount, bits: &bits, bitCount: &bitCount)
        }

        /// Appends `count` bits (at most 56) to `bits`, which holds `bitCount` (under 8) not yet
        /// whole, least significant first. Always stores eight bytes and moves on by the whole
        /// ones: no branch on how full the bit buffer is.
        @inline(__always)
        private static func put(_ value: UInt64, _ count: UInt64, to output: UnsafeMutablePointer<UInt8>,
                                at outputCount: inout Int, bits: inout UInt64, bitCount: inout UInt64) {
            // bitCount is under 8 here, so the shift never reaches 64 and needs no check.
            bits |= value &<< bitCount
            bitCount &+= count
            UnsafeMutableRawPointer(output + outputCount).storeBytes(of: bits.littleEndian, as: UInt64.self)
            let whole = bitCount &>> 3
            outputCount &+= Int(truncatingIfNeeded: whole)
            bits = bits &>> (whole &<< 3)
            bitCount &= 7
        }

        /// Makes room for `bytes` more, and the slack.
        private mutating func grow(toHold bytes: Int) {
            var capacity = outputCapacity * 2
            while capacity < outputCount + bytes + Self.slack { capacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: output, count: outputCount &+ 8)
            output.deallocate()
            (output, outputCapacity) = (grown, capacity)
        }
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

    /// Four entries a byte, each a code (bit-reversed) shifted left by 8 over its length in
    /// bits: the byte's literal once, twice and three times (a run of 1, 2 or 3 bytes), and
    /// once again (the literal a match follows).
    package let heads: UnsafeMutablePointer<UInt64>
    /// For each match length 3–258, the same way: its length code, extra bits and the
    /// distance code (distance 1, the only one: one code of one bit, as RFC 1951 allows).
    /// Lengths 0–2 are no bits at all.
    package let matches: UnsafeMutablePointer<UInt64>
    package let endOfBlock: (bits: UInt32, count: UInt8)
    /// The block's header as writes of (bits, count): final block, dynamic codes, the code
    /// lengths run-length coded in the code length alphabet (RFC 1951 3.2.7).
    package let header: [(UInt32, UInt8)]

    private init() {
        let lengths = Self.lengths
        let codes = Huffman.codes(lengths)
        heads = .allocate(capacity: 4 * 256)
        for byte in 0..<256 {
            let code = UInt64(codes[byte]), length = UInt64(lengths[byte])
            let twice = code | code << length, thrice = twice | code << (2 * length)
            for (slot, (bits, count)) in [(code, length), (twice, 2 * length), (thrice, 3 * length), (code, length)].enumerated() {
                heads[4 * byte + slot] = bits << 8 | count
            }
        }
        matches = .allocate(capacity: 259)
        matches.initialize(repeating: 0, count: 259)
        for length in 3...258 {
            let symbol = 257 + Self.lengthBase.lastIndex { Int($0) <= length }!
            let extra = UInt64(length - Int(Self.lengthBase[symbol - 257]))
            let bits = UInt64(codes[symbol]) | extra << UInt64(lengths[symbol])
            matches[length] = bits << 8 | UInt64(lengths[symbol] + Self.lengthExtraBits[symbol - 257] + 1)
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
