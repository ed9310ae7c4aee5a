import Foundation

/// A problem with one value of an export: where it is and what is wrong.
public struct FieldError: Error, Sendable, Equatable {
    public let path: JSONPath
    public let offset: Int
    public let message: String
    /// A required field is absent: the loader then names every absent field of the record,
    /// at every level (`ExportDecoder.missingFields`), not only this first one.
    package var isMissingField = false
}

/// A value at a known path, with typed accessors that throw `FieldError`s whose messages
/// are written for the person who made the file.
public struct JSONField: Sendable {
    public let node: JSONNode
    public let path: JSONPath

    public init(_ node: JSONNode, path: JSONPath = .root) {
        self.node = node
        self.path = path
    }

    public func error(_ message: String) -> FieldError {
        FieldError(path: path, offset: node.offset, message: message)
    }

    public var isNull: Bool {
        if case .null = node.value { return true }
        return false
    }

    public func string() throws(FieldError) -> String {
        guard case .string(let text) = node.value else { throw error("expected a string, found \(node.kindDescription)") }
        return text
    }

    /// A string that must not be blank (names, titles): spaces, and characters drawn as
    /// nothing (zero-width spaces and joiners, which made an empty-looking title), are blank.
    public func text() throws(FieldError) -> String {
        let text = try string()
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }) {
            throw error("must not be empty")
        }
        return text
    }

    public func double() throws(FieldError) -> Double {
        guard case .number(let value) = node.value else { throw error("expected a number, found \(node.kindDescription)") }
        return value
    }

    public func int() throws(FieldError) -> Int {
        guard case .number(let value) = node.value, let int = Int(exactly: value) else {
            throw error("expected an integer, found \(describeNonInteger())")
        }
        return int
    }

    /// What a value that is not an Int is: a fraction, a whole number beyond Int's range
    /// (1e20 was called "a fraction"), or another kind.
    package func describeNonInteger() -> String {
        guard case .number(let value) = node.value else { return node.kindDescription }
        if value.isFinite, value.rounded() == value { return "\(Self.shortNumber(value)), too large for one" }
        return "a fraction"
    }

    /// 1e+20, 9.223372036854776e+18: as Swift prints a Double, without a trailing ".0".
    static func shortNumber(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    public func bool() throws(FieldError) -> Bool {
        guard case .bool(let value) = node.value else { throw error("expected true or false, found \(node.kindDescription)") }
        return value
    }

    public func uuid() throws(FieldError) -> UUID {
        guard case .string(let text) = node.value, let uuid = UUID(uuidString: text) else {
            throw error("expected a UUID such as \"6F9619FF-8B86-D011-B42D-00CF4FC964FF\", found \(describeValue())")
        }
        return uuid
    }

    public func elements() throws(FieldError) -> [JSONField] {
        guard case .array(let nodes) = node.value else { throw error("expected an array, found \(node.kindDescription)") }
        var fields: [JSONField] = []
        fields.reserveCapacity(nodes.count)
        for (index, element) in nodes.enumerated() {
            fields.append(JSONField(element, path: path.appending(index: index)))
        }
        return fields
    }

    public func array<T>(_ convert: (JSONField) throws(FieldError) -> T) throws(FieldError) -> [T] {
        var values: [T] = []
        for element in try elements() { values.append(try convert(element)) }
        return values
    }

    public func object() throws(FieldError) -> JSONFields {
        guard case .object(let object) = node.value else { throw error("expected an object, found \(node.kindDescription)") }
        return JSONFields(object: object, field: self)
    }

    /// A Data field (CloudKit stores these as bytes): the JSON value itself, or a base64
    /// string whose bytes are that JSON value. Positions inside the decoded bytes are
    /// reported at the string itself.
    public func embeddedJSON() throws(FieldError) -> JSONField {
        guard case .string(let text) = node.value else { return self }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw error("expected JSON or a base64 string holding JSON, found a string that is not base64")
        }
        do {
            let inner = try JSONParser.parse([UInt8](data))
            return JSONField(JSONNode(inner.value.reanchored(at: node.offset), offset: node.offset),
                             path: path.appending(note: "(base64)"))
        } catch {
            throw self.error("base64 content is not valid JSON: \(error.message)")
        }
    }

    package func describeValue() -> String {
        if case .string(let text) = node.value {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\"\(shown)\""
        }
        return node.kindDescription
    }
}

extension JSONNode.Value {
    /// The same value with every offset moved to `offset` (for JSON decoded from base64,
    /// whose own offsets mean nothing in the file).
    package func reanchored(at offset: Int) -> JSONNode.Value {
        switch self {
        case .array(let nodes):
            return .array(nodes.map { JSONNode($0.value.reanchored(at: offset), offset: offset) })
        case .object(let object):
            return .object(JSONObject(members: object.members.map {
                (key: $0.key, value: JSONNode($0.value.value.reanchored(at: offset), offset: offset))
            }))
        default:
            return self
        }
    }
}

/// The members of a JSON object, looked up by key (with the app's alternative key names).
public struct JSONFields: Sendable {
    package let object: JSONObject
    public let field: JSONField
    /// The keys the record may have; a decoder reading a key outside it is a bug (the key
    /// would also be warned about as unknown).
    package var schema: RecordSchema? = nil

    /// The member under the first of `keys` that is present and not null.
    public func optional(_ keys: String...) -> JSONField? {
        optional(keys)
    }

    package func optional(_ keys: [String]) -> JSONField? {
        assert(schema.map { keys.allSatisfy($0.known.contains) } ?? true, "\(keys) is not in the \(schema?.name ?? "") schema")
        for key in keys {
            if let node = object[key] {
                if case .null = node.value { continue }
                return JSONField(node, path: field.path.appending(key))
            }
        }
        return nil
    }

    public func required(_ keys: String...) throws(FieldError) -> JSONField {
        assert(schema.map { keys.allSatisfy($0.known.contains) } ?? true, "\(keys) is not in the \(schema?.name ?? "") schema")
        for key in keys {
            if let node = object[key] {
                if case .null = node.value {
                    throw FieldError(path: field.path.appending(key), offset: node.offset, message: "must not be null")
                }
                return JSONField(node, path: field.path.appending(key))
            }
        }
        let alternatives = keys.dropFirst().map { "\"\($0)\"" }.joined(separator: " or ")
        let also = alternatives.isEmpty ? "" : " (or \(alternatives))"
        throw FieldError(path: field.path.appending(keys[0]), offset: field.node.offset,
                         message: "required field is missing\(also)", isMissingField: true)
    }
}
