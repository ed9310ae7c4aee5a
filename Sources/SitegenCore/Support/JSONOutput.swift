import Foundation

/// JSON we publish (results.json, manifest.json): keys in the order we write them, so
/// files read like the examples in docs/pages.md and are byte-identical on every run.
public indirect enum JSONOutput: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    public static func == (a: JSONOutput, b: JSONOutput) -> Bool { a.serialized() == b.serialized() }

    /// Pretty-printed with two-space indentation and a final newline.
    public func serialized() -> String {
        String(decoding: bytes(), as: UTF8.self)
    }

    /// The serialized UTF-8 bytes (written straight into a buffer: manifest.json of a large
    /// site has hundreds of thousands of strings).
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    package func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let value): out += (value ? "true" : "false").utf8
        case .int(let value): out += String(value).utf8
        case .double(let value): out += (value.isFinite ? "\(value)" : "null").utf8
        case .string(let value): Self.appendString(value, to: &out)
        case .array(let values):
            if values.isEmpty { out += "[]".utf8; return }
            // Arrays of scalars stay on one line ("rankCounts": [2, 2, 0]).
            if values.allSatisfy({ $0.isScalar }) {
                out.append(UInt8(ascii: "["))
                for (index, value) in values.enumerated() {
                    if index > 0 { out += ", ".utf8 }
                    value.write(to: &out, indent: indent)
                }
                out.append(UInt8(ascii: "]"))
                return
            }
            out += "[\n".utf8
            for (index, value) in values.enumerated() {
                Self.writeIndent(indent + 1, to: &out)
                value.write(to: &out, indent: indent + 1)
                out += (index == values.count - 1 ? "\n" : ",\n").utf8
            }
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { out += "{}".utf8; return }
            out += "{\n".utf8
            for (index, (key, value)) in members.enumerated() {
                Self.writeIndent(indent + 1, to: &out)
                Self.appendString(key, to: &out)
                out += ": ".utf8
                value.write(to: &out, indent: indent + 1)
                out += (index == members.count - 1 ? "\n" : ",\n").utf8
            }
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeIndent(_ level: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// A byte `appendString` copies as it is: printable ASCII other than the quote, the
    /// backslash and `<`, `>`, `&` (escaped so JSON can sit in HTML).
    package static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
            && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "&")
    }

    /// `appendString` of a string's UTF-8 bytes, copied in one piece when every byte is
    /// plain, as a path's nearly always are (manifest.json and the build state write
    /// 140,000 of them at 10,000 polls).
    package static func appendString(utf8 bytes: [UInt8], to out: inout [UInt8]) {
        let plain = bytes.withUnsafeBufferPointer { bytes in
            for byte in bytes where !isPlain(byte) { return false }
            return true
        }
        guard plain else { return appendString(String(decoding: bytes, as: UTF8.self), to: &out) }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "\""))
    }

    /// The decimal digits of `value`, as `String(value)` writes them, without making a string.
    package static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: raw[(24 - count)...])
        }
    }

    /// Escapes quotes, backslashes and control characters, and also `<`, `>` and `&`, so
    /// the output is safe even if someone inlines it into HTML; U+2028 and U+2029 too, for
    /// old JavaScript parsers.
    package static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escape: String
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case UInt8(ascii: "<"): escape = "\\u003c"
                case UInt8(ascii: ">"): escape = "\\u003e"
                case UInt8(ascii: "&"): escape = "\\u0026"
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    escape = "\\u00" + String(UnicodeScalar(hex[Int(byte >> 4)])) + String(UnicodeScalar(hex[Int(byte & 15)]))
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                default:
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                out += escape.utf8
                index += length
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
