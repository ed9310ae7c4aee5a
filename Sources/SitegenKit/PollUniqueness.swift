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
        reportClashes(polls, by: \.shareCode, field: "shareCode", log: log) { "share code \($0.shareCode)" }
        reportClashes(polls, by: \.id, field: "id", log: log) { "poll id \($0.id.uuidString)" }
    }

    /// Reports each poll whose `key` an earlier poll has, against the first of them.
    private static func reportClashes<Key: Hashable>(_ polls: [PollSummary], by key: (PollSummary) -> Key, field: String,
                                                    log: DiagnosticLog, _ named: (PollSummary) -> String) {
        var firstByKey: [Key: Int] = Dictionary(minimumCapacity: polls.count)
        for (index, poll) in polls.enumerated() {
            guard let first = firstByKey[key(poll)] else {
                firstByKey[key(poll)] = index
                continue
            }
            let used = polls[first]
            log.add(poll.source.diagnostic(.error, field: field,
                "\(named(poll)) is also used by \(quoted(used.title)) (\(used.source.file):\(used.source.line))"))
        }
    }
}
