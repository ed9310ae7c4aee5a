import Foundation
import SitegenCore

/// What happened to the ballots a poll received (docs/rules.md, "Ballots").
public struct BallotCounts: Sendable, Encodable, Equatable {
    public var received: Int
    public var counted: Int
    public var invalid: Int
    public var superseded: Int

    public init(received: Int, counted: Int, invalid: Int, superseded: Int) {
        self.received = received
        self.counted = counted
        self.invalid = invalid
        self.superseded = superseded
    }
}

/// One trip's line in the results, in display order.
public struct TripStanding: Sendable, Encodable, Equatable {
    /// 0-based index of the trip in the poll.
    public var trip: Int
    public var points: Int
    /// Competition rank on points: 10, 9, 9, 5 → 1, 2, 2, 4.
    public var rank: Int
    /// Another trip has the same points.
    public var tied: Bool
    /// points ÷ top points; 0 when nobody voted.
    public var share: Double
    /// Ballots placing this trip at each position (index 0 = first place).
    public var rankCounts: [Int]
}

/// Rank distribution and pairwise winner; published only from enough ballots.
public struct ResultsBreakdown: Sendable, Encodable, Equatable {
    /// 0-based index of the trip that beats every other trip on a majority of ballots.
    public var headToHeadWinner: Int?
}

public struct PollResults: Sendable, Encodable, Equatable {
    public var ballots: BallotCounts
    public var standings: [TripStanding]
    /// nil below `minBallotsForBreakdown` counted ballots (privacy).
    public var breakdown: ResultsBreakdown?
    /// Latest modifiedAt of the poll and its counted ballots.
    public var updatedAt: Date

    /// People whose ballot counts.
    public var voters: Int { ballots.counted }

    /// Trips sharing first place (one trip when there is a clear winner; empty when nobody voted).
    public var leaders: [TripStanding] {
        guard ballots.counted > 0 else { return [] }
        return standings.filter { $0.rank == 1 }
    }
}

/// A vote as the count needs it. A build holds every ballot of the site until its poll is
/// counted (votes are exported apart from polls, in no order), so this leaves out what a
/// Vote carries for diagnostics (its source, its poll's id) and needs no heap of its own:
/// the voter id is kept as a key and the rankings packed into one word (issue #8).
public struct Ballot: Sendable, Equatable {
    public let id: UUID
    /// The voter, by key: only compared, never shown.
    package let voter: DigestKey
    package let packedRankings: PackedRankings
    public let votedAt: Date
    public let modifiedAt: Date

    public init(_ vote: Vote) {
        id = vote.id
        voter = DigestKey(vote.voterId)
        packedRankings = PackedRankings(vote.rankings)
        votedAt = vote.votedAt
        modifiedAt = vote.modifiedAt
    }

    public var rankings: [Int] { packedRankings.values }

    /// The ballot `appendBytes(to:)` wrote at `offset`, which moves past it; nil when the
    /// bytes end early.
    package init?(reading bytes: [UInt8], at offset: inout Int) {
        func word() -> UInt64? {
            guard offset + 8 <= bytes.count else { return nil }
            defer { offset += 8 }
            return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        }
        guard offset + 16 <= bytes.count else { return nil }
        id = bytes.withUnsafeBytes { raw in UUID(uuid: raw.loadUnaligned(fromByteOffset: offset, as: uuid_t.self)) }
        offset += 16
        guard let voter = DigestKey(reading: bytes, at: &offset), offset < bytes.count else { return nil }
        self.voter = voter
        let tag = bytes[offset]
        offset += 1
        if tag == 0xFF {
            guard let count = word(), count <= 1 << 20 else { return nil }
            var list: [Int] = []
            for _ in 0..<count {
                guard let rank = word() else { return nil }
                list.append(Int(bitPattern: UInt(rank)))
            }
            packedRankings = .list(list)
        } else {
            guard let packed = word() else { return nil }
            packedRankings = .packed(packed, count: tag)
        }
        guard let voted = word(), let modified = word() else { return nil }
        votedAt = Date(timeIntervalSinceReferenceDate: Double(bitPattern: voted))
        modifiedAt = Date(timeIntervalSinceReferenceDate: Double(bitPattern: modified))
    }

