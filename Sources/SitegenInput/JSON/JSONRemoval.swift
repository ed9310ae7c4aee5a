/// A record with one bad member taken out, so that decoding it again finds the problems
/// after that one (ExportLoader): decoding stops at a record's first error, and a record
/// with three mistakes took three builds to show them all.
extension JSONNode {
    /// This value without the object member that `path` (relative to it) names, or the
    /// member holding it when `path` ends in array indexes (`rankings[2]` takes out
    /// `rankings`). Nil when the path names no member of an object.
    package func removingMember(at path: ArraySlice<JSONPath.Component>) -> (node: JSONNode, removed: Int)? {
        guard let last = path.lastIndex(where: { if case .key = $0 { true } else { false } }),
              case .key(let key) = path[last] else { return nil }
        return replacing(at: path[path.startIndex..<last]) { object in
            guard let position = object.members.firstIndex(where: { $0.key == key }) else { return nil }
            var members = object.members
            members.remove(at: position)
            return JSONObject(members: members)
        }.map { ($0, last - path.startIndex + 1) }
    }

    /// This value with the object at `path` changed by `change`; nil when `path` leads
    /// nowhere or `change` declines.
    private func replacing(at path: ArraySlice<JSONPath.Component>, _ change: (JSONObject) -> JSONObject?) -> JSONNode? {
        guard let step = path.first else {
            guard case .object(let object) = value, let changed = change(object) else { return nil }
            return JSONNode(.object(changed), offset: offset)
        }
        let rest = path.dropFirst()
        switch (step, value) {
        case (.key(let key), .object(let object)):
            guard let position = object.members.firstIndex(where: { $0.key == key }),
                  let inner = object.members[position].value.replacing(at: rest, change) else { return nil }
            var members = object.members
            members[position].value = inner
            return JSONNode(.object(JSONObject(members: members)), offset: offset)
        case (.index(let index), .array(let elements)) where elements.indices.contains(index):
            guard let inner = elements[index].replacing(at: rest, change) else { return nil }
            var copy = elements
            copy[index] = inner
            return JSONNode(.array(copy), offset: offset)
        default:
            // A note (a value decoded from base64) has no member in the file to take out.
            return nil
        }
    }
}

extension JSONPath {
    /// The components after `prefix`, when this path starts with it.
    package func relative(to prefix: JSONPath) -> ArraySlice<Component>? {
        guard components.starts(with: prefix.components) else { return nil }
        return components.dropFirst(prefix.components.count)
    }
}
