import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Polls that share a share code or an id")
struct PollUniquenessTests {
    func poll(_ id: Int, _ code: String, _ title: String, line: Int) -> PollSummary {
        PollSummary(id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", id))!, shareCode: ShareCode(code)!,
                    title: title, source: SourceRef(file: "Data/polls/p.json", line: line, column: 3),
                    modifiedAt: Date(timeIntervalSince1970: 0), tripIds: [], path: "polls/\(code)/", voters: 0,
                    updatedAt: Date(timeIntervalSince1970: 0), leaderLine: "")
    }

    @Test("Each clash is reported once, against the first poll with that code or id, the log in file order")
    func clashes() {
        let polls = [poll(1, "X7K9M2", "First", line: 1), poll(2, "TWB2AA", "Second", line: 20),
                     poll(3, "X7K9M2", "Third", line: 40), poll(1, "ZZZ999", "Fourth", line: 60),
                     poll(5, "X7K9M2", "Fifth", line: 80)]
        let log = DiagnosticLog()
        ExportSet.checkUniqueness(polls, log: log)
        #expect(log.all.map(\.description) == [
            "Data/polls/p.json:40:3: error: shareCode: share code X7K9M2 is also used by \"First\" (Data/polls/p.json:1)",
            "Data/polls/p.json:60:3: error: id: poll id 00000000-0000-0000-0000-000000000001 is also used by \"First\" (Data/polls/p.json:1)",
            "Data/polls/p.json:80:3: error: shareCode: share code X7K9M2 is also used by \"First\" (Data/polls/p.json:1)",
        ])
        let clean = DiagnosticLog()
        ExportSet.checkUniqueness(Array(polls.prefix(2)), log: clean)
        #expect(clean.all.isEmpty)
    }
}
