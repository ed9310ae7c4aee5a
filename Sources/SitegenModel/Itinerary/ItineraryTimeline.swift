import Foundation
import SitegenCore

/// A trip laid out day by day (docs/rules.md, "Itinerary timelines"). Pure: values in, values out.
public struct ItineraryTimeline: Sendable {
    public enum Entry: Sendable, Equatable {
        case game(Game)
        /// A game id that no catalog holds: shown by its id.
        case unknownGame(String)
        /// A drive, with the zone its time is shown in: its from-stop's (nil: the site's).
        case travel(TravelSegment, zone: TimeZone?)
        case item(CustomItem)
    }

    public struct Day: Sendable, Equatable {
        /// 1-based.
        public var number: Int
        /// Midnight of the day in the site's zone.
        public var date: Date
        /// Where the travellers are: one city, or several on a travel day, in travel order.
        public var cities: [String]
        public var entries: [Entry]
    }

    public var days: [Day]
    /// Items whose day is outside the trip, and catalog games and drives dated outside it.
    public var unscheduled: [Entry]
    public var warnings: [Warning]
    /// The trip spans more than `maxDays`: the days stop there, and what is dated after them
    /// is under `unscheduled` (warned about where the trip's endDate is read).
    public var isCut = false

    public struct Warning: Sendable, Equatable {
        public var source: SourceRef?
        public var message: String
        /// Shared by every warning of this kind, so many of them print as one line.
        public var summary: String? = nil
        /// Without a source of its own: where in the trip's file it is (a game id's place).
        public var offset: Int? = nil
        /// The JSON path of the field at `offset`, when known (`trip.travelSegments[0].departureDate`).
        public var field: String = ""
    }

    /// The most days a trip may span (bounds work and page size).
    public static let maxDays = 366

