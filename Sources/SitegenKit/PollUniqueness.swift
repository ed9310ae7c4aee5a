import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenRender

extension ExportSet {
    /// Two polls with the same share code or id are an error; every clash is reported,
    /// each poll against the first that used the code or id.
    ///
    /// Each code and id maps to the index of the first poll that uses it: grouping the
    /// summaries made an array per poll, 10,000 small allocations at 10,000 polls for a
    /// check that nearly always finds nothing.
    public static func checkUniqueness(_ polls: [PollSummary], log: DiagnosticLog) {
        var firstByCode: [ShareCode: Int] = Dictionary(minimumCapacity: polls.count)
        for (index, poll) in polls.enumerated() {
            guard let first = firstByCode[poll.shareCode] else {
                firstByCode[poll.shareCode] = index
                continue
            }
            let used = polls[first]
            log.add(poll.source.diagnostic(.error, field: "shareCode",
                "share code \(poll.shareCode) is also used by \"\(used.title)\" (\(used.source.file):\(used.source.line))"))
        }
        var firstById: [UUID: Int] = Dictionary(minimumCapacity: polls.count)
        for (index, poll) in polls.enumerated() {
            guard let first = firstById[poll.id] else {
                firstById[poll.id] = index
                continue
            }
            let used = polls[first]
            log.add(poll.source.diagnostic(.error, field: "id",
                "poll id \(poll.id.uuidString) is also used by \"\(used.title)\" (\(used.source.file):\(used.source.line))"))
        }
    }
}
