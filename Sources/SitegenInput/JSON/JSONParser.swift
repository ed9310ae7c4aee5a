/// A strict RFC 8259 parser with limits, producing `JSONNode`s that carry byte offsets.
///
/// Stricter than JSONDecoder where leniency would hide corrupt exports: no trailing
/// commas, no duplicate keys, no NUL characters; bounded nesting depth.
public struct JSONParser {
    public struct Failure: Error, Equatable, Sendable {
        public let offset: Int
        public let message: String
    }

    public static let defaultMaxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private let maxDepth: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses a whole document (a UTF-8 BOM is allowed and skipped).
    public static func parse(_ data: [UInt8], maxDepth: Int = defaultMaxDepth) throws(Failure) -> JSONNode {
        if let encoding = wideEncoding(data) {
            throw Failure(offset: 0, message: "the file is \(encoding), not UTF-8: save it as UTF-8")
        }
        if let bad = firstInvalidUTF8(data) {
            throw Failure(offset: bad, message: "the file is not valid UTF-8")
        }
        return try data.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONNode in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                parser.index = 3
            }
            parser.skipWhitespace()
            guard parser.index < buffer.count else {
                throw Failure(offset: parser.index, message: "the file is empty; expected a JSON object or array")
            }
            let node = try parser.parseValue()
            parser.skipWhitespace()
            if parser.index < buffer.count {
                throw Failure(offset: parser.index, message: "unexpected text after the end of the JSON value")
            }
            return node
        }
    }

    /// UTF-16 or UTF-32 (Windows tools save "Unicode" text so), told by its byte order mark
    /// or by a zero byte beside the first character: JSON text never holds a zero byte.
    static func wideEncoding(_ data: [UInt8]) -> String? {
        if data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32" }
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        guard data.count >= 2 else { return nil }
        if data.count >= 4, data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] != 0 { return "UTF-32" }
        if data.count >= 4, data[0] != 0 && data[1] == 0 && data[2] == 0 && data[3] == 0 { return "UTF-32" }
        if (data[0] == 0) != (data[1] == 0) { return "UTF-16" }
        return nil
    }

    // MARK: - Values

    private mutating func parseValue() throws(Failure) -> JSONNode {
        guard index < bytes.count else { throw fail("unexpected end of file; expected a value") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), offset: start)
        default:
            throw fail("unexpected character \(describe(bytes[index])); expected a value")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONNode {
        let start = index
        try enterNesting()
        index += 1  // {
        var members: [(key: String, value: JSONNode)] = []
        var keys = Set<String>()   // duplicate check for large objects only
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONNode(.object(JSONObject(members: members)), offset: start)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a quoted key") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            let duplicate: Bool
            if members.count < JSONObject.indexThreshold {
                duplicate = members.contains { $0.key == key }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.key)) }
                duplicate = !keys.insert(key).inserted
            }
            if duplicate {
                throw Failure(offset: keyOffset, message: "duplicate key \"\(key)\"")
            }
            members.append((key: key, value: value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { throw fail("trailing comma before '}'") }
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return JSONNode(.object(JSONObject(members: members)), offset: start)
            default:
                throw fail("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONNode {
        let start = index
        try enterNesting()
        index += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(.array(elements), offset: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { throw fail("trailing comma before ']'") }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return JSONNode(.array(elements), offset: start)
            default:
                throw fail("expected ',' or ']' in array")
            }
        }
    }

    private mutating func enterNesting() throws(Failure) {
        depth += 1
        if depth > maxDepth {
            throw fail("nesting is deeper than \(maxDepth) levels")
        }
    }

    // MARK: - Scalars

    private mutating func parseString() throws(Failure) -> String {
        let start = index
        index += 1  // opening quote
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2 { break }   // escapes, DEL, maybe C1
            if byte < 0x20 { throw controlCharacterFailure(byte) }
            index += 1
        }
        // Slow path: escapes.
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    // Control characters are invalid in HTML and can rewrite terminals: dropped.
                    if Self.isDroppedControl(scalar.value) { continue }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 1
                    throw fail("invalid escape '\\\(describeRaw(escape))' in string")
                }
            case 0x7F:
                index += 1   // DEL: dropped
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                index += 2   // a C1 control character: dropped
            default:
                if byte < 0x20 { throw controlCharacterFailure(byte) }
                scalars.append(byte)
                index += 1
            }
        }
        throw Failure(offset: start, message: "unterminated string")
    }

    private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let escapeStart = index - 2
        let high = try parseHex4()
        var value = UInt32(high)
        if (0xD800...0xDBFF).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw Failure(offset: escapeStart, message: "unpaired surrogate in \\u escape")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw Failure(offset: escapeStart, message: "unpaired surrogate in \\u escape")
            }
            value = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(high) {
            throw Failure(offset: escapeStart, message: "unpaired surrogate in \\u escape")
        }
        if value == 0 {
            throw Failure(offset: escapeStart, message: "NUL character (\\u0000) in string")
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw Failure(offset: escapeStart, message: "invalid \\u escape")
        }
        return scalar
    }

    private mutating func parseHex4() throws(Failure) -> UInt16 {
        guard index + 4 <= bytes.count else { throw fail("incomplete \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt16
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(Failure) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw fail("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw fail("numbers may not have leading zeros") }
        } else {
            while let digit = peek(), isDigit(digit) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw fail("expected digits after '.'") }
            while let digit = peek(), isDigit(digit) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw fail("expected digits in exponent") }
            while let digit = peek(), isDigit(digit) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            // Quoted short: a 500,000-digit number made a 500 KB line.
            let shown = text.count <= 40 ? text : String(text.prefix(20)) + "… (\(text.count) characters)"
            throw Failure(offset: start, message: "number \(shown) is out of range")
        }
        return value
    }

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of file") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw fail("unexpected character \(describe(bytes[index])); expected a value")
        }
        index += count
    }

    // MARK: - Helpers

    /// C0 and C1 control characters other than tab, line feed and carriage return.
    package static func isDroppedControl(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private func fail(_ message: String) -> Failure {
        Failure(offset: index, message: index >= bytes.count && !message.hasPrefix("unexpected end")
                ? "unexpected end of file; \(message)" : message)
    }

    private func controlCharacterFailure(_ byte: UInt8) -> Failure {
        byte == 0 ? fail("NUL byte in string") : fail("unescaped control character in string")
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(describeRaw(byte))'" : String(format: "0x%02X", byte)
    }

    private func describeRaw(_ byte: UInt8) -> String { String(UnicodeScalar(byte)) }

    /// Offset of the first byte that breaks UTF-8, or nil when the data is valid.
    package static func firstInvalidUTF8(_ data: [UInt8]) -> Int? {
        if String(validating: data, as: UTF8.self) != nil { return nil }
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}

import Foundation  // String(format:)
