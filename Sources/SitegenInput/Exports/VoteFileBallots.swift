import Foundation
import SitegenCore
import SitegenModel

/// One vote file's ballots as a build holds them: grouped by poll, each group with its vote
/// ids and a digest of its ballots, and the ballots themselves either decoded or fetched
/// the first time one of the file's polls is counted.
///
/// A rebuild after one new ballot counts the polls of one poll file; every other poll is
/// kept, and needs of its ballots only whether they changed (the groups' digests) and
/// whether a vote id was read twice (the ids). Decoded, the ballots of the vote files a
/// rebuild takes from the last build were 8 MB of its peak at 10,000 polls and 100,000
/// ballots; as groups and ids they are about 2.5 MB (docs/performance.md).
public final class VoteFileBallots: @unchecked Sendable {
    /// The ballots of one poll in the file: `count` of them from `start` in `numbers` and
    /// `ids`, and the SHA-256 of their bytes (`Ballot.appendBytes`) in record order.
    public struct Group: Sendable, Equatable {
        public let poll: UUID
        public let start: Int32
        public let count: Int32
        public let digest: ContentHash

        public init(poll: UUID, start: Int32, count: Int32, digest: ContentHash) {
            self.poll = poll
            self.start = start
            self.count = count
            self.digest = digest
        }
    }

    public let count: Int
    /// The newest plausible `modifiedAt` among the ballots (Poll.plausibleTimes), else the
    /// newest of any; nil for none.
    public let latest: Date?
    /// In the order each poll first appears in the file.
    public let groups: [Group]
    /// Each group's ballots' numbers in the file (record order) and vote ids, group after group.
    public let numbers: [Int32]
    public let ids: [UUID]

    private let lock = NSLock()
    private var held: [(UUID, Ballot)]?
    /// Fetches a kept file's ballots; nil when it cannot (then `fallback`).
    private let load: (@Sendable () -> [(UUID, Ballot)]?)?
    private var fallback: (@Sendable () -> [(UUID, Ballot)])?

    /// A file just read: its ballots in record order.
    public init(_ ballots: [(UUID, Ballot)]) {
        var order: [UUID] = []
        var members: [UUID: [Int32]] = [:]
        var latest: Date?, latestOfAny: Date?
        for (number, (poll, ballot)) in ballots.enumerated() {
            if members[poll] == nil { order.append(poll) }
            members[poll, default: []].append(Int32(number))
            latestOfAny = max(latestOfAny ?? ballot.modifiedAt, ballot.modifiedAt)
            // A time no app can have saved (warned about when read) dates nothing unless it
            // is all there is: one ballot's 2101 hid every other ballot's date from the site.
            if Poll.plausibleTimes.contains(ballot.modifiedAt) { latest = max(latest ?? ballot.modifiedAt, ballot.modifiedAt) }
        }
        latest = latest ?? latestOfAny
        var groups: [Group] = [], numbers: [Int32] = [], ids: [UUID] = []
        groups.reserveCapacity(order.count)
        numbers.reserveCapacity(ballots.count)
        ids.reserveCapacity(ballots.count)
        var bytes: [UInt8] = []
        for poll in order {
            let list = members[poll]!
            bytes.removeAll(keepingCapacity: true)
            for number in list { ballots[Int(number)].1.appendBytes(to: &bytes) }
            groups.append(Group(poll: poll, start: Int32(numbers.count), count: Int32(list.count), digest: ContentHash(of: bytes)))
            numbers += list
            ids += list.map { ballots[Int($0)].1.id }
        }
        count = ballots.count
        self.latest = latest
        self.groups = groups
        self.numbers = numbers
        self.ids = ids
        held = ballots
        load = nil
    }

    /// A file kept from the last build: its groups and ids as that build found them, and
    /// `load` to fetch its ballots when a poll needs counting. nil when the parts do not fit
    /// together (a damaged cache).
    public init?(count: Int, latest: Date?, groups: [Group], numbers: [Int32], ids: [UUID],
                 load: @escaping @Sendable () -> [(UUID, Ballot)]?) {
        guard numbers.count == count, ids.count == count,
              groups.reduce(0, { $0 + Int($1.count) }) == count,
              groups.allSatisfy({ $0.start >= 0 && $0.count > 0 && Int($0.start) + Int($0.count) <= count }),
              numbers.allSatisfy({ $0 >= 0 && Int($0) < count }) else { return nil }
        self.count = count
        self.latest = latest
        self.groups = groups
        self.numbers = numbers
        self.ids = ids
        self.load = load
    }

    /// Where a kept file's ballots come from when `load` cannot give them all (the export
    /// file itself, read again).
    public func fallBack(to read: @escaping @Sendable () -> [(UUID, Ballot)]) {
        lock.withLock { fallback = read }
    }

    /// The ballots with their polls' ids, in record order: fetched once, then held. Kept
    /// ballots must give back the groups they were kept with (polls, ids and digests), or
    /// the file is read again: a flipped bit in the cache would otherwise count a wrong
    /// ballot without a word.
    public var ballots: [(UUID, Ballot)] {
        lock.withLock {
            if let held { return held }
            var loaded = load?()
            if let ballots = loaded, !matchesGroups(ballots) { loaded = nil }
            if loaded == nil, let fallback { loaded = fallback() }
            held = loaded ?? []
            return held!
        }
    }

    /// Whether `ballots` are the ones the groups describe.
    private func matchesGroups(_ ballots: [(UUID, Ballot)]) -> Bool {
        guard ballots.count == count else { return false }
        var bytes: [UInt8] = []
        for group in groups {
            bytes.removeAll(keepingCapacity: true)
            for at in Int(group.start)..<Int(group.start + group.count) {
                let (poll, ballot) = ballots[Int(numbers[at])]
                guard poll == group.poll, ballot.id == ids[at] else { return false }
                ballot.appendBytes(to: &bytes)
            }
            guard ContentHash(of: bytes) == group.digest else { return false }
        }
        return true
    }

    /// The ballots of the group numbered `group`, in record order.
    func ballots(of group: Int) -> [Ballot] {
        let all = ballots
        let group = groups[group]
        return numbers[Int(group.start)..<Int(group.start + group.count)].compactMap { number in
            Int(number) < all.count ? all[Int(number)].1 : nil
        }
    }
}
