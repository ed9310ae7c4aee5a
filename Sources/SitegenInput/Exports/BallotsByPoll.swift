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
    /// Per poll, its ballots' places in `files`, in file order, then record order.
    private var places: [UUID: [Place]] = [:]
    public private(set) var count = 0

    private struct Place: Sendable {
        let file: UInt32
        let index: UInt32
    }

    public init() {}

    /// Adds the next vote file's ballots.
    public mutating func add(file ballots: [(UUID, Ballot)]) {
        let file = UInt32(files.count)
        files.append(ballots)
        for (index, (poll, _)) in ballots.enumerated() {
            places[poll, default: []].append(Place(file: file, index: UInt32(index)))
        }
        count += ballots.count
    }

    /// The ballots cast for `poll`, in file order, then record order.
    public subscript(poll: UUID) -> [Ballot] {
        places[poll]?.map { files[Int($0.file)][Int($0.index)].1 } ?? []
    }

    /// Calls `body` with each ballot cast for `poll`, in the same order, gathering none.
    public func forEach(of poll: UUID, _ body: (Ballot) -> Void) {
        for place in places[poll] ?? [] { body(files[Int(place.file)][Int(place.index)].1) }
    }

    /// The polls that ballots were cast for.
    public var pollIds: Set<UUID> { Set(places.keys) }
}
