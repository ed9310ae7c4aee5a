import Foundation

/// A SHA-256 of a value's whole structure: every stored property, in declaration order,
/// with its name, through the value's `Encodable` conformance. The compiler writes that
/// conformance from the stored properties, so a property added later is covered without
/// anyone remembering to. Two values with the same digest render the same pages, so a
/// rebuild can reuse the files rendered from an earlier one (issue #16).
///
/// This walked the value with `Mirror` before: reflection decoded each property's type from
/// its mangled name every time, and digesting a poll took about 0.6 ms, 15% of a cold
/// build's CPU (docs/performance.md, "A poll's key without reflection").
package enum ValueDigest {
    package static func of<Value: Encodable>(_ value: Value, context: String) -> String {
        let node = DigestNode()
        node.bytes += context.utf8
        node.bytes.append(0)
        node.encoder.encodeNode(value)
        return sha256Hex(node.finished())
    }
}

/// Where a record was read is for diagnostics only, never on a page: a poll that moves
/// within or between files keeps its digest.
extension SourceRef: Encodable {
    public func encode(to encoder: any Encoder) throws {}
}

/// Sets and dictionaries encode their members in iteration order, which Swift seeds anew in
/// each process: their members are sorted by their encoded bytes instead.
private protocol UnorderedMembers {
    /// Unkeyed writes that make one member: 1 for a set's elements, 2 for a dictionary's key
    /// and value (a dictionary keyed by strings or numbers writes keyed entries instead).
    static var writesPerMember: Int { get }
}

extension Set: UnorderedMembers {
    fileprivate static var writesPerMember: Int { 1 }
}

extension Dictionary: UnorderedMembers {
    fileprivate static var writesPerMember: Int { 2 }
}

/// The bytes of a value being encoded, and of the values inside it, in one buffer. Every
/// part is tagged, and every nested value carries its length, so no two different
/// structures give the same bytes:
///
/// - `k` + length + name: the key of the keyed entry that follows;
/// - `s` + length + UTF-8, `i` / `u` + 8 bytes, `f` + the bits, `b` + 0 or 1, `z` for nil
///   (each integer width has a tag of its own, so 1, 1.0, UInt8(1) and true differ);
/// - `n` + length + bytes: a nested value;
/// - after a value's own entries, `N` + length + bytes for each nested container it made,
///   in the order it made them (the protocol says when a container starts, never when it
///   ends, so its entries are kept apart until the value is done).
private final class DigestNode {
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// The Encoder that writes here, made once: a nested value is encoded with it.
    private(set) lazy var encoder = DigestEncoder(node: self)
    /// The values being encoded, outermost first: one frame each.
    @exclusivity(unchecked) private var frames: [Frame] = [Frame(start: 0, unordered: nil)]

    private struct Frame {
        /// Where the value's bytes start.
        let start: Int
        /// For a set or dictionary, the unkeyed writes that make one member; its members are
        /// sorted by their bytes when it is done.
        let unordered: Int?
        var memberStarts: [Int] = []
        var keyedWrites = 0, unkeyedWrites = 0
        var nested: [DigestNode] = []
    }

    var unkeyedWrites: Int { frames[frames.count - 1].unkeyedWrites }

    /// Starts a nested value: its tag, room for its length, and a frame.
    func open(unordered: Int?) {
        bytes.append(UInt8(ascii: "n"))
        word(0)
        frames.append(Frame(start: bytes.count, unordered: unordered))
    }

    /// Ends the nested value opened last: its members sorted if unordered, its nested
    /// containers after its own entries, its length written before it.
    func close() {
        let frame = frames.removeLast()
        finish(frame)
        let length = UInt64(bytes.count - frame.start).littleEndian
        withUnsafeBytes(of: length) { bytes.replaceSubrange(frame.start - 8..<frame.start, with: $0) }
    }

    /// The whole buffer, once the outermost value is done.
    func finished() -> [UInt8] {
        finish(frames.removeLast())
        return bytes
    }

