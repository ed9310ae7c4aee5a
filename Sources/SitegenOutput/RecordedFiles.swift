import SitegenCore

/// The last build's files by path (their keys), held for a rebuild to look up what it keeps
/// or writes again. A sorted array rather than a dictionary: 64 bytes a file instead of
/// about 120 (a dictionary keeps a quarter to a half of its buckets empty), 9 MB instead of
/// 17 MB at 140,000 files, which is most of what a rebuild holds (issue #16).
package struct RecordedFiles: Sendable {
    private var entries: [(key: DigestKey, file: WrittenFile)]
    /// Each entry's key's first eight bytes, packed, searched instead of the entries: 1.1 MB
    /// where the entries take 9 MB, so a lookup's first steps stay in the cache.
    private var leads: [UInt64]

    package static let none = RecordedFiles(entries: [])

    /// `entries` in any order, each path once (the state lists each once), sorted in place.
    package init(sorting entries: [(key: DigestKey, file: WrittenFile)]) {
        var entries = entries
        entries.sort { $0.key < $1.key }
        self.init(entries: entries)
    }

    private init(entries: [(key: DigestKey, file: WrittenFile)]) {
        self.entries = entries
        leads = entries.map(\.key.lead)
    }

    package var count: Int { entries.count }
    package var isEmpty: Bool { entries.isEmpty }

    package subscript(key: DigestKey) -> WrittenFile? {
        let lead = key.lead
        var low = 0, high = leads.count
        while low < high {
            let middle = (low + high) / 2
            if leads[middle] < lead { low = middle + 1 } else { high = middle }
        }
        while low < leads.count && leads[low] == lead {
            if entries[low].key == key { return entries[low].file }
            low += 1
        }
        return nil
    }
}
