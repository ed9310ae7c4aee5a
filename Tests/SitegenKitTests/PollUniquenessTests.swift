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

    @Test("In a build, the clash is reported at the second poll's share code or id itself, with its record's index")
    func atTheField() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n")
        let json = ExportDecodingTests()
        let first = json.pollJSON(id: #""id": "6f9619ff-8b86-d011-b42d-00cf4fc964ff""#, code: "x7k9m2")
        let sameCode = json.pollJSON(id: #""id": "6f9619ff-8b86-d011-b42d-00cf4fc96400""#, code: "X7K9M2")
        let sameId = json.pollJSON(id: #""pollId": "6F9619FF-8B86-D011-B42D-00CF4FC964FF""#, code: "TWB2AA")
        try site.write("Data/polls/p.json", "[\(first),\n\(sameCode),\n\(sameId)]")
        #expect(try site.checkErrors() == [
            #"Data/polls/p.json:9:78: error: [1].shareCode: share code X7K9M2 is also used by "Poll" (Data/polls/p.json:1)"#,
            #"Data/polls/p.json:17:12: error: [2].pollId: poll id 6F9619FF-8B86-D011-B42D-00CF4FC964FF is also used by "Poll" (Data/polls/p.json:1)"#,
        ])
    }
}
