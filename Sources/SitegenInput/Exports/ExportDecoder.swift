import Foundation
import SitegenCore
import SitegenModel

/// Turns JSON values into export records (docs/exports.md), accepting every encoding the app
/// produces and naming the exact field when something is wrong.
public struct ExportDecoder: Sendable {
    public let dates: ExportDateReader
    /// Longest Markdown field accepted; cmark-gfm 0.29 has super-linear cases (docs/libraries.md, "cmark-gfm").
    public static let maxMarkdownBytes = 64 * 1024
    /// Longest plain-text field accepted (titles, names).
    public static let maxTextBytes = 1024

    /// Turns a byte offset of the file being decoded into a position; set per file by the loader.
    public var locator: (@Sendable (Int) -> SourceRef)?
    /// Unknown fields and numeric dates of the file being decoded; set per file by the loader.
    package var notes: ExportNotes?
    /// Every numeric date read, for the site-wide check of `numericDates`.
    package var plausibility: DatePlausibility?

    /// Upper bounds of physical quantities: beyond them a value is corrupt, and would
    /// overflow when formatted. 100,000 km is two and a half times round the Earth.
    package static let maxDistanceMeters = 1e8
    /// 10 million seconds, about 116 days of driving.
    package static let maxDurationSeconds = 1e7
    package static let maxGamesPerTrip = 10_000

    public init(dates: ExportDateReader) {
        self.dates = dates
    }

    /// Where a nested record sits (for warnings about it later), or the enclosing record's place.
    public func source(of field: JSONField, within enclosing: SourceRef) -> SourceRef {
        locator?(field.node.offset) ?? enclosing
    }

    // MARK: Polls and votes (docs/exports.md)