    public static func build(trip exported: Trip, catalog: [String: Game], items: [CustomItem], timeZone: TimeZone) -> ItineraryTimeline {
        let trip = pickedDays(exported, timeZone)
        let firstDay = dayNumber(trip.preferences.startDate, timeZone)
        let lastDay = min(max(dayNumber(trip.preferences.endDate, timeZone), firstDay), firstDay + maxDays - 1)
        let dayCount = lastDay - firstDay + 1
        var warnings: [Warning] = []
        var unscheduled: [Entry] = []

        /// Entries of each day with their sort keys, before custom items are placed. `stop`
        /// is the index of the stop a game belongs to, or a drive leaves from.
        struct Timed {
            var entry: Entry; var key: Double; var order: Int; var stop: Int?
            /// For a game placed right after a drive, that drive's `order`.
            var afterDrive: Int?
            /// Sorts by time, then as read; a game after a drive goes with it, then after it.
            var rank: (Double, Int, Int, Int) { (key, afterDrive ?? order, afterDrive == nil ? 0 : 1, order) }
        }
        var timed = Array(repeating: [Timed](), count: dayCount)
        var order = 0
        func add(_ entry: Entry, day: Int, key: Double, stop: Int? = nil) {
            timed[day].append(Timed(entry: entry, key: key, order: order, stop: stop))
            order += 1
        }
        func clamp(_ day: Int) -> Int { min(max(day - firstDay, 0), dayCount - 1) }

        // Games: on their local date (the date on the ticket), at their start time; a game
        // dated without a time on the date written, before the day's timed entries (after
        // the drive there, below).
        var seenGames = Set<String>()
        for (stopIndex, stop) in trip.stops.enumerated() {
            for (gameIndex, id) in stop.games.enumerated() where seenGames.insert(id).inserted {
                if let game = catalog[id] {
                    let day = dayNumber(game.startTime, game.startIsDateOnly ? timeZone : game.timeZone ?? timeZone) - firstDay
                    if (0..<dayCount).contains(day) {
                        // A game without a time first: its midnight in the site's zone came
                        // after a Tokyo game of the same date, which is the evening before here.
                        add(.game(game), day: day, key: game.startIsDateOnly ? -.infinity : game.startTime.timeIntervalSince1970, stop: stopIndex)
                    } else {
                        unscheduled.append(.game(game))
                        warnings.append(Warning(source: game.source, message: "game \(id) is outside the dates of trip \(quoted(trip.name)); listed under Unscheduled",
                                                summary: "games outside the dates of their trip are listed under Unscheduled"))
                    }
                } else {
                    add(.unknownGame(id), day: clamp(dayNumber(stop.arrivalDate, timeZone)), key: .infinity, stop: stopIndex)
                    let place = gameIndex < stop.gamePlaces.count ? stop.gamePlaces[gameIndex] : nil
                    warnings.append(Warning(source: nil, message: "trip \(quoted(trip.name)): no game catalog holds game \(id); the page shows its id",
                                            summary: "game ids that no catalog holds; the pages show the ids",
                                            offset: place?.offset, field: place?.path ?? ""))
                }
            }
        }

        // Segments: at their departure time, or after the games of the stops already left
        // that day and before the next stop's (the seed's day: SFG @ TEX → Drive to
        // Milwaukee → PIT @ MIL). Shown, and dated, in the from-stop's zone; a date written
        // without a time names its day in any zone.
        func tripDay(of date: Date, dateOnly: Bool, zone: TimeZone?) -> Int {
            dayNumber(date, dateOnly ? timeZone : zone ?? timeZone) - firstDay
        }
        // The day (since 1970) each stop is left and reached on by a drive placed on a day:
        // the day headings follow the drives (a stop is left on the day its drive is on).
        var leftOn: [Int: Int] = [:], reachedOn: [Int: Int] = [:]
        func placed(_ segment: TravelSegment, from fromIndex: Int?, on day: Int) {
            guard let fromIndex else { return }
            leftOn[fromIndex] = leftOn[fromIndex] ?? firstDay + day
            let next = fromIndex + 1
            if next < trip.stops.count, trip.stops[next].city == segment.toCity {
                reachedOn[next] = reachedOn[next] ?? firstDay + day
            }
        }
        var searchFrom = 0
        for segment in trip.travelSegments {
            let fromIndex = trip.stops[min(searchFrom, trip.stops.count)...].firstIndex { $0.city == segment.fromCity }
            if let fromIndex {
                searchFrom = fromIndex + 1
            } else {
                // "Atlantis → Chicago" was shown on the first day without a word.
                warnings.append(Warning(source: nil, message: "trip \(quoted(trip.name)): travel segment \(segment.id) leaves from \"\(segment.fromCity)\", none of its stops in route order; shown \(segment.departureDate == nil ? "after the first day's games" : "at its departure time"), in the site's time zone",
                                        summary: "travel segments that leave from none of their trip's stops",
                                        offset: segment.fromCityPlace?.offset, field: segment.fromCityPlace?.path ?? ""))
            }
            let zone = fromIndex.flatMap { zoneOfStop($0, trip: trip, catalog: catalog) }
            // Its day; and its time, unless it has none: a departure written as a date (or at
            // the site's midnight) names a day only, as a from-stop's departure does. Such a
            // drive went before the games of the city it leaves, at midnight.
            let day: Int
            var time: Double?
            if let departure = segment.departureDate {
                day = tripDay(of: departure, dateOnly: segment.departureIsDateOnly, zone: zone)
                if !segment.departureIsDateOnly { time = departure.timeIntervalSince1970 }
            } else if let fromIndex {
                day = tripDay(of: trip.stops[fromIndex].departureDate, dateOnly: trip.stops[fromIndex].departureIsDateOnly, zone: zone)
            } else {
                // A from-city that matches no stop: after the first day's games.
                day = 0
            }
            guard (0..<dayCount).contains(day) else {
                // A stale date (the trip was moved, the drive or its stop was not) was shown on
                // the first or last day, as if on that day.
                unscheduled.append(.travel(segment, zone: zone))
                let stop = segment.departureDate == nil ? fromIndex.map { trip.stops[$0] } : nil
                let place = stop == nil ? segment.departureDatePlace : stop?.departurePlace ?? segment.fromCityPlace
                warnings.append(Warning(source: nil, message: "travel segment \(segment.id) (\(segment.fromCity) → \(segment.toCity)) is outside the dates of trip \(quoted(trip.name))\(stop == nil ? "" : ": its stop in \(segment.fromCity) is left then"); listed under Unscheduled",
                                        summary: "travel segments outside the dates of their trip are listed under Unscheduled",
                                        offset: place?.offset, field: place?.path ?? ""))
                continue
            }
            placed(segment, from: fromIndex, on: day)
            if let time {
                add(.travel(segment, zone: zone), day: day, key: time, stop: fromIndex)
                continue
            }
            // After the games of every stop already left that day. Games of unknown time
            // (key infinity) stay last: they cannot be placed.
            let leftBehind = fromIndex ?? trip.stops.count
            let lastGameLeftBehind = timed[day].compactMap { entry -> Double? in
                guard case .game = entry.entry, let stop = entry.stop, stop <= leftBehind else { return nil }
                return entry.key
            }.max()
            add(.travel(segment, zone: zone), day: day, key: (lastGameLeftBehind ?? -.infinity).nextUp, stop: fromIndex)
        }

        // A game without a time at a stop that a drive of its day reaches comes right after
        // that drive, not first: the travellers are not there before it (New York →
        // Philadelphia, then the Philadelphia game whose hour is not set).
        for day in timed.indices {
            for index in timed[day].indices {
                guard case .game(let game) = timed[day][index].entry, game.startIsDateOnly,
                      let stop = timed[day][index].stop else { continue }
                let lastArrival = timed[day].filter { entry in
                    guard case .travel = entry.entry, let from = entry.stop else { return false }
                    return from < stop
                }.max { ($0.key, $0.order) < ($1.key, $1.order) }
                // Its key and order, then after it: two drives of a day without times share a
                // key, and a drive on from this stop stays after the game.
                if let lastArrival {
                    timed[day][index].key = lastArrival.key
                    timed[day][index].afterDrive = lastArrival.order
                }
            }
        }

        // Custom items by anchor; items sharing an anchor keep createdAt order, then id.
        let sortedItems = items.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        var atStart = Array(repeating: [CustomItem](), count: dayCount)
        var after: [String: [CustomItem]] = [:]   // "day|game:ID" or "day|travel:ID"
        for item in sortedItems {
            let day = item.anchorDay - 1
            guard (0..<dayCount).contains(day) else {
                unscheduled.append(.item(item))
                warnings.append(Warning(source: item.source.at(offset: item.anchorDayPlace?.offset ?? item.source.offset),
                                        message: "item \(quoted(item.title)) (\(item.id)) is on day \(item.anchorDay), outside the trip's \(Formatting.count(dayCount, "day")); listed under Unscheduled",
                                        summary: "custom items on a day outside their trip are listed under Unscheduled",
                                        field: item.anchorDayPlace?.path ?? ""))
                continue
            }
            switch item.anchor {
            case .startOfDay:
                atStart[day].append(item)
            case .afterGame(let id), .afterTravel(let id):
                let isGame: Bool
                if case .afterGame = item.anchor { isGame = true } else { isGame = false }
                let present = timed[day].contains { entry in
                    switch entry.entry {
                    case .game(let game): return isGame && game.id == id
                    case .unknownGame(let gameId): return isGame && gameId == id
                    case .travel(let segment, _): return !isGame && segment.id == id
                    case .item: return false
                    }
                }
                if present {
                    after["\(day)|\(isGame ? "game" : "travel"):\(id)", default: []].append(item)
                } else {
                    atStart[day].append(item)
                    warnings.append(Warning(source: item.source.at(offset: item.anchorIdPlace?.offset ?? item.source.offset),
                                            message: "item \(quoted(item.title)) (\(item.id)): its anchor \(isGame ? "game" : "travel segment") \(id) is not on day \(item.anchorDay); shown at the start of the day",
                                            summary: "custom items whose anchor is not on their day are shown at the start of the day",
                                            field: item.anchorIdPlace?.path ?? ""))
                }
            }
        }

        var days: [Day] = []
        for index in 0..<dayCount {
            var entries: [Entry] = atStart[index]
                .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
                .map { .item($0) }
            let ordered = timed[index].sorted { $0.rank < $1.rank }
            for timedEntry in ordered {
                entries.append(timedEntry.entry)
                let key: String?
                switch timedEntry.entry {
                case .game(let game): key = "\(index)|game:\(game.id)"
                case .unknownGame(let id): key = "\(index)|game:\(id)"
                case .travel(let segment, _): key = "\(index)|travel:\(segment.id)"
                case .item: key = nil
                }
                if let key, let items = after[key] { entries += items.map { .item($0) } }
            }
            let dayStart = startOfDay(firstDay + index, timeZone)
            days.append(Day(number: index + 1, date: dayStart,
                            cities: cities(on: firstDay + index, trip: trip, timeZone: timeZone, catalog: catalog, leftOn: leftOn, reachedOn: reachedOn),
                            entries: entries))
        }
        // A day between stops (rare in exports) keeps the previous day's city.
        for index in days.indices where days[index].cities.isEmpty && index > 0 {
            days[index].cities = [days[index - 1].cities.last].compactMap { $0 }
        }
        return ItineraryTimeline(days: days, unscheduled: unscheduled, warnings: warnings,
                                 isCut: dayNumber(trip.preferences.endDate, timeZone) > lastDay)
    }

