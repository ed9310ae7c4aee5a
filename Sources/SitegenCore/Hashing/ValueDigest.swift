import Foundation

/// A SHA-256 of a value's whole structure, found by reflection: every stored property, in
/// declaration order, with its label. Two values with the same digest render the same pages,
/// so a rebuild can reuse the files rendered from an earlier one (issue #16). Dates are
/// taken to the bit (their description drops fractions of a second).
package enum ValueDigest {
    package static func of(_ value: Any, context: String) -> String {
        var bytes = Array(context.utf8)
        bytes.append(0)
        append(value, to: &bytes)
        return sha256Hex(bytes)
    }

    /// Tags and lengths keep the encoding unambiguous. The types a poll holds most are
    /// told apart by their metatype, a pointer comparison, and written as raw bits: casting
    /// each value in turn and printing numbers cost a 10,000-poll build seconds of CPU.
    private static func append(_ value: Any, to bytes: inout [UInt8]) {
        let type = type(of: value)
        if type == String.self {
            var string = value as! String
            bytes.append(UInt8(ascii: "s"))
            string.withUTF8 { utf8 in
                word(UInt64(utf8.count), to: &bytes)
                bytes += utf8
            }
            return
        }
        if type == Int.self {
            bytes.append(UInt8(ascii: "i"))
            word(UInt64(bitPattern: Int64(value as! Int)), to: &bytes)
            return
        }
        if type == Double.self {
            bytes.append(UInt8(ascii: "f"))
            word((value as! Double).bitPattern, to: &bytes)
            return
        }
        if type == Bool.self {
            bytes.append(UInt8(ascii: "b"))
            bytes.append((value as! Bool) ? 1 : 0)
            return
        }
        if type == Date.self {
            // To the bit: a date's description drops fractions of a second.
            bytes.append(UInt8(ascii: "d"))
            word((value as! Date).timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
            return
        }
        if type == UUID.self {
            bytes.append(UInt8(ascii: "u"))
            withUnsafeBytes(of: (value as! UUID).uuid) { bytes += $0 }
            return
        }
        if type == SourceRef.self {
            // Where a record was read: for diagnostics only, never on a page, so a poll that
            // moves within or between files keeps its digest.
            return
        }
        let mirror = Mirror(reflecting: value)
        let children = mirror.children
        if children.isEmpty {
            // Any other leaf: other numbers, enum cases without payload, nil. They print
            // exactly, with their type for enum cases.
            let text = String(reflecting: value)
            bytes.append(UInt8(ascii: "l"))
            word(UInt64(text.utf8.count), to: &bytes)
            bytes += text.utf8
            return
        }
        bytes.append(UInt8(ascii: "("))
        word(UInt64(children.count), to: &bytes)
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set {
            // Dictionaries and sets iterate in no fixed order: sort the children's digests.
            var parts: [[UInt8]] = children.map { child in
                var part: [UInt8] = []
                append(child.value, to: &part)
                return part
            }
            parts.sort { $0.lexicographicallyPrecedes($1) }
            parts.forEach { bytes += $0 }
        } else {
            for child in children {
                if let label = child.label {
                    bytes.append(UInt8(ascii: "."))
                    bytes += label.utf8
                    bytes.append(UInt8(ascii: "="))
                } else {
                    bytes.append(UInt8(ascii: "_"))
                }
                append(child.value, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: ")"))
    }

    private static func word(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}
