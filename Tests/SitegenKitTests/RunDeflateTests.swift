import CCairo
import Foundation
@testable import SitegenRender
import Testing

/// The cards' deflate encoder against zlib's inflate, which checks every code, length and the
/// checksum: any stream it accepts and expands to the bytes added is a correct stream.
@Suite("The cards' deflate encoder (RunDeflate)")
struct RunDeflateTests {
    /// Runs as the cards give them, from a fixed generator: mostly short (antialiased edges),
    /// some long (flat colour), a few bytes used far more than others.
    static func runs(count: Int, seed: UInt64) -> [(byte: UInt8, length: Int)] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<count).map { _ in
            let byte = next() % 4 == 0 ? UInt8(next() % 256) : UInt8(next() % 12)
            let length = switch next() % 10 {
            case 0: 250 + Int(next() % 2_500)  // past 258: several matches
            case 1, 2: 3 + Int(next() % 8)
            default: 1 + Int(next() % 2)
            }
            return (byte, length)
        }
    }

    /// Encodes `runs`, wraps the stream as zlib does, and inflates it with zlib.
    static func roundTrip(_ runs: [(byte: UInt8, length: Int)]) -> (inflated: [UInt8]?, adler: UInt32, compressed: Int) {
        var deflate = RunDeflate()
        deflate.reset()
        for run in runs { deflate.add(run.byte, count: run.length) }
        return finish(&deflate, expected: runs.reduce(0) { $0 + $1.length })
    }

    /// Ends the stream, wraps it as zlib does, and inflates it with zlib.
    static func finish(_ deflate: inout RunDeflate, expected: Int) -> (inflated: [UInt8]?, adler: UInt32, compressed: Int) {
        let (stream, adler) = deflate.finish()
        let wrapped = [0x78, 0x01] + Array(stream) + [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        var inflated = [UInt8](repeating: 0, count: expected + 1)
        var inflatedCount = uLong(inflated.count)
        guard uncompress(&inflated, &inflatedCount, wrapped, uLong(wrapped.count)) == Z_OK else { return (nil, adler, stream.count) }
        return (Array(inflated.prefix(Int(inflatedCount))), adler, stream.count)
    }

    @Test("Runs of every length come back byte for byte, with zlib's checksum", arguments: [1, 2, 3])
    func roundTrips(seed: UInt64) throws {
        let runs = Self.runs(count: 20_000, seed: seed)
        let bytes = runs.flatMap { repeatElement($0.byte, count: $0.length) }
        let (inflated, adler, compressed) = Self.roundTrip(runs)
        #expect(try #require(inflated) == bytes)
        #expect(adler == UInt32(bytes.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }))
        #expect(compressed < bytes.count / 2)
    }

    @Test("Every byte has a code, and every run length: each byte in runs of 1 to 600 bytes comes back")
    func everyByteAndLength() throws {
        // Bytes the cards rarely or never use get the longest codes; lengths past 258 are
        // several matches, the last of at least 3 bytes.
        var runs: [(byte: UInt8, length: Int)] = []
        for length in 1...600 { for byte in 0...255 where (byte + length) % 7 == 0 { runs.append((UInt8(byte), length)) } }
        for byte in 0...255 { runs.append((UInt8(byte), 1)) }
        let bytes = runs.flatMap { repeatElement($0.byte, count: $0.length) }
        let (inflated, adler, _) = Self.roundTrip(runs)
        #expect(try #require(inflated) == bytes)
        #expect(adler == UInt32(bytes.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }))
    }

    @Test("The cards' code is a complete code of at most 15 bits for all 286 literal and length symbols")
    func cardCode() {
        let lengths = CardCode.lengths
        #expect(lengths.count == 286)
        #expect(lengths.allSatisfy { $0 > 0 && $0 <= 15 })
        #expect(lengths.reduce(0.0) { $0 + pow(2, -Double($1)) } == 1)
    }

    @Test("Edge cases: nothing, one byte, one long run, a run continued by a second add")
    func edgeCases() throws {
        for runs in [[], [(byte: UInt8(7), length: 1)], [(0, 1_000_000)], [(9, 2), (9, 2), (4, 3)]] as [[(byte: UInt8, length: Int)]] {
            let (inflated, _, _) = Self.roundTrip(runs)
            #expect(try #require(inflated) == runs.flatMap { repeatElement($0.byte, count: $0.length) })
        }
    }

    @Test("Rows of runs added at once, now and then runs added one by one, with zlib's checksum")
    func rowsOfRuns() throws {
        // As the cards add them: a row's filter byte and runs at once, some next to one of
        // the same byte (joined), some long; and in the first 1,000 rows, every 50th, a run
        // added alone. Nine million bytes, nearly all high, whose checksum is folded into
        // the stream's a row at a time.
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var deflate = RunDeflate()
        deflate.reset()
        var bytes: [UInt8] = [], row: [UInt32] = [], rows = 0
        bytes.reserveCapacity(9_202_000)
        while bytes.count < 8_000_000 {
            rows += 1
            if rows % 50 == 0 && rows <= 1_000 {
                let byte = UInt8(next(256)), length = 1 + next(300)
                deflate.add(byte, count: length)
                bytes += repeatElement(byte, count: length)
            }
            let filter = UInt8(next(3))
            row = [1 << 8 | UInt32(filter)]
            bytes.append(filter)
            var left = 1_200
            while left > 0 {
                let length = min(left, next(4) == 0 ? 1 + next(600) : 1 + next(3))
                let byte = UInt8(next(50) == 0 ? next(256) : 250 + next(6))
                row.append(UInt32(length) << 8 | UInt32(byte))
                bytes += repeatElement(byte, count: length)
                left -= length
            }
            row.withUnsafeBufferPointer { deflate.add(runs: $0.baseAddress!, count: $0.count) }
        }
        let (inflated, adler, _) = Self.finish(&deflate, expected: bytes.count)
        #expect(try #require(inflated) == bytes)
        #expect(adler == UInt32(bytes.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }))
    }

    @Test("The checksum is zlib's when its sums are reduced late: runs over 2^24 bytes, then 300,000 one-byte runs")
    func checksumReducedLate() throws {
        // The encoder takes Adler-32's remainders of runs added one by one only when its sums
        // pass 2^32, and splits a run longer than 2^24 bytes: high bytes in long runs get
        // there quickly.
        var runs: [(byte: UInt8, length: Int)] = [(255, (1 << 24) + 12_345), (254, 1), (1, 3), (255, 3 << 22)]
        runs += (0..<300_000).map { (UInt8(255 - $0 % 2), 1) }
        runs.append((200, 70_000))
        var bytes = [UInt8]()
        for run in runs { bytes += [UInt8](repeating: run.byte, count: run.length) }
        let (inflated, adler, _) = Self.roundTrip(runs)
        #expect(try #require(inflated) == bytes)
        #expect(adler == UInt32(bytes.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }))
    }

    @Test("Huffman code lengths stay within the limit and make a complete code, even for Fibonacci frequencies")
    func lengthLimit() {
        // Fibonacci frequencies give the deepest Huffman tree: 29 symbols would need 28 bits.
        var fibonacci: [UInt32] = [1, 1]
        while fibonacci.count < 29 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for (frequencies, limit) in [(fibonacci, 15), (fibonacci, 7), ([5, 0, 0, 0], 15), ([0, 0, 3, 9, 1], 15)] {
            let lengths = frequencies.withUnsafeBufferPointer { Huffman.lengths($0, limit: limit) }
            #expect(lengths.max()! <= UInt8(limit))
            #expect(zip(frequencies, lengths).allSatisfy { $0 == 0 || $1 > 0 }, "every used symbol has a code")
            let kraft = lengths.filter { $0 > 0 }.reduce(0.0) { $0 + pow(2, -Double($1)) }
            #expect(kraft == 1, "complete: \(lengths)")
        }
    }

    @Test("Canonical codes follow RFC 1951's example (3.2.2), bit-reversed")
    func canonicalCodes() {
        // Lengths (3, 3, 3, 3, 3, 2, 4, 4) give 010, 011, 100, 101, 110, 00, 1110, 1111.
        let codes = Huffman.codes([3, 3, 3, 3, 3, 2, 4, 4])
        #expect(codes == [0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111])
    }
}
