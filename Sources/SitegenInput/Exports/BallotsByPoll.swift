import Foundation
import SitegenCore
import SitegenModel

/// Every ballot of the vote files, held once: each file's ballots (VoteFileBallots), and for
/// each poll which files hold some of its ballots.
///
/// A rebuild takes an unchanged vote file's ballots from the last build's cache and hands
/// the same file to the next build's (PollFileCache): copying every ballot into a list per
/// poll as well held them twice, 10 MB at 10,000 polls and 100,000 ballots. A poll's
/// ballots are gathered only when it is counted, and most polls of a rebuild are not.
public struct BallotsByPoll: Sendable {
    /// Each vote file's ballots, in the order the files were added.
    public private(set) var files: [VoteFileBallots] = []
    /// Where each file's ballots start in the numbering of all ballots.
    private var fileStarts: [Int] = []
    /// Every file's groups (VoteFileBallots.Group), numbered one file after the other: per
    /// poll, its first and last group, and each group links to the next of its poll (`next`,
    /// -1 after the last). An array per poll was 10,000 small allocations at 10,000 polls.
    private var groupFiles: [Int32] = []
    private var groupIndices: [Int32] = []
    private var ends: [UUID: (first: Int32, last: Int32)] = [:]
    private var next: [Int32] = []
    public private(set) var count = 0

    public init() {}

    /// Adds the next vote file's ballots.
    public mutating func add(file ballots: VoteFileBallots) {
        let fileNumber = Int32(files.count)
        fileStarts.append(count)
        files.append(ballots)
        for (index, group) in ballots.groups.enumerated() {
            let number = Int32(next.count)
            groupFiles.append(fileNumber)
            groupIndices.append(Int32(index))
            next.append(-1)
            // One lookup a group: the poll's entry is changed where it is.
            let last = Self.extend(&ends[group.poll, default: (-1, -1)], to: number)
            if last >= 0 { next[Int(last)] = number }
        }
        count += ballots.count
    }

    /// Adds a file read just now, its ballots in record order.
    public mutating func add(file ballots: [(UUID, Ballot)]) {
        add(file: VoteFileBallots(ballots))
    }

    /// Makes `number` a poll's last group; returns the last before it (-1 for none).
    private static func extend(_ end: inout (first: Int32, last: Int32), to number: Int32) -> Int32 {
        let last = end.last
        end = (last < 0 ? number : end.first, number)
        return last
    }

    /// The ballots cast for `poll`, in file order, then record order.
    public subscript(poll: UUID) -> [Ballot] {
        var ballots: [Ballot] = []
        forEach(of: poll) { ballots.append($0) }
        return ballots
    }

    /// Calls `body` with each ballot cast for `poll`, in the same order. A file kept from
    /// the last build fetches its ballots here, the first time one of its polls is counted.
    public func forEach(of poll: UUID, _ body: (Ballot) -> Void) {
        forEachGroup(of: poll) { file, group in files[file].ballots(of: group).forEach(body) }
    }

    /// The digests of `poll`'s ballots, one for each file that holds some, in file order:
    /// they change when its ballots do, and need none of them fetched.
    public func forEachDigest(of poll: UUID, _ body: (ContentHash) -> Void) {
        forEachGroup(of: poll) { file, group in body(files[file].groups[group].digest) }
    }

    private func forEachGroup(of poll: UUID, _ body: (_ file: Int, _ group: Int) -> Void) {
        guard let (first, _) = ends[poll] else { return }
        var number = Int(first)
        while number >= 0 {
            body(Int(groupFiles[number]), Int(groupIndices[number]))
            number = Int(next[number])
        }
    }

    /// The polls that ballots were cast for.
    public var pollIds: Set<UUID> { Set(ends.keys) }

    /// Vote ids read more than once for the same poll, by the pair of files (indexes into
    /// the files added) that hold the first copy and the copy read again: the ids in the
    /// order of the second file. The same file twice when one file repeats an id.
    public func repeatedIds() -> [(first: Int, again: Int, ids: [UUID])] {
        var pairs: [Pair: [(number: Int, id: UUID)]] = [:]
        var seen: [UUID: Int] = [:]
        for (poll, _) in ends {
            // Each ballot of the poll by its number across all files, in file order, then
            // record order.
            var ballots: [(number: Int, id: UUID)] = []
            forEachGroup(of: poll) { file, group in
                let ballotsOfFile = files[file], group = ballotsOfFile.groups[group]
                for at in Int(group.start)..<Int(group.start + group.count) {
                    ballots.append((fileStarts[file] + Int(ballotsOfFile.numbers[at]), ballotsOfFile.ids[at]))
                }
            }
            guard ballots.count > 1 else { continue }
            seen.removeAll(keepingCapacity: true)
            for (number, id) in ballots {
                if let earlier = seen[id] {
                    pairs[Pair(first: file(of: earlier), again: file(of: number)), default: []].append((number, id))
                } else {
                    seen[id] = number
                }
            }
        }
        return pairs.sorted { ($0.key.again, $0.key.first) < ($1.key.again, $1.key.first) }
            .map { (first: $0.key.first, again: $0.key.again, ids: $0.value.sorted { $0.number < $1.number }.map(\.id)) }
    }

    private struct Pair: Hashable { var first: Int, again: Int }

    private func file(of number: Int) -> Int {
        // The last file starting at or before `number`.
        var low = 0, high = fileStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if fileStarts[middle] <= number { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