    /// The zone of a stop's games (the first catalog game that has one): the zone the
    /// travellers' clocks are in there.
    package static func zoneOfGames(at stop: Stop, catalog: [String: Game]) -> TimeZone? {
        stop.games.lazy.compactMap { catalog[$0]?.timeZone }.first
    }

    /// The zone a stop is left in: its games', else those of the stop reached next, else of
    /// the stop before it (a rest day between two cities of one zone); nil (the site's zone)
    /// when none of them has a game of known zone. On a London site, a drive from a Boston
    /// stop without games was shown at "2:00 AM BST", on the day after it left.
    package static func zoneOfStop(_ index: Int, trip: Trip, catalog: [String: Game]) -> TimeZone? {
        let stops = trip.stops
        return zoneOfGames(at: stops[index], catalog: catalog)
            ?? (index + 1 < stops.count ? zoneOfGames(at: stops[index + 1], catalog: catalog) : nil)
            ?? (index > 0 ? zoneOfGames(at: stops[index - 1], catalog: catalog) : nil)
    }

    /// Stops whose stay covers the day, in travel order (a travel day has two). A stop is
    /// left on the day its drive is on, and the next stop reached that day (`leftOn`,
    /// `reachedOn`: days since 1970 by stop index, of the drives placed). A stop without a
    /// placed drive is left on its departure date in the zone of its games (a date alone
    /// names its own day), as such a drive would be.
    package static func cities(on day: Int, trip: Trip, timeZone: TimeZone, catalog: [String: Game],
                               leftOn: [Int: Int] = [:], reachedOn: [Int: Int] = [:]) -> [String] {
        var cities: [String] = []
        for (index, (stop, name)) in zip(trip.stops, trip.stopNames).enumerated() {
            let leaving = stop.departureIsDateOnly ? timeZone : zoneOfStop(index, trip: trip, catalog: catalog) ?? timeZone
            let arrival = reachedOn[index] ?? dayNumber(stop.arrivalDate, timeZone)
            let departure = leftOn[index] ?? dayNumber(stop.departureDate, leaving)
            if arrival <= day && day <= max(arrival, departure) && cities.last != name {
                cities.append(name)
            }
        }
        return cities
    }

