import SitegenCore

/// The last build's files by path (their keys), held for a rebuild to look up what it keeps
/// or writes again: 140,000 lookups at 10,000 polls.
///
/// An array of entries in the state's order, and an open-addressing table of their indices
/// placed by the key's bits, which the process's random seed spread (PathKey: paths chosen
/// to collide cannot make lookups slow, as in a Dictionary). 64 bytes an entry
/// plus 6 to 13 for the table, where a dictionary takes about 120 (it keeps a quarter to a
/// half of its buckets empty, each as wide as an entry); a lookup touches one or two cache
/// lines, where a binary search of the sorted entries touched seventeen (issue #16).
package struct RecordedFiles: Sendable {
    package typealias Entry = (key: PathKey, file: WrittenFile)

    /// The entries as they were read, a part per core (BuildState.outputIndex): joined into
    /// one array they were held twice while joining, 9 MB more at 10,000 polls.
    private var parts: [[Entry]]
    /// Where each part starts in the numbering of all entries.
    private var starts: [Int]
    /// Indices into the entries, -1 for an empty slot; a power of two, at most five eighths
    /// full (at half, 143,810 files took 2^19 slots, 2 MB; at five eighths 2^18 do, and a
    /// lookup of a recorded file probes about 1.6 slots on average instead of 1.2).
    private var slots: [Int32]

    package static let none = RecordedFiles(entries: [])

    /// `entries` in any order, each path once (the state lists each once; a repeated key
    /// finds its first entry).
    package init(entries: [Entry]) {
        self.init(parts: [entries])
    }

    /// The same in parts, numbered one after the other.
    package init(parts: [[Entry]]) {
        self.parts = parts
        starts = []
        var count = 0
        for part in parts {
            starts.append(count)
            count += part.count
        }
        var size = 1
        while size * 5 < 8 * count { size *= 2 }
        slots = Array(repeating: -1, count: size)
        let mask = size - 1
        for (partIndex, part) in parts.enumerated() {
            for (index, entry) in part.enumerated() {
                var slot = Self.slot(entry.key, mask)
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(starts[partIndex] + index)
            }
        }
    }

    /// The entry numbered `index` across the parts.
    private func entry(_ index: Int) -> Entry {
        var part = parts.count - 1
        while starts[part] > index { part -= 1 }
        return parts[part][index - starts[part]]
    }

    private static func slot(_ key: PathKey, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: key.spread) & mask
    }

    package var count: Int { (starts.last ?? 0) + (parts.last?.count ?? 0) }
    package var isEmpty: Bool { count == 0 }

    package subscript(key: PathKey) -> WrittenFile? {
        let mask = slots.count - 1
        var slot = Self.slot(key, mask)
        while case let index = Int(slots[slot]), index >= 0 {
            let entry = entry(index)
            if entry.key == key { return entry.file }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
