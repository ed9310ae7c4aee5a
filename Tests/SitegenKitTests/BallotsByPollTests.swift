import Foundation
@testable import SitegenInput
import SitegenCore
@testable import SitegenModel
import Testing

@Suite("Ballots held once per vote file, found per poll")
struct BallotsByPollTests {
    private let first = UUID(uuidString: "00000000-0000-0000-0000-0000000000A1")!
    private let second = UUID(uuidString: "00000000-0000-0000-0000-0000000000B2")!
    private let absent = UUID(uuidString: "00000000-0000-0000-0000-0000000000C3")!

    private func ballot(_ id: Int, _ rankings: [Int]) -> Ballot {
        Ballot(Sample.vote("voter\(id)", rankings, id: id))
    }

    @Test("A poll's ballots come in file order, then record order, whichever files hold them")
    func order() {
        var ballots = BallotsByPoll()
        ballots.add(file: [(first, ballot(1, [0, 1])), (second, ballot(2, [1, 0])), (first, ballot(3, [1, 0]))])
        ballots.add(file: [])
        ballots.add(file: [(second, ballot(4, [0, 1])), (first, ballot(5, [0, 1]))])

        #expect(ballots[first] == [ballot(1, [0, 1]), ballot(3, [1, 0]), ballot(5, [0, 1])])
        #expect(ballots[second] == [ballot(2, [1, 0]), ballot(4, [0, 1])])
        #expect(ballots[absent] == [])
        var visited: [Ballot] = []
        ballots.forEach(of: first) { visited.append($0) }
        #expect(visited == ballots[first])
        ballots.forEach(of: absent) { _ in Issue.record("a poll without ballots has none to visit") }

        #expect(ballots.count == 5)
        #expect(ballots.pollIds == [first, second])
        // Each file's list is kept as it was read: the next build's cache writes it as it is.
        #expect(ballots.files.map(\.count) == [3, 0, 2])
        #expect(ballots.files[2].ballots.map(\.0) == [second, first])
    }

    @Test("Many files, empty ones among them, and polls spread over them: each poll's ballots as a filter of all would give them")
    func manyFiles() {
        let polls = (0..<7).map { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", $0))! }
        var generator = SystemRandomNumberGenerator()
        var ballots = BallotsByPoll()
        var all: [(UUID, Ballot)] = []
        var number = 0
        for file in 0..<20 {
            let size = file % 5 == 3 ? 0 : Int.random(in: 1...30, using: &generator)
            let list = (0..<size).map { _ -> (UUID, Ballot) in
                number += 1
                return (polls.randomElement(using: &generator)!, ballot(number, [0, 1]))
            }
            ballots.add(file: list)
            all += list
        }
        #expect(ballots.count == all.count)
        for poll in polls {
            #expect(ballots[poll] == all.filter { $0.0 == poll }.map(\.1))
        }
        #expect(ballots.pollIds == Set(all.map(\.0)))
    }

    @Test("A kept file's ballots are fetched only when one of its polls is counted, and its digests and repeated ids are those of the file read")
    func keptFiles() {
        let list: [(UUID, Ballot)] = [(first, ballot(1, [0, 1])), (second, ballot(2, [1, 0])), (first, ballot(3, [1, 0])), (first, ballot(1, [1, 0]))]
        let read = VoteFileBallots(list)
        #expect(read.groups.map(\.poll) == [first, second] && read.groups.map(\.count) == [3, 1])
        #expect(read.numbers == [0, 2, 3, 1])
        let loads = Counter()
        let kept = VoteFileBallots(count: read.count, latest: read.latest, groups: read.groups, numbers: read.numbers, ids: read.ids) {
            loads.add()
            return list
        }!
        var eager = BallotsByPoll(), lazy = BallotsByPoll()
        eager.add(file: list)
        lazy.add(file: kept)
        var eagerDigests: [ContentHash] = [], lazyDigests: [ContentHash] = []
        eager.forEachDigest(of: first) { eagerDigests.append($0) }
        lazy.forEachDigest(of: first) { lazyDigests.append($0) }
        #expect(lazyDigests == eagerDigests && lazyDigests.count == 1)
        #expect(lazy.repeatedIds().map(\.ids) == eager.repeatedIds().map(\.ids))
        #expect(lazy.repeatedIds().first?.ids == [list[0].1.id])
        #expect(loads.value == 0)
        #expect(lazy[first] == eager[first] && lazy[second] == eager[second])
        #expect(loads.value == 1)

        // Bytes that cannot give the ballots (a damaged cache) leave them to the file itself.
        let damaged = VoteFileBallots(count: read.count, latest: read.latest, groups: read.groups, numbers: read.numbers, ids: read.ids) { nil }!
        damaged.fallBack { list }
        #expect(damaged.ballots.map(\.1) == list.map(\.1))
        // Bytes that give other ballots (a flipped bit): the file itself, not a wrong count.
        var edited = list
        edited[2] = (first, ballot(3, [0, 1]))
        let changed = edited
        let tampered = VoteFileBallots(count: read.count, latest: read.latest, groups: read.groups, numbers: read.numbers, ids: read.ids) { changed }!
        tampered.fallBack { list }
        #expect(tampered.ballots.map(\.1) == list.map(\.1))
        var swapped = list
        swapped[1] = (first, list[1].1)
        let otherPoll = swapped
        let moved = VoteFileBallots(count: read.count, latest: read.latest, groups: read.groups, numbers: read.numbers, ids: read.ids) { otherPoll }!
        moved.fallBack { list }
        #expect(moved.ballots.map(\.0) == list.map(\.0))
        // Parts that do not fit together are refused.
        #expect(VoteFileBallots(count: 5, latest: nil, groups: read.groups, numbers: read.numbers, ids: read.ids) { list } == nil)
        #expect(VoteFileBallots(count: 4, latest: nil, groups: read.groups, numbers: [0, 2, 3, 4], ids: read.ids) { list } == nil)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
