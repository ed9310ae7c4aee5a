import Foundation
@testable import SitegenCore
import Testing

/// The binary of sitegen's own caches: what is written is read back exactly, and a cut or
/// damaged file fails where it is damaged instead of crashing or allocating what it claims.
@Suite("Binary caches")
struct BinaryCodingTests {
    func read<T>(_ bytes: [UInt8], _ body: (inout BinaryReader) throws(BinaryReader.Failure) -> T) -> Result<T, BinaryReader.Failure> {
        bytes.withUnsafeBytes { raw in
            var reader = BinaryReader(raw)
            do throws(BinaryReader.Failure) {
                let value = try body(&reader)
                guard reader.isAtEnd else { return .failure(BinaryReader.Failure(offset: reader.offset)) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("Every kind of value comes back exactly, in the order written")
    func roundTrip() throws {
        var out = BinaryWriter()
        let id = UUID(uuidString: "7F9619FF-8B86-D011-B42D-00CF4FC964FF")!
        out.int(Int.min); out.int(-1); out.int(Int.max)
        out.double(-0.0); out.double(.nan); out.date(Date(timeIntervalSinceReferenceDate: 1e-300))
        out.uuid(id)
        out.string(""); out.string("Café <b>\u{0}\n")
        out.optional(nil as Int?) { $0.int($1) }; out.optional(7) { $0.int($1) }
        out.array(["a", "bé"]) { $0.string($1) }
        out.bool(true); out.byte(0xFF)
        // "Café <b>\u{0}\n" is 11 bytes of UTF-8; "bé" 3.
        #expect(out.bytes.count == 8 * 3 + 8 * 3 + 16 + 8 + (8 + 11) + 1 + 9 + 8 + (8 + 1) + (8 + 3) + 2)

        let result = read(out.bytes) { (r) throws(BinaryReader.Failure) in
            let ints = [try r.int(), try r.int(), try r.int()]
            let doubles = [try r.double(), try r.double()]
            let date = try r.date()
            let uuid = try r.uuid()
            let strings = [try r.string(), try r.string()]
            let optionals = [try r.optional { (r) throws(BinaryReader.Failure) in try r.int() },
                             try r.optional { (r) throws(BinaryReader.Failure) in try r.int() }]
            let array = try r.array { (r) throws(BinaryReader.Failure) in try r.string() }
            return (ints, doubles, date, uuid, strings, optionals, array, try r.bool(), try r.byte())
        }
        let (ints, doubles, date, uuid, strings, optionals, array, flag, byte) = try result.get()
        #expect(ints == [Int.min, -1, Int.max])
        #expect(doubles[0].bitPattern == (-0.0).bitPattern && doubles[1].isNaN)
        #expect(date.timeIntervalSinceReferenceDate == 1e-300)
        #expect(uuid == id)
        #expect(strings == ["", "Café <b>\u{0}\n"])
        #expect(optionals == [nil, 7])
        #expect(array == ["a", "bé"])
        #expect(flag && byte == 0xFF)
    }

    @Test("A cut value fails at the offset where it was cut")
    func cut() {
        var out = BinaryWriter()
        out.string("hello")
        for count in 0..<out.bytes.count {
            let result = read(Array(out.bytes[..<count])) { (r) throws(BinaryReader.Failure) in try r.string() }
            #expect(throws: BinaryReader.Failure.self) { try result.get() }
        }
        #expect(read(out.bytes) { (r) throws(BinaryReader.Failure) in try r.string() } == .success("hello"))
    }

    @Test("A huge or negative count or length fails before anything is allocated")
    func hugeCounts() {
        for claimed in [Int.max, Int.max - 7, 1 << 40, -1, Int.min] {
            var out = BinaryWriter()
            out.int(claimed)
            out.byte(0)
            #expect(read(out.bytes) { (r) throws(BinaryReader.Failure) in try r.array { (r) throws(BinaryReader.Failure) in try r.byte() } }
                == .failure(BinaryReader.Failure(offset: 0)))
            #expect(read(out.bytes) { (r) throws(BinaryReader.Failure) in try r.string() } == .failure(BinaryReader.Failure(offset: 8)))
        }
        // A flag is 0 or 1; anything else is damage.
        #expect(read([2]) { (r) throws(BinaryReader.Failure) in try r.bool() } == .failure(BinaryReader.Failure(offset: 0)))
    }

    @Test("Damaged UTF-8 in a string is repaired, not trusted")
    func damagedText() {
        var out = BinaryWriter()
        out.blob([0x61, 0xFF, 0x62])
        #expect(read(out.bytes) { (r) throws(BinaryReader.Failure) in try r.string() } == .success("a\u{FFFD}b"))
    }
}