    private func finish(_ frame: Frame) {
        if frame.unordered != nil, frame.memberStarts.count > 1 {
            let starts = frame.memberStarts
            var members = zip(starts, starts.dropFirst() + [bytes.count]).map { bytes[$0..<$1] }
            members.sort { $0.lexicographicallyPrecedes($1) }
            bytes.replaceSubrange(starts[0]..., with: Array(members.joined()))
        }
        for container in frame.nested {
            let inner = container.finished()
            bytes.append(UInt8(ascii: "N"))
            word(UInt64(inner.count))
            bytes += inner
        }
    }

    /// A nested container's own buffer, added after the current value's entries.
    func nestedContainer(_ first: (DigestNode) -> Void) -> DigestNode {
        let nested = DigestNode()
        first(nested)
        frames[frames.count - 1].nested.append(nested)
        return nested
    }

    func key(_ key: some CodingKey) {
        let top = frames.count - 1
        if frames[top].unordered != nil { frames[top].memberStarts.append(bytes.count) }
        frames[top].keyedWrites += 1
        bytes.append(UInt8(ascii: "k"))
        string(key.stringValue)
    }

    /// Before each unkeyed element.
    func element() {
        let top = frames.count - 1
        if let unordered = frames[top].unordered, frames[top].keyedWrites == 0, frames[top].unkeyedWrites % unordered == 0 {
            frames[top].memberStarts.append(bytes.count)
        }
        frames[top].unkeyedWrites += 1
    }

    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            word(UInt64(utf8.count))
            bytes += utf8
        }
    }

    func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    func tagged(_ tag: Unicode.Scalar, _ value: UInt64) {
        bytes.append(UInt8(ascii: tag))
        word(value)
    }
}

private final class DigestEncoder: Encoder {
    /// Its node owns it.
    unowned let node: DigestNode
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: DigestNode) {
        self.node = node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(DigestKeyedContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        DigestUnkeyedContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        DigestSingleValueContainer(node: node)
    }

    /// `value` encoded as a nested value of `node`.
    func encodeNode<Value: Encodable>(_ value: Value) {
        node.open(unordered: (Value.self as? any UnorderedMembers.Type)?.writesPerMember)
        // The containers of this encoder never throw; a conformance that throws on its own
        // (none of the site's models do) leaves its bytes as far as it got.
        try? value.encode(to: self)
        node.close()
    }
}

/// The primitive writes every container shares.
private protocol DigestWriting {
    var node: DigestNode { get }
}

extension DigestWriting {
    func write(_ value: Bool) { node.bytes += [UInt8(ascii: "b"), value ? 1 : 0] }
    func write(_ value: String) {
        node.bytes.append(UInt8(ascii: "s"))
        node.string(value)
    }
    func write(_ value: Double) { node.tagged("f", value.bitPattern) }
    func write(_ value: Float) { node.tagged("g", UInt64(value.bitPattern)) }
    func write(_ tag: Unicode.Scalar, signed value: some FixedWidthInteger) { node.tagged(tag, UInt64(truncatingIfNeeded: Int64(value))) }
    func write(_ tag: Unicode.Scalar, unsigned value: some FixedWidthInteger) { node.tagged(tag, UInt64(value)) }
    func writeNil() { node.bytes.append(UInt8(ascii: "z")) }
    func write<Value: Encodable>(_ value: Value) { node.encoder.encodeNode(value) }
}

