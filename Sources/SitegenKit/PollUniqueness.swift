import Foundation
import SitegenCore
import SitegenInput
import SitegenRender

extension ExportSet {
    /// Two polls with the same share code or id are an error; every clash is reported.
    public static func checkUniqueness(_ polls: [PollSummary], log: DiagnosticLog) {
        for (code, group) in Dictionary(grouping: polls, by: \.shareCode) where group.count > 1 {
            for poll in group.dropFirst() {
                log.add(poll.source.diagnostic(.error, field: "shareCode",
                    "share code \(code) is also used by \"\(group[0].title)\" (\(group[0].source.file):\(group[0].source.line))"))
            }
        }
        for (id, group) in Dictionary(grouping: polls, by: \.id) where group.count > 1 {
            for poll in group.dropFirst() {
                log.add(poll.source.diagnostic(.error, field: "id",
                    "poll id \(id.uuidString) is also used by \"\(group[0].title)\" (\(group[0].source.file):\(group[0].source.line))"))
            }
        }
    }
}
