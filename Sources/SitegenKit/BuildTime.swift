import Foundation
import SitegenInput

extension ExportSet {
    /// SOURCE_DATE_EPOCH when set, else the newest date in the inputs — never the wall clock,
    /// so the same inputs give the same bytes.
    /// `streamedDates`: the polls' modification dates (polls are not kept here).
    public func buildTime(environment: [String: String], streamedDates: [Date]) -> Date {
        if let epoch = environment[SourceDateEpoch.name].flatMap(SourceDateEpoch.seconds) {
            return Date(timeIntervalSince1970: epoch)
        }
        var dates = streamedDates + [latestBallot].compactMap { $0 }
        dates += convoys.map(\.modifiedAt)
        dates += customItems.map(\.modifiedAt)
        dates += optionSets.compactMap(\.generatedAt)
        return dates.max() ?? Date(timeIntervalSinceReferenceDate: 0)
    }
}