    /// Orders two copies of one vote that are equally new by everything they hold.
    package func sortsAfter(_ other: Ballot) -> Bool {
        var mine: [UInt8] = [], theirs: [UInt8] = []
        appendBytes(to: &mine)
        other.appendBytes(to: &theirs)
        return theirs.lexicographicallyPrecedes(mine)
    }

    /// Everything the ballot holds, as bytes: to hash (a poll's ballots are unchanged when
    /// these are) and to keep from one build to the next (`init(reading:at:)`, PollFileCache).
    package func appendBytes(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: id.uuid) { bytes += $0 }
        voter.append(to: &bytes)
        switch packedRankings {
        case .packed(let word, let count):
            bytes.append(count)
            withUnsafeBytes(of: word) { bytes += $0 }
        case .list(let list):
            bytes.append(0xFF)
            withUnsafeBytes(of: list.count) { bytes += $0 }
            for rank in list { withUnsafeBytes(of: rank) { bytes += $0 } }
        }
        withUnsafeBytes(of: (votedAt.timeIntervalSinceReferenceDate.bitPattern, modifiedAt.timeIntervalSinceReferenceDate.bitPattern)) { bytes += $0 }
    }
}

/// A ballot's rankings: up to 16 trip indices of 0–15, 4 bits each in one word (every
/// real poll), else the list as exported.
package enum PackedRankings: Sendable, Equatable {
    case packed(UInt64, count: UInt8)
    case list([Int])

    package init(_ rankings: [Int]) {
        guard rankings.count <= 16, rankings.allSatisfy({ (0..<16).contains($0) }) else {
            self = .list(rankings)
            return
        }
        var word: UInt64 = 0
        for (position, trip) in rankings.enumerated() {
            word |= UInt64(trip) << (4 * position)
        }
        self = .packed(word, count: UInt8(rankings.count))
    }

    package var values: [Int] {
        switch self {
        case .packed(let word, let count):
            return (0..<Int(count)).map { Int(word >> (4 * $0) & 0xF) }
        case .list(let rankings):
            return rankings
        }
    }
}

/// Borda count over a poll's ballots: pure, no I/O.
public enum BordaTally {
    /// Keeps each voter's latest ballot (latest modifiedAt, then votedAt, then greatest id);
    /// the rest are superseded.
    public static func latestBallots(_ ballots: [Ballot]) -> (kept: [Ballot], superseded: Int) {
        var latest: [DigestKey: Ballot] = [:]
        for ballot in ballots {
            if let current = latest[ballot.voter], !isNewer(ballot, than: current) { continue }
            latest[ballot.voter] = ballot
        }
        let kept = latest.values.sorted { $0.id.uuidString < $1.id.uuidString }
        return (kept, ballots.count - kept.count)
    }

    package static func isNewer(_ a: Ballot, than b: Ballot) -> Bool {
        if a.modifiedAt != b.modifiedAt { return a.modifiedAt > b.modifiedAt }
        if a.votedAt != b.votedAt { return a.votedAt > b.votedAt }
        return a.id.uuidString > b.id.uuidString
    }

    /// A ballot counts only when it ranks every one of the poll's trips exactly once.
    public static func isComplete(_ rankings: [Int], tripCount: Int) -> Bool {
        rankings.count == tripCount && Set(rankings) == Set(0..<tripCount)
    }

    public static func tally(poll: Poll, votes: [Vote], minBallotsForBreakdown: Int) -> PollResults {
        tally(poll: poll, ballots: votes.map(Ballot.init), minBallotsForBreakdown: minBallotsForBreakdown)
    }

