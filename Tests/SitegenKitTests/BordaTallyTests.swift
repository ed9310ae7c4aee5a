import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

/// Builders for small polls and ballots.
enum Sample {
    static let pollId = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")!
    static let source = SourceRef(file: "test.json", line: 1, column: 1)
    static let day = Date(timeIntervalSince1970: 1_780_000_000)

    static func trip(_ name: String, index: Int) -> Trip {
        Trip(id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index))!, name: name,
             preferences: TripPreferences(startDate: day, endDate: day, sports: []), stops: [], travelSegments: [],
             totalGames: 0, totalDistanceMeters: 0, totalDrivingSeconds: 0, notes: nil)
    }

    static func poll(_ names: [String]) -> Poll {
        Poll(id: pollId, title: "Poll", shareCode: ShareCode("X7K9M2")!,
             trips: names.enumerated().map { trip($1, index: $0) },
             createdAt: day, modifiedAt: day, description: nil, source: source)
    }

    static func vote(_ voter: String, _ rankings: [Int], modified: Double = 0, voted: Double = 0, id: Int = 0) -> Vote {
        Vote(id: UUID(uuidString: String(format: "A0000000-0000-0000-0000-%012d", id))!, pollId: pollId, voterId: voter,
             rankings: rankings, votedAt: day.addingTimeInterval(voted), modifiedAt: day.addingTimeInterval(modified),
             source: source)
    }

    /// Ballots from position lists: `ballots([[0,1,2], [1,0,2]])`, one voter each.
    static func ballots(_ rankings: [[Int]]) -> [Vote] {
        rankings.enumerated().map { vote("voter\($0)", $1, id: $0) }
    }
}

@Suite("Borda count (docs/rules.md)")
struct BordaTallyTests {
    @Test("A ballot keeps its rankings exactly, packed into a word or, beyond 16 trips or indices 0–15, as a list",
          arguments: [[], [0], [3, 1, 0, 2], Array(0..<16).reversed(), [15, 15, 15], Array(0..<17), [16, 0], [-1, 0], [0, 1 << 40]])
    func rankingsKept(_ rankings: [Int]) {
        let ballot = Ballot(Sample.vote("v", rankings))
        #expect(ballot.rankings == rankings)
        let packed: Bool
        if case .packed = ballot.packedRankings { packed = true } else { packed = false }
        #expect(packed == (rankings.count <= 16 && rankings.allSatisfy { (0..<16).contains($0) }))
    }

    @Test("Ballots beyond the packed form count the same: 17 trips, and a ranking of 16 that makes a ballot invalid")
    func unpackedBallots() {
        let names = (0..<17).map { "T\($0)" }
        let full = Array((0..<17).reversed())
        let results = BordaTally.tally(poll: Sample.poll(names), votes: [Sample.vote("a", full, id: 1), Sample.vote("b", full, id: 2)],
                                       minBallotsForBreakdown: 3)
        #expect(results.ballots == BallotCounts(received: 2, counted: 2, invalid: 0, superseded: 0))
        #expect(results.standings.first?.trip == 16)
        #expect(results.standings.first?.points == 34)
        let invalid = BordaTally.tally(poll: Sample.poll(["A", "B"]), votes: [Sample.vote("a", [16, 0])], minBallotsForBreakdown: 3)
        #expect(invalid.ballots == BallotCounts(received: 1, counted: 0, invalid: 1, superseded: 0))
    }

