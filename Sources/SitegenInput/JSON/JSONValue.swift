/// A parsed JSON value that remembers where it came from, so that every problem found
/// later (a wrong type, a bad share code) can be reported at its line and column.
/// Foundation's JSONDecoder on Linux reports neither, hence our own small parser.
public struct JSONNode: Sendable {
    public indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object(JSONObject)
    }

    public let value: Value
    /// Byte offset of the value's first character in the source.
    public let offset: Int

    public init(_ value: Value, offset: Int) {
        self.value = value
        self.offset = offset
    }

    /// How a value is named in messages ("a string", "null", …).
    public var kindDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Object members by key, in document order. Keys are unique: the parser rejects duplicates.
///
/// Export objects have a dozen keys or so: a list searched in order is cheaper to build and
/// to query than a dictionary (hashing every key of every object was a tenth of reading a
/// large export). Objects with many members also get a dictionary index.
public struct JSONObject: Sendable {
    public let members: [(key: String, value: JSONNode)]
    private let index: [String: Int]?

    package static let indexThreshold = 24

    public init(members: [(key: String, value: JSONNode)]) {
        self.members = members
        if members.count > Self.indexThreshold {
            var index: [String: Int] = [:]
            for (position, member) in members.enumerated() where index[member.key] == nil { index[member.key] = position }
            self.index = index
        } else {
            index = nil
        }
    }

    public subscript(key: String) -> JSONNode? {
        if let index { return index[key].map { members[$0].value } }
        for member in members where member.key == key { return member.value }
        return nil
    }
}

/// Where a value sits in a document, e.g. `[2].tripSnapshots[0].name`.
public struct JSONPath: Sendable, CustomStringConvertible, Equatable {
    package enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
        case note(String)   // e.g. "(base64)" when a Data field was decoded
    }

    package var components: [Component] = []

    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    public func appending(index: Int) -> JSONPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    package func appending(note: String) -> JSONPath {
        var copy = self
        copy.components.append(.note(note))
        return copy
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            case .note(let note):
                text += note
            }
        }
        return text
    }
}
