/// A deflate (RFC 1951) encoder for byte streams fed as runs of one byte, the shape of a
/// card's palette rows: long runs of a flat colour between short antialiased edges. A run
/// becomes a literal and matches at distance 1 (what zlib's `Z_RLE` strategy finds), coded
/// with Huffman codes fitted to each block, and the zlib checksum is kept per run rather than
/// per byte.
///
/// It exists for speed: zlib spent about 20 ns on each of a card's ~56,000 symbols and read
/// every byte of the rows again; here the palette mapping hands over the runs it has already
/// found (docs/performance.md, "Link preview images"). PreviewTests inflate every test card
/// with zlib, which checks the stream and its checksum, and compare the pixels.
package struct RunDeflate: ~Copyable {
    /// Symbols waiting for the next block: a literal byte (0–255), or 256 + a match length (3–258).
    private let symbols: UnsafeMutablePointer<UInt16>
    private var symbolCount = 0
    private static let symbolsPerBlock = 1 << 16
    /// Literal/length code frequencies of the waiting symbols (286 codes).
    private let frequencies: UnsafeMutablePointer<UInt32>
    /// `lengthCode` where the hot path reads it (a static array costs a check on every read).
    private let codeOfLength: UnsafeMutablePointer<UInt16>
    /// The current block's bits and bit count for each symbol value (literal, or 256 + length).
    private let symbolBits: UnsafeMutablePointer<UInt32>
    private let symbolBitCount: UnsafeMutablePointer<UInt8>

    /// The run not yet turned into symbols, and the last byte that was (-1 at the start).
    private var runByte = 0, runLength = 0, lastByte = -1

    /// The zlib checksum (Adler-32) of every byte added so far.
    private var sum1: UInt64 = 1, sum2: UInt64 = 0

    /// The compressed bytes, and bits not yet written out (fewer than 32).
    private var output: UnsafeMutablePointer<UInt8>
    private var outputCapacity: Int
    private var outputCount = 0
    private var bits: UInt64 = 0, bitCount = 0

    package init() {
        symbols = .allocate(capacity: Self.symbolsPerBlock)
        frequencies = .allocate(capacity: 286)
        frequencies.initialize(repeating: 0, count: 286)
        codeOfLength = .allocate(capacity: 259)
        codeOfLength.initialize(from: Self.lengthCode, count: 259)
        symbolBits = .allocate(capacity: 256 + 259)
        symbolBits.initialize(repeating: 0, count: 256 + 259)
        symbolBitCount = .allocate(capacity: 256 + 259)
        symbolBitCount.initialize(repeating: 0, count: 256 + 259)
        outputCapacity = 1 << 16
        output = .allocate(capacity: outputCapacity)
    }

    deinit {
        symbols.deallocate()
        frequencies.deallocate()
        codeOfLength.deallocate()
        symbolBits.deallocate()
        symbolBitCount.deallocate()
        output.deallocate()
    }

    /// Starts a new stream.
    package mutating func reset() {
        symbolCount = 0
        frequencies.update(repeating: 0, count: 286)
        (runByte, runLength, lastByte) = (0, 0, -1)
        (sum1, sum2) = (1, 0)
        (outputCount, bits, bitCount) = (0, 0, 0)
    }

    /// Adds `count` copies of `byte` to the stream.
    @inline(__always)
    package mutating func add(_ byte: UInt8, count: Int) {
        if Int(byte) == runByte {
            runLength &+= count
            return
        }
        if runLength == 1 && runByte != lastByte {
            // The commonest run in an antialiased edge: one literal byte, no match.
            sum1 &+= UInt64(truncatingIfNeeded: runByte)
            sum2 &+= sum1
            reduceChecksumIfLarge()
            symbol(UInt16(truncatingIfNeeded: runByte))
            lastByte = runByte
        } else {
            endRun()
        }
        (runByte, runLength) = (Int(byte), count)
    }

    /// Ends the stream: the deflate data (no zlib header: the caller writes it) and the
    /// Adler-32 of what was added. The bytes are valid until the next `reset`.
    package mutating func finish() -> (deflate: UnsafeBufferPointer<UInt8>, adler: UInt32) {
        endRun()
        writeBlock(final: true)
        reserve(8)
        while bitCount > 0 {
            output[outputCount] = UInt8(truncatingIfNeeded: bits)
            outputCount += 1
            bits >>= 8
            bitCount = max(bitCount - 8, 0)
        }
        return (UnsafeBufferPointer(start: output, count: outputCount), UInt32((sum2 % 65521) << 16 | sum1 % 65521))
    }

    /// Turns the waiting run into symbols: a literal unless the byte before it is the same, then
    /// matches of up to 258 bytes at distance 1, and what is left under 3 bytes as literals.
    /// This runs once per run, some 40,000 times a card, so it avoids trapping arithmetic
    /// and takes the checksum's remainders only now and then (`addToChecksum`).
    private mutating func endRun() {
        guard runLength > 0 else { return }
        addToChecksum(runLength, copiesOf: runByte)
        var left = runLength
        if lastByte != runByte {
            symbol(UInt16(truncatingIfNeeded: runByte))
            left &-= 1
            lastByte = runByte
        }
        while left >= 3 {
            let length = min(left, 258)
            symbol(256 &+ UInt16(truncatingIfNeeded: length))
            left &-= length
        }
        while left > 0 {
            symbol(UInt16(truncatingIfNeeded: runByte))
            left &-= 1
        }
        runLength = 0
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
            reduceChecksumIfLarge()
            left &-= part
        } while left > 0
    }

    @inline(__always)
    private mutating func reduceChecksumIfLarge() {
        if sum1 | sum2 &>> 24 >= 1 << 32 { (sum1, sum2) = (sum1 % 65521, sum2 % 65521) }
    }

    @inline(__always)
    private mutating func symbol(_ value: UInt16) {
        symbols[symbolCount] = value
        symbolCount &+= 1
        frequencies[value < 256 ? Int(value) : Int(codeOfLength[Int(value) &- 256])] &+= 1
        if symbolCount == Self.symbolsPerBlock { writeBlock(final: false) }
    }

    // MARK: Blocks

    /// Writes the waiting symbols as one block with Huffman codes of its own (BTYPE 2).
    private mutating func writeBlock(final: Bool) {
        frequencies[256] += 1  // end of block
        var literalLengths = Huffman.lengths(UnsafeBufferPointer(start: frequencies, count: 286), limit: 15)
        let literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        literalLengths.removeLast(286 - literalCount)
        let literalCodes = Huffman.codes(literalLengths)
        // Every match is at distance 1 (distance code 0): one code of one bit, as RFC 1951 allows.
        let distanceLengths: [UInt8] = [1]

        // The code lengths, run-length coded in the code length alphabet (RFC 1951 3.2.7).
        typealias LengthSymbol = (symbol: Int, extra: UInt32, extraBits: Int)
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

        reserve(symbolCount * 3 + 512)
        put(final ? 1 : 0, 1)
        put(2, 2)
        put(UInt32(literalCount - 257), 5)
        put(UInt32(distanceLengths.count - 1), 5)
        put(UInt32(orderCount - 4), 4)
        for symbol in order.prefix(orderCount) { put(UInt32(lengthLengths[symbol]), 3) }
        for entry in lengthSymbols {
            put(lengthCodes[entry.symbol], Int(lengthLengths[entry.symbol]))
            if entry.extraBits > 0 { put(entry.extra, entry.extraBits) }
        }

        // Every symbol's bits in full, so the loop below is one lookup a symbol: a literal's
        // code, or a match length's code, extra bits and distance code 0 (one 0 bit).
        for literal in 0..<256 {
            symbolBits[literal] = literalCodes[literal]
            symbolBitCount[literal] = literalLengths[literal]
        }
        for length in 3...258 {
            let code = Int(Self.lengthCode[length])
            guard code < literalCount, literalLengths[code] > 0 else { continue }
            let extra = UInt32(length - Int(Self.lengthBase[code - 257]))
            symbolBits[256 + length] = literalCodes[code] | extra << UInt32(literalLengths[code])
            symbolBitCount[256 + length] = literalLengths[code] + Self.lengthExtraBits[code - 257] + 1
        }
        for index in 0..<symbolCount {
            let value = Int(symbols[index])
            put(symbolBits[value], Int(symbolBitCount[value]))
        }
        put(literalCodes[256], Int(literalLengths[256]))
        symbolCount = 0
        frequencies.update(repeating: 0, count: 286)
    }

    /// Appends `count` bits (at most 32), least significant first; whole bytes go out four at a time.
    @inline(__always)
    private mutating func put(_ value: UInt32, _ count: Int) {
        // bitCount is under 32 here, so the shift never reaches 64 and needs no check.
        bits |= UInt64(value) &<< UInt64(truncatingIfNeeded: bitCount)
        bitCount &+= count
        if bitCount >= 32 {
            UnsafeMutableRawPointer(output + outputCount).storeBytes(of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
            outputCount &+= 4
            bits &>>= 32
            bitCount &-= 32
        }
    }

    /// Room for `count` more bytes (a symbol never takes more than 3: 15 + 5 + 1 bits).
    private mutating func reserve(_ count: Int) {
        guard outputCount + count + 8 > outputCapacity else { return }
        let capacity = max(outputCapacity * 2, outputCount + count + 8)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: output, count: outputCount)
        output.deallocate()
        (output, outputCapacity) = (grown, capacity)
    }

    // MARK: The length alphabet (RFC 1951 3.2.5)

    private static let lengthBase: [UInt16] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                               35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                                   3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// The code (257–285) of each match length, by length (3–258; 258 has a code of its own).
    private static let lengthCode: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 259)
        for length in 3...258 {
            table[length] = 257 + UInt16(lengthBase.lastIndex { Int($0) <= length }!)
        }
        return table
    }()
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
