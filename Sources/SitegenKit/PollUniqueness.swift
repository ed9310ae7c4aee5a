import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenRender

extension ExportSet {
    /// Two polls with the same share code or id are an error; every clash is reported,
    /// each poll against the first that used the code or id, at the field itself (its
    /// value's line and column, its record's index) when `loader` can read its file again.
    ///
    /// Each code and id maps to the index of the first poll that uses it: grouping the
    /// summaries made an array per poll, 10,000 small allocations at 10,000 polls for a
    /// check that nearly always finds nothing. Summaries keep only their record's place, so
    /// the files of clashing polls are read again, only when there are any.
    public static func checkUniqueness(_ polls: [PollSummary], pollFiles: [URL] = [], loader: ExportLoader? = nil, log: DiagnosticLog) {
        var clashes: [Clash] = []
        findClashes(polls, by: \.shareCode, field: .shareCode, into: &clashes) { "share code \($0.shareCode)" }
        findClashes(polls, by: \.id, field: .id, into: &clashes) { "poll id \($0.id.uuidString)" }
        guard !clashes.isEmpty else { return }
        let places = loader.map { fieldPlaces(of: Set(clashes.map { polls[$0.poll].source.file }), pollFiles: pollFiles, loader: $0) } ?? [:]
        for clash in clashes {
            let poll = polls[clash.poll], used = polls[clash.first]
            let place = places[poll.source].flatMap { clash.field == .shareCode ? $0.shareCode : $0.id }
            log.add((place.map { poll.source.at(offset: $0.offset) } ?? poll.source).diagnostic(.error, field: place?.path ?? clash.field.rawValue,
                "\(clash.named) is also used by \(quoted(used.title)) (\(used.source.file):\(used.source.line))"))
        }
    }

    private enum ClashingField: String { case shareCode, id }

    private struct Clash {
        let poll: Int, first: Int
        let field: ClashingField
        let named: String
    }

    /// Each poll whose `key` an earlier poll has, with the first of them.
    private static func findClashes<Key: Hashable>(_ polls: [PollSummary], by key: (PollSummary) -> Key, field: ClashingField,
                                                  into clashes: inout [Clash], _ named: (PollSummary) -> String) {
        var firstByKey: [Key: Int] = Dictionary(minimumCapacity: polls.count)
        for (index, poll) in polls.enumerated() {
            guard let first = firstByKey[key(poll)] else {
                firstByKey[key(poll)] = index
                continue
            }
            clashes.append(Clash(poll: index, first: first, field: field, named: named(poll)))
        }
    }

    /// The share code's and id's places of every poll in the files shown as `files`, by
    /// the poll's own place. Read quietly: their problems were reported on the first reading.
    private static func fieldPlaces(of files: Set<String>, pollFiles: [URL], loader: ExportLoader)
        -> [SourceRef: (shareCode: FieldPlace?, id: FieldPlace?)] {
        let quiet = loader.reporting(to: DiagnosticLog())
        var places: [SourceRef: (shareCode: FieldPlace?, id: FieldPlace?)] = [:]
        for url in pollFiles where files.contains(displayPath(url)) {
            let (polls, _) = quiet.loadFile(url, cloudKit: CloudKitDump.poll, schema: { _ in .poll }) { (decoder, field, source) throws(FieldError) in
                (source: try decoder.poll(field, source: source).source,
                 shareCode: ExportDecoder.place(of: "shareCode", in: field), id: ExportDecoder.place(of: "id", "pollId", in: field))
            }
            for poll in polls { places[poll.source] = (poll.shareCode, poll.id) }
        }
        return places
    }
}
