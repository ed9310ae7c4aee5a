import Foundation
import SitegenModel

/// Every ballot of the vote files, held once: each file's ballots in record order, as it
/// was read, and for each poll where its ballots are in those lists.
///
/// A rebuild takes an unchanged vote file's ballots from the last build's cache and hands
/// the same list to the next build's (PollFileCache): copying every ballot into a list per
/// poll as well held them twice, 10 MB at 10,000 polls and 100,000 ballots. A poll's
/// ballots are gathered only when it is counted, and most polls of a rebuild are not.
public struct BallotsByPoll: Sendable {
    /// Each vote file's ballots with their polls' ids, in the order the files were added.
    public private(set) var files: [[(UUID, Ballot)]] = []
    /// Where each file's ballots start in the numbering of all ballots.
    private var fileStarts: [Int] = []
    /// Per poll, its first and last ballot by number; each ballot links to the next ballot
    /// of its poll (`next`, -1 after the last). An array per poll, as before, was 10,000
    /// small allocations at 10,000 polls.
    private var ends: [UUID: (first: Int32, last: Int32)] = [:]
    private var next: [Int32] = []
    public private(set) var count = 0

    public init() {}

    /// Adds the next vote file's ballots.
    public mutating func add(file ballots: [(UUID, Ballot)]) {
        fileStarts.append(count)
        files.append(ballots)
        next.reserveCapacity(count + ballots.count)
        for (poll, _) in ballots {
            let number = Int32(count)
            next.append(-1)
            // One lookup a ballot: the poll's entry is changed where it is.
            let last = Self.extend(&ends[poll, default: (-1, -1)], to: number)
            if last >= 0 { next[Int(last)] = number }
            count += 1
        }
    }

    /// Makes `number` a poll's last ballot; returns the last before it (-1 for none).
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

    /// Calls `body` with each ballot cast for `poll`, in the same order, gathering none.
    public func forEach(of poll: UUID, _ body: (Ballot) -> Void) {
        guard let (first, _) = ends[poll] else { return }
        var number = Int(first), file = 0
        while number >= 0 {
            // Numbers only grow along a poll's chain, so its file is found by walking on.
            while file + 1 < fileStarts.count, fileStarts[file + 1] <= number { file += 1 }
            body(files[file][number - fileStarts[file]].1)
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
            // A poll's ballots are few; its chain visits them in file order.
            var numbers: [Int] = []
            var number = Int(ends[poll]!.first)
            while number >= 0 { numbers.append(number); number = Int(next[number]) }
            guard numbers.count > 1 else { continue }
            seen.removeAll(keepingCapacity: true)
            for number in numbers {
                let id = ballot(number).id
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

    private func ballot(_ number: Int) -> Ballot {
        let index = file(of: number)
        return files[index][number - fileStarts[index]].1
    }
}
