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

    private static func append(_ value: Any, to bytes: inout [UInt8]) {
        switch value {
        case let string as String:
            bytes.append(UInt8(ascii: "s"))
            bytes += "\(string.utf8.count):".utf8
            bytes += string.utf8
            return
        case let date as Date:
            bytes += "d\(date.timeIntervalSinceReferenceDate.bitPattern);".utf8
            return
        case is SourceRef:
            // Where a record was read: for diagnostics only, never on a page, so a poll that
            // moves within or between files keeps its digest.
            return
        case let uuid as UUID:
            bytes += "u\(uuid.uuidString);".utf8
            return
        default:
            break
        }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty {
            // A leaf: numbers, Booleans, enum cases without payload. Doubles print exactly.
            let text = String(reflecting: value)
            bytes += "l\(text.utf8.count):".utf8
            bytes += text.utf8
            return
        }
        bytes += "(\(mirror.children.count)".utf8
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set {
            // Dictionaries and sets iterate in no fixed order: sort the children's digests.
            var parts: [[UInt8]] = mirror.children.map { child in
                var part: [UInt8] = []
                append(child.value, to: &part)
                return part
            }
            parts.sort { $0.lexicographicallyPrecedes($1) }
            parts.forEach { bytes += $0 }
        } else {
            for child in mirror.children {
                bytes += (child.label ?? "_").utf8
                bytes.append(UInt8(ascii: "="))
                append(child.value, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: ")"))
    }
}
