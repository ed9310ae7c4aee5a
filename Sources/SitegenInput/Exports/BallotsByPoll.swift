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
}
