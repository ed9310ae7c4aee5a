import Foundation

/// Little-endian binary for sitegen's own caches, which only the same sitegen reads back
/// (the poll cache): a 10,000-poll site's cache decoded from JSON cost a rebuild after one
/// ballot more than a quarter of its CPU; read this way it is a copy per string.
///
/// Every count and length is checked against what is left when read back, so a cut or
/// damaged file is a `BinaryReader.Failure`, never a crash or a huge allocation.
package struct BinaryWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func byte(_ value: UInt8) { bytes.append(value) }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func word(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    package mutating func int(_ value: Int) { word(UInt64(bitPattern: Int64(value))) }
    /// A Double by its bits, so it comes back exactly.
    package mutating func double(_ value: Double) { word(value.bitPattern) }
    package mutating func date(_ value: Date) { double(value.timeIntervalSinceReferenceDate) }
    package mutating func uuid(_ value: UUID) { withUnsafeBytes(of: value.uuid) { bytes += $0 } }

    /// A length, then the bytes.
    package mutating func blob(_ value: some Collection<UInt8>) {
        int(value.count)
        bytes += value
    }

    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { blob($0) }
    }

    package mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    /// A count, then each element.
    package mutating func array<C: Collection>(_ values: C, _ write: (inout BinaryWriter, C.Element) -> Void) {
        int(values.count)
        for value in values { write(&self, value) }
    }
}

/// Reads what BinaryWriter wrote, from bytes it does not own (a mapped file).
package struct BinaryReader {
    package struct Failure: Error, Equatable {
        /// Where reading stopped.
        package let offset: Int

        package init(offset: Int) {
            self.offset = offset
        }
    }

    private let bytes: UnsafeRawBufferPointer
    package private(set) var offset = 0

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    package var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(Failure) -> Int {
        guard count >= 0, count <= bytes.count - offset else { throw Failure(offset: offset) }
        defer { offset += count }
        return offset
    }

    package mutating func byte() throws(Failure) -> UInt8 { bytes[try take(1)] }

    package mutating func bool() throws(Failure) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Failure(offset: offset - 1)
        }
    }

    package mutating func word() throws(Failure) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(8), as: UInt64.self))
    }

    package mutating func int() throws(Failure) -> Int {
        let value = Int64(bitPattern: try word())
        guard let int = Int(exactly: value) else { throw Failure(offset: offset - 8) }
        return int
    }

    package mutating func double() throws(Failure) -> Double { Double(bitPattern: try word()) }
    package mutating func date() throws(Failure) -> Date { Date(timeIntervalSinceReferenceDate: try double()) }

    package mutating func uuid() throws(Failure) -> UUID {
        UUID(uuid: bytes.loadUnaligned(fromByteOffset: try take(16), as: uuid_t.self))
    }

    /// A length, then that many bytes, in place.
    package mutating func blob() throws(Failure) -> UnsafeRawBufferPointer {
        let count = try int()
        let start = try take(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])
    }

    /// A length, then that many bytes, skipped: where they are.
    package mutating func blobRange() throws(Failure) -> Range<Int> {
        let count = try int()
        let start = try take(count)
        return start..<start + count
    }

    /// Damaged UTF-8 is repaired, not trusted: the cache is ours, but it is still a file.
    package mutating func string() throws(Failure) -> String {
        String(decoding: try blob(), as: UTF8.self)
    }

    package mutating func optional<T>(_ read: (inout BinaryReader) throws(Failure) -> T) throws(Failure) -> T? {
        try bool() ? try read(&self) : nil
    }

    /// A count, then each element; a count larger than the bytes left fails before
    /// anything is allocated (every element takes at least one byte).
    package mutating func array<T>(_ read: (inout BinaryReader) throws(Failure) -> T) throws(Failure) -> [T] {
        let count = try int()
        guard count >= 0, count <= bytes.count - offset else { throw Failure(offset: offset - 8) }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
}
