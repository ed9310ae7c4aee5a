/// What a build changed in the published site, for `sitegen build --changes FILE`: one line
/// per output path, `A` added, `M` changed bytes, `D` removed, in path order, so a deploy
/// step uploads and deletes exactly those (docs/publishing.md). Kept files (`keep:`) are
/// not sitegen's and never listed.
package enum OutputChanges {
    /// `old`: the last build's files (empty for a first build), by their paths' bytes; `new`:
    /// this build's, as OutputList.forEachSorted hands them over. Paths are compared as
    /// bytes, as the file system names them: "café" written with é and with e + U+0301 are
    /// one Swift string but two files, and renaming one to the other is a D and an A.
    package static func lines(old: [[UInt8]: WrittenFile],
                              new: ((String, WrittenFile) throws -> Void) throws -> Void) throws -> [String] {
        var old = old
        var changes: [([UInt8], Character)] = []
        try new { path, file in
            let bytes = Array(path.utf8)
            if let was = old.removeValue(forKey: bytes) {
                if was.hash != file.hash || was.size != file.size { changes.append((bytes, "M")) }
            } else {
                changes.append((bytes, "A"))
            }
        }
        changes += old.keys.map { ($0, "D") }
        return changes.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map { "\($0.1) " + String(decoding: $0.0, as: UTF8.self) }
    }

    package static func lines(old: [String: WrittenFile],
                              new: ((String, WrittenFile) throws -> Void) throws -> Void) throws -> [String] {
        try lines(old: Dictionary(old.map { (Array($0.key.utf8), $0.value) }, uniquingKeysWith: { first, _ in first }), new: new)
    }

    /// The lines of two builds in a row as one build's: `carried` (a killed build's, never
    /// written) then `new`. A path is listed by what it was before the first and is after
    /// the second: added (`A`), changed (`M`) or removed (`D`); added then removed, not at all.
    package static func merged(carried: [String], with new: [String]) -> [String] {
        guard !carried.isEmpty else { return new }
        var statuses: [[UInt8]: (first: Character, last: Character)] = [:]
        for line in carried + new {
            guard let status = line.first else { continue }
            let path = Array(line.utf8.dropFirst(2))
            statuses[path] = (statuses[path]?.first ?? status, status)
        }
        return statuses.compactMap { path, status -> ([UInt8], Character)? in
            let existed = status.first != "A", exists = status.last != "D"
            switch (existed, exists) {
            case (true, true): return (path, "M")
            case (false, true): return (path, "A")
            case (true, false): return (path, "D")
            case (false, false): return nil
            }
        }
        .sorted { $0.0.lexicographicallyPrecedes($1.0) }
        .map { "\($0.1) " + String(decoding: $0.0, as: UTF8.self) }
    }
}
