import Foundation

/// JSON we publish (results.json, manifest.json): keys in the order we write them, so
/// files read like the SPEC's examples and are byte-identical on every run.
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
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let values):
            if values.isEmpty { out += "[]"; return }
            // Arrays of scalars stay on one line ("rankCounts": [2, 2, 0]).
            if values.allSatisfy({ $0.isScalar }) {
                out += "["
                for (index, value) in values.enumerated() {
                    if index > 0 { out += ", " }
                    value.write(to: &out, indent: indent)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (index, value) in values.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                value.write(to: &out, indent: indent + 1)
                out += index == values.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                Self.writeString(key, to: &out)
                out += ": "
                value.write(to: &out, indent: indent + 1)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// Escapes quotes, backslashes and control characters, and also `<`, `>` and `&`, so
    /// the output is safe even if someone inlines it into HTML.
    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
