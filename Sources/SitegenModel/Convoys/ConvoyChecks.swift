import Foundation
import SitegenCore

/// Reports what is wrong across the decoded convoys: clashing ids (errors) and each
/// convoy's warnings.
public enum ConvoyChecks {
    public static func report(_ convoys: [Convoy], log: DiagnosticLog) {
        reportClashingIds(convoys, log: log)
        for convoy in convoys {
            convoy.warnings.forEach(log.add)
        }
    }

    /// Two convoys would be written to the same folder (ids compare case-insensitively, as
    /// some file systems do); every clash is reported.
    package static func reportClashingIds(_ convoys: [Convoy], log: DiagnosticLog) {
        let groups = Dictionary(grouping: convoys) { $0.id.value.lowercased() }
        for key in groups.keys.sorted() {
            let group = groups[key]!
            for convoy in group.dropFirst() {
                log.add(convoy.source.diagnostic(.error, field: convoy.fieldPath("id"),
                    "convoy id \(convoy.id) is also used by \"\(group[0].title)\" (\(group[0].source.file):\(group[0].source.line))"))
            }
        }
    }
}