    public func poll(_ field: JSONField, source: SourceRef) throws(FieldError) -> Poll {
        let fields = try record(field, .poll)
        let id = try fields.required("id", "pollId").uuid()
        let title = try plainText(try fields.required("title"))
        let codeField = try fields.required("shareCode")
        guard let code = ShareCode(try codeField.string()) else {
            throw codeField.error("share code \(codeField.describeValue()) must be exactly 6 characters from ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        }
        let tripsField = try fields.required("tripSnapshots").embeddedJSON()
        let trips = try tripsField.array { (element) throws(FieldError) in try trip(element) }
        guard (2...10).contains(trips.count) else {
            throw tripsField.error("a poll holds 2 to 10 trips, found \(trips.count)")
        }
        return Poll(
            id: id,
            title: title,
            shareCode: code,
            trips: trips,
            createdAt: try recordTime(try fields.required("createdAt")),
            modifiedAt: try recordTime(try fields.required("modifiedAt")),
            description: try fields.optional("description").map { (f) throws(FieldError) in try markdown(f) },
            source: source
        )
    }

    public func vote(_ field: JSONField, source: SourceRef) throws(FieldError) -> Vote {
        let fields = try record(field, .vote)
        let id = try fields.required("id", "voteId").uuid()
        let pollId = try fields.required("pollId").uuid()
        let voterId = try fields.required("odg", "voterId").string()
        let rankingsField = try fields.required("rankings").embeddedJSON()
        guard case .array(let nodes) = rankingsField.node.value,
              let rankings = Optional(nodes.compactMap { node -> Int? in
                  // A whole number of any size is an index: one past the poll's trips (9e18
                  // too) makes an invalid ballot, set aside like any other (docs/rules.md).
                  if case .number(let value) = node.value, value.isFinite, value.rounded() == value { return Int(exactly: value) ?? -1 }
                  return nil
              }), rankings.count == nodes.count
        else {
            throw rankingsField.error("expected an array of integers")
        }
        return Vote(
            id: id,
            pollId: pollId,
            voterId: voterId,
            rankings: rankings,
            votedAt: try recordTime(try fields.required("votedAt")),
            modifiedAt: try recordTime(try fields.required("modifiedAt")),
            source: source
        )
    }

    // MARK: Trips (docs/exports.md)

    public func trip(_ field: JSONField) throws(FieldError) -> Trip {
        let fields = try record(field, .trip)
        let preferencesFields = try record(try fields.required("preferences"), .preferences)
        let preferences = TripPreferences(
            startDate: try date(try preferencesFields.required("startDate")),
            endDate: try date(try preferencesFields.required("endDate")),
            sports: try preferencesFields.optional("sports")?.array { (f) throws(FieldError) in try f.string() } ?? []
        )
        // A trip that ends before it starts has no days to lay out: its page read "Jun 13 – 1".
        let zone = dates.timeZone
        let firstDay = ItineraryTimeline.dayNumber(preferences.startDate, zone)
        let lastDay = ItineraryTimeline.dayNumber(preferences.endDate, zone)
        if lastDay < firstDay {
            func day(_ number: Int) -> String {
                let (year, month, day) = CivilDates.civilFromDays(number)
                return String(format: "%04d-%02d-%02d", year, month, day)
            }
            throw try preferencesFields.required("endDate").error("the trip ends on \(day(lastDay)), before it starts (\(day(firstDay)))")
        }
        // The header shows the exported dates; the days stop at the most a page lays out.
        if lastDay - firstDay + 1 > ItineraryTimeline.maxDays {
            notes?.warning(at: try preferencesFields.required("endDate"),
                           "the trip spans \(lastDay - firstDay + 1) days; its page shows the first \(ItineraryTimeline.maxDays), and lists what is dated after them under Unscheduled",
                           summary: "trips longer than \(ItineraryTimeline.maxDays) days")
        }
        let stops = try fields.required("stops").array { (f) throws(FieldError) in try stop(f) }
        let segments = try fields.optional("travelSegments")?.array { (f) throws(FieldError) in try segment(f) } ?? []
        // Totals are exported by the app; when absent they follow from the stops and segments.
        let totalGames = try fields.optional("totalGames").map { (f) throws(FieldError) in try count(f, max: Self.maxGamesPerTrip) }
            ?? Set(stops.flatMap(\.games)).count   // a game two stops list is one game, as on the page
        let totalDistance = try fields.optional("totalDistanceMeters").map { (f) throws(FieldError) in try distance(f) }
            ?? min(segments.reduce(0) { $0 + $1.distanceMeters }, Self.maxDistanceMeters)
        let totalDriving = try fields.optional("totalDrivingSeconds").map { (f) throws(FieldError) in try duration(f) }
            ?? min(segments.reduce(0) { $0 + $1.durationSeconds }, Self.maxDurationSeconds)
        return Trip(
            id: try fields.required("id").uuid(),
            name: try plainText(try fields.required("name")),
            preferences: preferences,
            stops: stops,
            travelSegments: segments,
            totalGames: totalGames,
            totalDistanceMeters: totalDistance,
            totalDrivingSeconds: totalDriving,
            notes: try fields.optional("notes").map { (f) throws(FieldError) in try markdown(f) }
        )
    }

    package func stop(_ field: JSONField) throws(FieldError) -> Stop {
        let fields = try record(field, .stop)
        let latitude = try fields.required("latitude").double()
        let longitude = try fields.required("longitude").double()
        guard (-90...90).contains(latitude) else { throw try fields.required("latitude").error("latitude must be between -90 and 90") }
        guard (-180...180).contains(longitude) else { throw try fields.required("longitude").error("longitude must be between -180 and 180") }
        // 0, 0 is in the sea off West Africa: where a place the app could not locate comes
        // out. A stop needs its place, so it stays, and the organiser is told.
        if latitude == 0 && longitude == 0 {
            notes?.warning(at: try fields.required("latitude"),
                           "latitude 0, longitude 0 is in the sea off West Africa, most likely a place that was not located; the map, directions and route.gpx go there",
                           summary: "stops at latitude 0, longitude 0")
        }
        // A blank id named no game, and showed as a "Game" entry with no name: left out.
        var games: [String] = [], gamePlaces: [FieldPlace] = []
        for gameField in try fields.optional("games")?.elements() ?? [] {
            let id = try gameField.string()
            if id.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }) {
                notes?.warning(at: gameField, "a blank game id names no game; it is left out", summary: "blank game ids on stops are left out")
                continue
            }
            games.append(id)
            gamePlaces.append(FieldPlace(offset: gameField.node.offset, path: gameField.path.description))
        }
        let arrivalField = try fields.required("arrivalDate"), departureField = try fields.required("departureDate")
        let arrival = try date(arrivalField), departure = try date(departureField)
        // A stop left before it is reached put its city on no day and its games under the
        // stop before (or a drive on the wrong day), without a word. Days are the site's, as
        // the page lays them out; a departure that names a day (a date alone, or the site's
        // midnight, as the app writes a picked day) may be the day it is reached at any hour.
        let zone = dates.timeZone
        let arrivalDay = ItineraryTimeline.dayNumber(arrival, zone), departureDay = ItineraryTimeline.dayNumber(departure, zone)
        let namesDay = Self.isDateOnly(departureField) || ItineraryTimeline.startOfDay(departureDay, zone) == departure
        if departureDay < arrivalDay || (departureDay == arrivalDay && !namesDay && departure < arrival) {
            notes?.warning(at: departureField, "departureDate is before the stop's arrivalDate: the page shows its days and drives by these dates; check the export",
                           summary: "stops left before they are reached")
        }
        return Stop(
            city: try plainText(try fields.required("city")),
            state: try fields.optional("state")?.string() ?? "",
            latitude: latitude,
            longitude: longitude,
            arrivalDate: arrival,
            departureDate: departure,
            games: games,
            gamePlaces: gamePlaces,
            departureIsDateOnly: Self.isDateOnly(departureField),
            departurePlace: FieldPlace(offset: departureField.node.offset, path: departureField.path.description)
        )
    }