    /// The trip with each departure that names a day marked so (`departureIsDateOnly`): one
    /// written without a time (`"2026-07-18"`), or at midnight in the site's zone, which is
    /// how the app's JSONEncoder writes a day picked in a calendar (a number has no way to
    /// say "a date"). Read in the zone of a stop's western games, that midnight was the
    /// evening before, and the drive and heading landed a day early; a drive's showed
    /// "12:00 AM", or "7:00 PM EDT" the day before on a London site.
    package static func pickedDays(_ trip: Trip, _ timeZone: TimeZone) -> Trip {
        func isMidnight(_ date: Date) -> Bool { startOfDay(dayNumber(date, timeZone), timeZone) == date }
        var trip = trip
        for index in trip.stops.indices where isMidnight(trip.stops[index].departureDate) {
            trip.stops[index].departureIsDateOnly = true
        }
        for index in trip.travelSegments.indices {
            if let departure = trip.travelSegments[index].departureDate, isMidnight(departure) {
                trip.travelSegments[index].departureIsDateOnly = true
            }
        }
        return trip
    }

    /// Days since 1970-01-01 of the calendar date of `date` in `zone` (from the zone's
    /// offset at that instant; Calendar.dateComponents was a hot spot of large builds).
    package static func dayNumber(_ date: Date, _ zone: TimeZone) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + ZoneOffsets.shared.seconds(zone, at: date)
        return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    /// Midnight of a day number in `zone`.
    package static func startOfDay(_ day: Int, _ zone: TimeZone) -> Date {
        CivilDates.instant(days: day, secondsOfDay: 0, in: zone)
    }
}