    func points(_ results: PollResults) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: results.standings.map { ($0.trip, $0.points) })
    }

    @Test("The worked example of docs/rules.md: 3 trips, 4 voters gives A 9, B 10, C 5 and B wins")
    func specExample() {
        // A: 1st,1st,2nd,3rd  B: 2nd,2nd,1st,1st  C: 3rd,3rd,3rd,2nd
        let votes = Sample.ballots([[0, 1, 2], [0, 1, 2], [1, 0, 2], [1, 2, 0]])
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(points(results) == [0: 9, 1: 10, 2: 5])
        #expect(results.standings.map(\.trip) == [1, 0, 2])
        #expect(results.standings.map(\.rank) == [1, 2, 3])
        #expect(results.standings.map(\.tied) == [false, false, false])
        #expect(results.standings.map(\.share) == [1.0, 0.9, 0.5])
        #expect(results.standings.map(\.rankCounts) == [[2, 2, 0], [2, 1, 1], [0, 1, 3]])
        #expect(results.leaders.map(\.trip) == [1])
        #expect(results.ballots == BallotCounts(received: 4, counted: 4, invalid: 0, superseded: 0))
        // B beats A 2–2? No: A over B on 2 ballots, B over A on 2 — no majority, so no pairwise winner.
        #expect(results.breakdown == ResultsBreakdown(headToHeadWinner: nil))
    }

    @Test("A tie for first is a tie: both rank 1, tie-break only orders the list")
    func tieAtTop() {
        // A: 1st,1st,3rd = 3+3+1 = 7; B: 2nd,2nd,1st = 2+2+3 = 7; C: 3rd,3rd,2nd = 4
        let votes = Sample.ballots([[0, 1, 2], [0, 1, 2], [1, 2, 0]])
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(results.standings.map(\.points) == [7, 7, 4])
        // A has more first places (2 vs 1), so it is listed first, still at rank 1.
        #expect(results.standings.map(\.trip) == [0, 1, 2])
        #expect(results.standings.map(\.rank) == [1, 1, 3])
        #expect(results.standings.map(\.tied) == [true, true, false])
        #expect(results.leaders.map(\.trip) == [0, 1])
    }

    @Test("A tie in the middle uses competition ranking: 8, 5, 5, 2 → 1, 2, 2, 4")
    func tieInMiddle() {
        // 4 trips, points 4-3-2-1 by position. A 4+4 = 8; B 3+2 = 5; C 2+3 = 5; D 1+1 = 2.
        let votes = Sample.ballots([[0, 1, 2, 3], [0, 2, 1, 3]])
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C", "D"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(results.standings.map(\.points) == [8, 5, 5, 2])
        #expect(results.standings.map(\.rank) == [1, 2, 2, 4])
        // B and C have the same rank counts ([0,1,1,0]), so poll order decides the listing.
        #expect(results.standings.map(\.trip) == [0, 1, 2, 3])
        #expect(results.standings.map(\.tied) == [false, true, true, false])
    }

    @Test("Three-way tie for first: all rank 1, listed by first places then poll order")
    func threeWayTie() {
        // D: 4,4,2,2 = 12 (firsts 2); B: 3,2,4,3 = 12; C: 2,3,3,4 = 12; A: 1,1,1,1 = 4.
        let votes = Sample.ballots([[3, 1, 2, 0], [3, 2, 1, 0], [1, 2, 3, 0], [2, 1, 3, 0]])
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C", "D"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(results.standings.map(\.points) == [12, 12, 12, 4])
        #expect(results.standings.map(\.rank) == [1, 1, 1, 4])
        // D has 2 first places; B and C have 1 first and 2 seconds each, so B (trip 2) precedes C.
        #expect(results.standings.map(\.trip) == [3, 1, 2, 0])
        #expect(results.standings.map(\.rankCounts) == [[2, 0, 2, 0], [1, 2, 1, 0], [1, 2, 1, 0], [0, 0, 0, 4]])
        #expect(results.leaders.map(\.trip) == [3, 1, 2])
    }

    @Test("Tied points are ordered by more first places, then more second places")
    func tieBreakOrder() {
        // B and C both 6 points; C has a first place, B none → C listed before B.
        // A: 3,3,1 = 7... use 3 ballots: [0,1,2] [0,1,2] [2,0,1]: A 3+3+2 = 8, B 2+2+1 = 5, C 1+1+3 = 5
        let votes = Sample.ballots([[0, 1, 2], [0, 1, 2], [2, 0, 1]])
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(results.standings.map(\.trip) == [0, 2, 1])
        #expect(results.standings.map(\.rank) == [1, 2, 2])
    }

    @Test("Below the privacy threshold, tied trips keep poll order: their order by places would give the breakdown away")
    func tieOrderBelowThreshold() {
        // Two ballots: A 3+1, B 2+2, C 1+3, all 4 points. Ordered by first places (A, C, B),
        // the order showed that B was second on both ballots.
        let votes = Sample.ballots([[0, 1, 2], [2, 1, 0]])
        let below = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(below.standings.map(\.points) == [4, 4, 4])
        #expect(below.standings.map(\.trip) == [0, 1, 2])
        #expect(below.breakdown == nil)
        // At the threshold the breakdown is published, and the order follows the places.
        let at = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 2)
        #expect(at.standings.map(\.trip) == [0, 2, 1])
    }

    @Test("Latest ballot per voter counts; the others are superseded")
    func superseded() {
        let votes = [
            Sample.vote("ann", [0, 1, 2], modified: 10, id: 1),
            Sample.vote("ann", [2, 1, 0], modified: 20, id: 2),   // newer: counts
            Sample.vote("bob", [1, 0, 2], modified: 5, voted: 1, id: 3),
            Sample.vote("bob", [0, 1, 2], modified: 5, voted: 2, id: 4),   // same modifiedAt, later votedAt
            Sample.vote("cat", [0, 1, 2], modified: 5, voted: 5, id: 5),
            Sample.vote("cat", [1, 2, 0], modified: 5, voted: 5, id: 6),   // all equal: greater id
        ]
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(results.ballots == BallotCounts(received: 6, counted: 3, invalid: 0, superseded: 3))
        // ann [2,1,0], bob [0,1,2], cat [1,2,0]: A 1+3+1 = 5, B 2+2+3 = 7, C 3+1+2 = 6
        #expect(points(results) == [0: 5, 1: 7, 2: 6])
        #expect(results.updatedAt == Sample.day.addingTimeInterval(20))
    }

    @Test("A vote id read twice (an old export beside a newer dump) is one ballot, in its newest version")
    func sameVoteTwice() {
        let votes = [
            Sample.vote("ann", [0, 1, 2], modified: 10, id: 1),
            Sample.vote("bob", [1, 0, 2], modified: 10, id: 2),
            Sample.vote("ann", [2, 1, 0], modified: 20, id: 1),   // the same vote, edited since: counts
            Sample.vote("bob", [1, 0, 2], modified: 10, id: 2),   // the same vote again, unchanged
        ]
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        #expect(results.ballots == BallotCounts(received: 2, counted: 2, invalid: 0, superseded: 0))
        // ann [2,1,0], bob [1,0,2]: A 1+2 = 3, B 2+3 = 5, C 3+1 = 4
        #expect(points(results) == [0: 3, 1: 5, 2: 4])
    }

    @Test("Two copies of a vote, equally new but ranked differently, give the same result in either file order")
    func sameVoteTwiceEquallyNew() {
        let first = Sample.vote("ann", [0, 1, 2], modified: 10, id: 1)
        let second = Sample.vote("ann", [2, 1, 0], modified: 10, id: 1)
        let one = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: [first, second], minBallotsForBreakdown: 3)
        let other = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: [second, first], minBallotsForBreakdown: 3)
        #expect(one == other)
        #expect(one.ballots == BallotCounts(received: 1, counted: 1, invalid: 0, superseded: 0))
        // The copy whose bytes sort last counts: the rankings' packed words, little-endian,
        // start 0x12 for [2,1,0] and 0x10 for [0,1,2]. [2,1,0]: A 1, B 2, C 3.
        #expect(points(one) == [0: 1, 1: 2, 2: 3])
    }

    @Test("Incomplete or repeated rankings are set aside, and a voter's latest invalid ballot is not replaced by an older one")
    func invalid() {
        let votes = [
            Sample.vote("ann", [0, 1], id: 1),              // misses a trip
            Sample.vote("bob", [0, 0, 1], id: 2),           // repeats
            Sample.vote("cat", [0, 1, 3], id: 3),           // out of range
            Sample.vote("dan", [2, 1, 0, 1], id: 4),        // too long
            Sample.vote("eve", [1, 0, 2], modified: 1, id: 5),
            Sample.vote("eve", [1, 0], modified: 2, id: 6),  // latest is invalid
            Sample.vote("fay", [2, 0, 1], id: 7),
        ]
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 1)
        #expect(results.ballots == BallotCounts(received: 7, counted: 1, invalid: 5, superseded: 1))
        #expect(points(results) == [0: 2, 1: 1, 2: 3])
        #expect(results.voters == 1)
    }

    @Test("Breakdown is published only from minBallotsForBreakdown counted ballots", arguments: [1, 2, 3, 4])
    func breakdownThreshold(ballotCount: Int) {
        let votes = Sample.ballots(Array(repeating: [1, 0, 2], count: ballotCount))
        let results = BordaTally.tally(poll: Sample.poll(["A", "B", "C"]), votes: votes, minBallotsForBreakdown: 3)
        if ballotCount >= 3 {
            #expect(results.breakdown == ResultsBreakdown(headToHeadWinner: 1))
        } else {
            #expect(results.breakdown == nil)
        }
        let published = PublishedPoll(poll: Sample.poll(["A", "B", "C"]), results: results)
        let json = PollPages.resultsJSON(published).serialized()
        #expect(json.contains("\"rankCounts\": null") == (ballotCount < 3))
        #expect(json.contains("\"headToHeadWinner\": null") == (ballotCount < 3))
    }

    @Test("No ballots: everyone has 0 points and share 0, no leader, no breakdown")
    func noBallots() {
        let results = BordaTally.tally(poll: Sample.poll(["A", "B"]), votes: [], minBallotsForBreakdown: 3)
        #expect(results.standings.map(\.points) == [0, 0])
        #expect(results.standings.map(\.share) == [0, 0])
        #expect(results.leaders.isEmpty)
        #expect(results.breakdown == nil)
        #expect(results.updatedAt == Sample.day)
    }

    @Test("Head-to-head winner needs a majority against every other trip")
    func headToHead() {
        // Condorcet cycle: no winner.
        #expect(BordaTally.headToHeadWinner([[0, 1, 2], [1, 2, 0], [2, 0, 1]], tripCount: 3) == nil)
        // C is preferred to A and to B on 2 of 3 ballots, though each trip has one first place.
        #expect(BordaTally.headToHeadWinner([[0, 2, 1], [2, 1, 0], [1, 2, 0]], tripCount: 3) == 2)
        // Exactly half is not a majority.
        #expect(BordaTally.headToHeadWinner([[0, 1], [1, 0]], tripCount: 2) == nil)
    }

    @Test("Properties over random polls: total points, order independence, unanimous winner")
    func properties() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let tripCount = Int(random.next() % 9) + 2
            let ballotCount = Int(random.next() % 15) + 1
            let rankings = (0..<ballotCount).map { _ in (0..<tripCount).shuffled(using: &random) }
            let poll = Sample.poll((0..<tripCount).map { "T\($0)" })
            let results = BordaTally.tally(poll: poll, votes: Sample.ballots(rankings), minBallotsForBreakdown: 1)
            #expect(results.standings.reduce(0) { $0 + $1.points } == ballotCount * tripCount * (tripCount + 1) / 2)
            let reversed = BordaTally.tally(poll: poll, votes: Sample.ballots(rankings.reversed()), minBallotsForBreakdown: 1)
            #expect(reversed.standings == results.standings)
            #expect(reversed.breakdown == results.breakdown)

            let favourite = Int(random.next() % UInt64(tripCount))
            let unanimous = rankings.map { [favourite] + $0.filter { $0 != favourite } }
            let unanimousResults = BordaTally.tally(poll: poll, votes: Sample.ballots(unanimous), minBallotsForBreakdown: 1)
            #expect(unanimousResults.leaders.map(\.trip) == [favourite])
            #expect(unanimousResults.breakdown?.headToHeadWinner == favourite)
        }
    }
}


@Suite("Trips of one name in the standings")
struct SameNameTripsTests {
    @Test("Trips sharing a name are told apart by their number wherever the standings name them; other names are as exported")
    func sameNames() throws {
        // Each trip first once, second once, third once: a three-way tie.
        let poll = Sample.poll(["Lakefront Loop", "Lakefront Loop ", "Prairie Run"])
        let votes = Sample.ballots([[0, 1, 2], [1, 2, 0], [2, 0, 1]])
        let published = PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, votes: votes, minBallotsForBreakdown: 3))
        #expect(published.tripName(0) == "Lakefront Loop (trip 1)")
        #expect(published.tripName(1) == "Lakefront Loop (trip 2)")
        #expect(published.tripName(2) == "Prairie Run")
        #expect(published.leaderLine == "Tied for first: Lakefront Loop (trip 1), Lakefront Loop (trip 2) and Prairie Run")
        guard case .poll(let card) = PreviewCard.poll(published, siteTitle: "Trips") else {
            Issue.record("not a poll card")
            return
        }
        #expect(card.rows.map(\.name) == ["Lakefront Loop (trip 1)", "Lakefront Loop (trip 2)", "Prairie Run"])
    }
}
