import Foundation
import SitegenInput
import SitegenModel

extension ExportSet {
    /// SOURCE_DATE_EPOCH when set, else the newest date in the inputs — never the wall clock,
    /// so the same inputs give the same bytes. Nil when no input holds a date.
    /// `streamedDates`: the polls' modification dates (polls are not kept here).
    public func buildTime(environment: [String: String], streamedDates: [Date]) -> Date? {
        if let epoch = environment[SourceDateEpoch.name].flatMap(SourceDateEpoch.seconds) {
            return Date(timeIntervalSince1970: epoch)
        }
        var dates = streamedDates + [latestBallot].compactMap { $0 }
        dates += convoys.map(\.modifiedAt)
        dates += customItems.map(\.modifiedAt)
        dates += optionSets.compactMap(\.generatedAt)
        // A record time no app can have saved (warned about when read) dates nothing, unless
        // it is all there is.
        if let newest = dates.filter(ExportDecoder.recordTimes.contains).max() ?? dates.max() { return newest }
        // No record says when it was made (a site of itineraries, games and option sets
        // without `generatedAt`): the newest date they plan, rather than 2001-01-01, which
        // calendars showed as their DTSTAMP and the tips page as its date.
        var planned = games.map(\.startTime)
        for itinerary in itineraries {
            planned += Self.plannedDates(of: itinerary.trip) + itinerary.games.map(\.startTime)
        }
        for set in optionSets {
            for trip in set.trips { planned += Self.plannedDates(of: trip) }
        }
        return planned.max()
    }

    private static func plannedDates(of trip: Trip) -> [Date] {
        [trip.preferences.startDate, trip.preferences.endDate] + trip.stops.map(\.departureDate)
            + trip.travelSegments.compactMap(\.departureDate)
    }
}