    /// Each ballot once: a vote id read more than once (an old JSON export kept beside a
    /// newer CloudKit dump, where the record was edited in place) is one ballot, in its
    /// newest version, not a voter's second ballot. Two copies equally new but different
    /// are told apart by their contents, so which file sorts first never decides.
    public static func distinctBallots(_ ballots: [Ballot]) -> [Ballot] {
        var byId: [UUID: Int] = [:]
        var distinct: [Ballot] = []
        distinct.reserveCapacity(ballots.count)
        for ballot in ballots {
            if let index = byId[ballot.id] {
                let kept = distinct[index]
                if isNewer(ballot, than: kept) || (!isNewer(kept, than: ballot) && ballot.sortsAfter(kept)) {
                    distinct[index] = ballot
                }
            } else {
                byId[ballot.id] = distinct.count
                distinct.append(ballot)
            }
        }
        return distinct
    }

    public static func tally(poll: Poll, ballots all: [Ballot], minBallotsForBreakdown: Int) -> PollResults {
        let tripCount = poll.trips.count
        let received = distinctBallots(all)
        let (kept, superseded) = latestBallots(received)
        let counted = kept.filter { isComplete($0.rankings, tripCount: tripCount) }
        let ballots = counted.map(\.rankings)

        var points = Array(repeating: 0, count: tripCount)
        var rankCounts = Array(repeating: Array(repeating: 0, count: tripCount), count: tripCount)
        for ballot in ballots {
            for (position, trip) in ballot.enumerated() {
                points[trip] += tripCount - position
                rankCounts[trip][position] += 1
            }
        }

        // Display order: points, then more first places, more second places, …, then poll order.
        // Below the privacy threshold, tied trips keep poll order: with two ballots, the order
        // of three tied trips by their places told which trip each friend put where.
        let publishesBreakdown = ballots.count >= max(minBallotsForBreakdown, 1)
        let order = (0..<tripCount).sorted { a, b in
            if points[a] != points[b] { return points[a] > points[b] }
            if publishesBreakdown, rankCounts[a] != rankCounts[b] { return rankCounts[a].lexicographicallyPrecedes(rankCounts[b], by: >) }
            return a < b
        }
        let top = points.max() ?? 0
        let standings = order.map { trip in
            TripStanding(
                trip: trip,
                points: points[trip],
                rank: 1 + points.filter { $0 > points[trip] }.count,
                tied: points.filter { $0 == points[trip] }.count > 1,
                share: top > 0 ? Double(points[trip]) / Double(top) : 0,
                rankCounts: rankCounts[trip]
            )
        }

        let breakdown = publishesBreakdown
            ? ResultsBreakdown(headToHeadWinner: headToHeadWinner(ballots, tripCount: tripCount))
            : nil
        // A time no app can have saved (warned about when read) dates nothing, unless it is
        // all there is: a ballot of year 2101 made the poll "last updated" then.
        let times = [poll.modifiedAt] + counted.map(\.modifiedAt)
        let updatedAt = times.filter(Poll.plausibleTimes.contains).max() ?? times.max()!
        return PollResults(
            ballots: BallotCounts(received: received.count, counted: counted.count,
                                  invalid: kept.count - counted.count, superseded: superseded),
            standings: standings,
            breakdown: breakdown,
            updatedAt: updatedAt
        )
    }

    /// The trip preferred to every other trip by a majority of ballots, if one exists.
    public static func headToHeadWinner(_ ballots: [[Int]], tripCount: Int) -> Int? {
        guard !ballots.isEmpty else { return nil }
        // prefers[a][b]: ballots ranking a above b.
        var prefers = Array(repeating: Array(repeating: 0, count: tripCount), count: tripCount)
        for ballot in ballots {
            for (i, a) in ballot.enumerated() {
                for b in ballot[(i + 1)...] { prefers[a][b] += 1 }
            }
        }
        let majority = ballots.count / 2 + 1
        return (0..<tripCount).first { a in
            (0..<tripCount).allSatisfy { b in a == b || prefers[a][b] >= majority }
        }
    }
}
