/// What a build changed in the published site, for `sitegen build --changes FILE`: one line
/// per output path, `A` added, `M` changed bytes, `D` removed, in path order, so a deploy
/// step uploads and deletes exactly those (docs/publishing.md). Kept files (`keep:`) are
/// not sitegen's and never listed.
package enum OutputChanges {
    /// `old`: the last build's files (empty for a first build); `new`: this build's, as
    /// OutputList.forEachSorted hands them over.
    package static func lines(old: [String: WrittenFile],
                              new: ((String, WrittenFile) throws -> Void) throws -> Void) throws -> [String] {
        var old = old
        var changes: [(String, Character)] = []
        try new { path, file in
            if let was = old.removeValue(forKey: path) {
                if was.hash != file.hash || was.size != file.size { changes.append((path, "M")) }
            } else {
                changes.append((path, "A"))
            }
        }
        changes += old.keys.map { ($0, "D") }
        return changes.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }.map { "\($0.1) \($0.0)" }
    }
}