    package func segment(_ field: JSONField) throws(FieldError) -> TravelSegment {
        let fields = try record(field, .segment)
        let departureField = fields.optional("departureDate"), fromField = try fields.required("fromCity")
        return TravelSegment(
            id: Self.normalisedId(try fields.required("id").string()),
            fromCity: try fromField.string(),
            toCity: try fields.required("toCity").string(),
            distanceMeters: try distance(try fields.required("distanceMeters")),
            durationSeconds: try duration(try fields.required("durationSeconds")),
            departureDate: try departureField.map { (f) throws(FieldError) in try date(f) },
            departureDatePlace: departureField.map { FieldPlace(offset: $0.node.offset, path: $0.path.description) },
            fromCityPlace: FieldPlace(offset: fromField.node.offset, path: fromField.path.description),
            departureIsDateOnly: departureField.map(Self.isDateOnly) ?? false
        )
    }

    /// A date written without a time ("2026-06-12"): a calendar date rather than an instant.
    package static func isDateOnly(_ field: JSONField) -> Bool {
        if case .string(let text) = field.node.value { return text.utf8.count == 10 }
        return false
    }

    /// Where a decoded record's field is (its value's offset, and its path as errors name
    /// it), for diagnostics raised about the record once every export is read (a share code
    /// used twice, a vote for a poll nobody exported): the first of `names` it has; nil for none.
    package static func place(of names: String..., in record: JSONField) -> FieldPlace? {
        guard case .object(let object) = record.node.value else { return nil }
        for name in names {
            if let node = object[name] { return FieldPlace(offset: node.offset, path: record.path.appending(name).description) }
        }
        return nil
    }

    // MARK: Field kinds

    /// A date in any encoding the app writes; numeric ones are remembered for the site-wide
    /// check that `numericDates` names the right epoch.
    package func date(_ field: JSONField) throws(FieldError) -> Date {
        let value = try dates.date(field)
        if case .number(let number) = field.node.value {
            plausibility?.numeric(number, read: value, path: field.path, source: locator?(field.node.offset))
        } else {
            plausibility?.unambiguous(value)
        }
        return value
    }

    /// The times a record can say it was made, changed or voted at: from 2001, where the
    /// app's dates count from, to the end of 2100. A `modifiedAt` of year 4852 (a corrupt
    /// value) dated the whole site — its "last updated", the tips page's day — without a word.
    package static let recordTimes = Poll.plausibleTimes

    /// A record's own time (`createdAt`, `modifiedAt`, `votedAt`, `generatedAt`): a date, with a
    /// warning outside `recordTimes`; such a time does not date the site (`buildTime`).
    package func recordTime(_ field: JSONField) throws(FieldError) -> Date {
        let value = try date(field)
        if !Self.recordTimes.contains(value) {
            notes?.warning(at: field, "\(Formatting.iso8601(value)) is outside 2001–2100, not a time the app can have saved; it is shown as it is but does not date the site",
                           summary: "record times outside 2001–2100 are shown as they are but do not date the site")
        }
        return value
    }

    /// A distance in meters: finite, not negative, within `maxDistanceMeters`.
    package func distance(_ field: JSONField) throws(FieldError) -> Double {
        try quantity(field, max: Self.maxDistanceMeters, unit: "meters")
    }

    /// A duration in seconds: finite, not negative, within `maxDurationSeconds`.
    package func duration(_ field: JSONField) throws(FieldError) -> Double {
        try quantity(field, max: Self.maxDurationSeconds, unit: "seconds")
    }

    package func quantity(_ field: JSONField, max: Double, unit: String) throws(FieldError) -> Double {
        let value = try field.double()
        if value < 0 { throw field.error("must not be negative, found \(Self.describe(value))") }
        if value > max { throw field.error("\(Self.describe(value)) \(unit) is beyond any trip; the limit is \(Self.describe(max))") }
        return value
    }

    /// A number as a person wrote it: 148000, 1.5e+22.
    package static func describe(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.8g", value)
    }

    /// A count (games, seats): a whole number from 0 to `max`.
    package func count(_ field: JSONField, max: Int, min: Int = 0) throws(FieldError) -> Int {
        let value = try field.int()
        guard (min...max).contains(value) else { throw field.error("must be from \(Formatting.grouped(min)) to \(Formatting.grouped(max)), found \(Formatting.grouped(value))") }
        return value
    }

    /// Ids that are UUIDs compare case-insensitively; other ids (game ids) as written.
    public static func normalisedId(_ text: String) -> String {
        UUID(uuidString: text)?.uuidString ?? text
    }

    package func plainText(_ field: JSONField) throws(FieldError) -> String {
        let text = try field.text()
        guard text.utf8.count <= Self.maxTextBytes else {
            throw field.error("is \(text.utf8.count) bytes long; the limit is \(Self.maxTextBytes)")
        }
        return text
    }

    package func markdown(_ field: JSONField) throws(FieldError) -> String {
        let text = try field.string()
        guard text.utf8.count <= Self.maxMarkdownBytes else {
            throw field.error("Markdown is \(text.utf8.count) bytes long; the limit is \(Self.maxMarkdownBytes)")
        }
        return text
    }
}