private struct DigestKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, DigestWriting {
    let node: DigestNode
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) { node.key(key); writeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { node.key(key); write(value) }
    mutating func encode(_ value: String, forKey key: Key) { node.key(key); write(value) }
    mutating func encode(_ value: Double, forKey key: Key) { node.key(key); write(value) }
    mutating func encode(_ value: Float, forKey key: Key) { node.key(key); write(value) }
    mutating func encode(_ value: Int, forKey key: Key) { node.key(key); write("i", signed: value) }
    mutating func encode(_ value: Int8, forKey key: Key) { node.key(key); write("1", signed: value) }
    mutating func encode(_ value: Int16, forKey key: Key) { node.key(key); write("2", signed: value) }
    mutating func encode(_ value: Int32, forKey key: Key) { node.key(key); write("4", signed: value) }
    mutating func encode(_ value: Int64, forKey key: Key) { node.key(key); write("8", signed: value) }
    mutating func encode(_ value: UInt, forKey key: Key) { node.key(key); write("u", unsigned: value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { node.key(key); write("5", unsigned: value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { node.key(key); write("6", unsigned: value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { node.key(key); write("7", unsigned: value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { node.key(key); write("9", unsigned: value) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) { node.key(key); write(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DigestKeyedContainer<NestedKey>(node: nestedNode(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DigestUnkeyedContainer(node: nestedNode(key))
    }

    mutating func superEncoder() -> any Encoder {
        nestedNode(nil).encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        nestedNode(key).encoder
    }

    /// A container of its own, named by `key`, added to this value's bytes when it is done.
    private func nestedNode(_ key: Key?) -> DigestNode {
        node.nestedContainer { nested in
            if let key { nested.key(key) } else { nested.bytes.append(UInt8(ascii: "^")) }
        }
    }
}

private struct DigestUnkeyedContainer: UnkeyedEncodingContainer, DigestWriting {
    let node: DigestNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.unkeyedWrites }

    mutating func encodeNil() { node.element(); writeNil() }
    mutating func encode(_ value: Bool) { node.element(); write(value) }
    mutating func encode(_ value: String) { node.element(); write(value) }
    mutating func encode(_ value: Double) { node.element(); write(value) }
    mutating func encode(_ value: Float) { node.element(); write(value) }
    mutating func encode(_ value: Int) { node.element(); write("i", signed: value) }
    mutating func encode(_ value: Int8) { node.element(); write("1", signed: value) }
    mutating func encode(_ value: Int16) { node.element(); write("2", signed: value) }
    mutating func encode(_ value: Int32) { node.element(); write("4", signed: value) }
    mutating func encode(_ value: Int64) { node.element(); write("8", signed: value) }
    mutating func encode(_ value: UInt) { node.element(); write("u", unsigned: value) }
    mutating func encode(_ value: UInt8) { node.element(); write("5", unsigned: value) }
    mutating func encode(_ value: UInt16) { node.element(); write("6", unsigned: value) }
    mutating func encode(_ value: UInt32) { node.element(); write("7", unsigned: value) }
    mutating func encode(_ value: UInt64) { node.element(); write("9", unsigned: value) }
    mutating func encode<Value: Encodable>(_ value: Value) { node.element(); write(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DigestKeyedContainer<NestedKey>(node: nestedNode()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        DigestUnkeyedContainer(node: nestedNode())
    }

    mutating func superEncoder() -> any Encoder {
        nestedNode().encoder
    }

    private func nestedNode() -> DigestNode {
        node.element()
        return node.nestedContainer { $0.bytes.append(UInt8(ascii: "[")) }
    }
}

private struct DigestSingleValueContainer: SingleValueEncodingContainer, DigestWriting {
    let node: DigestNode
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { writeNil() }
    mutating func encode(_ value: Bool) { write(value) }
    mutating func encode(_ value: String) { write(value) }
    mutating func encode(_ value: Double) { write(value) }
    mutating func encode(_ value: Float) { write(value) }
    mutating func encode(_ value: Int) { write("i", signed: value) }
    mutating func encode(_ value: Int8) { write("1", signed: value) }
    mutating func encode(_ value: Int16) { write("2", signed: value) }
    mutating func encode(_ value: Int32) { write("4", signed: value) }
    mutating func encode(_ value: Int64) { write("8", signed: value) }
    mutating func encode(_ value: UInt) { write("u", unsigned: value) }
    mutating func encode(_ value: UInt8) { write("5", unsigned: value) }
    mutating func encode(_ value: UInt16) { write("6", unsigned: value) }
    mutating func encode(_ value: UInt32) { write("7", unsigned: value) }
    mutating func encode(_ value: UInt64) { write("9", unsigned: value) }
    mutating func encode<Value: Encodable>(_ value: Value) { write(value) }
}
