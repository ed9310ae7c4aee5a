import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

/// A three-day trip Chicago (days 1–2) → Milwaukee (days 2–3), built in code.
enum ItinerarySample {
    static let chicago = TimeZone(identifier: "America/Chicago")!
    static let reader = ExportDateReader(timeZone: chicago, numericDates: .reference)
    static func date(_ text: String) -> Date { reader.parse(text)! }
    static let source = SourceRef(file: "items.json", line: 7, column: 3)

    static func game(_ id: String, _ start: String, zone: String? = "America/Chicago", away: String = "STL", home: String = "CHC") -> Game {
        Game(id: id, sport: "mlb", awayTeam: away, homeTeam: home, startTime: date(start), venue: "Wrigley Field", city: "Chicago",
             timeZone: zone.map { TimeZone(identifier: $0)! }, source: SourceRef(file: "games.json", line: 1, column: 1))
    }

    static let segmentId = "AAAAAAAA-0000-0000-0000-000000000001"

    static func trip(segmentDeparture: String? = nil, day1: [String] = ["g1"], day3: [String] = ["g2"]) -> Trip {
        Trip(id: UUID(uuidString: "11111111-1111-1111-1111-111111111111")!, name: "Lakefront",
             preferences: TripPreferences(startDate: date("2026-06-12"), endDate: date("2026-06-14"), sports: ["mlb"]),
             stops: [
                Stop(city: "Chicago", state: "IL", latitude: 41.95, longitude: -87.66, arrivalDate: date("2026-06-12"),
                     departureDate: date("2026-06-13"), games: day1),
                Stop(city: "Milwaukee", state: "WI", latitude: 43.03, longitude: -87.97, arrivalDate: date("2026-06-13"),
                     departureDate: date("2026-06-14"), games: day3),
             ],
             travelSegments: [TravelSegment(id: segmentId, fromCity: "Chicago", toCity: "Milwaukee", distanceMeters: 148_000,
                                            durationSeconds: 5_700, departureDate: segmentDeparture.map(date))],
             totalGames: 2, totalDistanceMeters: 148_000, totalDrivingSeconds: 5_700, notes: nil)
    }

    static let catalog = [
        "g1": game("g1", "2026-06-12T13:20:00-05:00"),
        "g2": game("g2", "2026-06-14T18:10:00-05:00", away: "CIN", home: "MIL"),
        "g0": game("g0", "2026-06-13T12:05:00-05:00", away: "SF", home: "CHC"),
    ]

    static func item(_ id: String, _ anchor: CustomItem.Anchor, day: Int, created: String = "2026-05-01T10:00:00Z",
                     category: CustomItem.Category = .note) -> CustomItem {
        CustomItem(id: id, tripId: "11111111-1111-1111-1111-111111111111", category: category, title: "Item \(id)", anchor: anchor,
                   anchorDay: day, createdAt: date(created), modifiedAt: date(created), notes: nil, source: source)
    }

    /// A compact picture of a day: "item:a", "game:g1", "travel", "unknown:x".
    static func names(_ day: ItineraryTimeline.Day) -> [String] {
        day.entries.map { entry in
            switch entry {
            case .game(let game): return "game:\(game.id)"
            case .unknownGame(let id): return "unknown:\(id)"
            case .travel: return "travel"
            case .item(let item): return "item:\(item.id)"
            }
        }
    }
}

@Suite("Itinerary timeline (docs/rules.md)")
struct ItineraryTimelineTests {
    typealias S = ItinerarySample

    func timeline(_ trip: Trip = S.trip(), items: [CustomItem] = [], catalog: [String: Game] = S.catalog) -> ItineraryTimeline {
        ItineraryTimeline.build(trip: trip, catalog: catalog, items: items, timeZone: S.chicago)
    }

    @Test("Days run from start to end date, each naming its city")
    func days() {
        let result = timeline()
        #expect(result.days.map(\.number) == [1, 2, 3])
        #expect(result.days.map(\.cities) == [["Chicago"], ["Chicago", "Milwaukee"], ["Milwaukee"]])
        #expect(result.days[0].date == S.date("2026-06-12"))
        #expect(result.warnings.isEmpty)
    }

    @Test("A segment without a departure date comes after the games of the day its from-stop is left")
    func segmentWithoutDeparture() {
        let trip = S.trip(day1: ["g1", "g0"])
        #expect(timeline(trip).days.map(S.names) == [["game:g1"], ["game:g0", "travel"], ["game:g2"]])
    }

    @Test("A segment leaving from none of the trip's stops is shown on the first day, with a warning")
    func segmentFromNowhere() {
        var trip = S.trip()
        trip.travelSegments[0].fromCity = "Atlantis"
        let result = timeline(trip)
        #expect(result.days.map(S.names) == [["game:g1", "travel"], [], ["game:g2"]])
        #expect(result.warnings.map(\.message) == [
            "trip \"Lakefront\": travel segment \(S.segmentId) leaves from \"Atlantis\", none of its stops in route order; shown after the first day's games, in the site's time zone",
        ])
    }

    @Test("A segment with a departure date sits at that time among the games")
    func segmentWithDeparture() {
        let trip = S.trip(segmentDeparture: "2026-06-13T09:00:00-05:00", day1: ["g1", "g0"])
        #expect(timeline(trip).days.map(S.names) == [["game:g1"], ["travel", "game:g0"], ["game:g2"]])
    }

    @Test("A game without a time comes first at its stop: after the day's drive there, before a drive on")
    func dateOnlyGameAfterTheDriveThere() {
        var tbd = S.game("tbd", "2026-06-13", away: "SD", home: "MIL")
        tbd.startIsDateOnly = true
        var catalog = S.catalog
        catalog["tbd"] = tbd
        // Day 2: Chicago's noon game, the drive, then Milwaukee's game of unset hour.
        #expect(timeline(S.trip(day1: ["g1", "g0"], day3: ["tbd", "g2"]), catalog: catalog).days.map(S.names)
                == [["game:g1"], ["game:g0", "travel", "game:tbd"], ["game:g2"]])
        // A drive at 9 AM: still after it, and before Chicago's timed game (left behind, as
        // the export has it).
        #expect(timeline(S.trip(segmentDeparture: "2026-06-13T09:00:00-05:00", day1: ["g1"], day3: ["tbd", "g2"]), catalog: catalog).days.map(S.names)
                == [["game:g1"], ["travel", "game:tbd"], ["game:g2"]])
        // At the stop being left, first of the day, before the drive.
        #expect(timeline(S.trip(day1: ["g1", "tbd", "g0"], day3: ["g2"]), catalog: catalog).days.map(S.names)
                == [["game:g1"], ["game:tbd", "game:g0", "travel"], ["game:g2"]])
    }

    @Test("A game without a time at the middle stop of two untimed drives in a day sits between them")
    func dateOnlyGameBetweenDrives() {
        var tbd = S.game("tbd", "2026-06-13", away: "SD", home: "MIL")
        tbd.startIsDateOnly = true
        var trip = S.trip(day1: ["g1", "g0"], day3: ["g2"])
        trip.stops.insert(Stop(city: "Kenosha", state: "WI", latitude: 42.58, longitude: -87.82, arrivalDate: S.date("2026-06-13"),
                               departureDate: S.date("2026-06-13"), games: ["tbd"]), at: 1)
        trip.travelSegments = [
            TravelSegment(id: "d1", fromCity: "Chicago", toCity: "Kenosha", distanceMeters: 90_000, durationSeconds: 3_600, departureDate: nil),
            TravelSegment(id: "d2", fromCity: "Kenosha", toCity: "Milwaukee", distanceMeters: 60_000, durationSeconds: 2_400, departureDate: nil),
        ]
        var catalog = S.catalog
        catalog["tbd"] = tbd
        #expect(timeline(trip, catalog: catalog).days.map(S.names) == [["game:g1"], ["game:g0", "travel", "game:tbd", "travel"], ["game:g2"]])
    }

    @Test("An item's notes put their headings under the day's h3, or under Unscheduled's h2")
    func itemNotesHeadings() throws {
        let config = try SiteConfigLoader.parse("title: T\n", file: URL(fileURLWithPath: "/site/site.yml"))
        let kit = RenderKit(config: config, templates: try TemplateSet.load(from: Repository.root.appendingPathComponent("Templates"), required: []),
                            links: SiteLinks(style: config.urls, baseURL: nil), format: Formatting(timeZone: .gmt), buildTime: nil, navigation: [])
        var item = S.item("a", .startOfDay, day: 1)
        item.notes = "# Parking\n\nLot C."
        #expect(ItineraryPages.entryModel(.item(item), kit: kit).entryNotesHTML == "<h4>Parking</h4>\n<p>Lot C.</p>\n")
        #expect(ItineraryPages.entryModel(.item(item), kit: kit, dated: true).entryNotesHTML == "<h3>Parking</h3>\n<p>Lot C.</p>\n")
    }

    @Test("Items: start of day, after a game, after a segment, shared anchors in createdAt order")
    func placement() {
        let items = [
            S.item("late", .afterGame("g1"), day: 1, created: "2026-05-03T00:00:00Z"),
            S.item("early", .afterGame("g1"), day: 1, created: "2026-05-01T00:00:00Z"),
            S.item("b-same", .afterGame("g1"), day: 1, created: "2026-05-02T00:00:00Z"),
            S.item("a-same", .afterGame("g1"), day: 1, created: "2026-05-02T00:00:00Z"),   // same createdAt: id order
            S.item("morning", .startOfDay, day: 2, category: .hotel),
            S.item("drive", .afterTravel(S.segmentId), day: 2),
            S.item("lastday", .startOfDay, day: 3),
        ]
        let result = timeline(items: items)
        #expect(result.days.map(S.names) == [
            ["game:g1", "item:early", "item:a-same", "item:b-same", "item:late"],
            ["item:morning", "travel", "item:drive"],
            ["item:lastday", "game:g2"],
        ])
        #expect(result.warnings.isEmpty)
    }

    @Test("A vanished anchor falls back to the start of its day, with a warning naming the item")
    func vanishedAnchor() {
        let items = [
            S.item("gone", .afterGame("g-removed"), day: 2, created: "2026-05-02T00:00:00Z"),
            S.item("wrong-day", .afterGame("g2"), day: 1, created: "2026-05-02T00:00:00Z"),
            S.item("first", .startOfDay, day: 2, created: "2026-05-01T00:00:00Z"),
            S.item("no-segment", .afterTravel("BBBBBBBB-0000-0000-0000-000000000000"), day: 3),
        ]
        let result = timeline(items: items)
        #expect(result.days.map(S.names) == [
            ["item:wrong-day", "game:g1"],
            ["item:first", "item:gone", "travel"],
            ["item:no-segment", "game:g2"],
        ])
        // Warnings follow the items' createdAt order: no-segment (May 1), gone and wrong-day (May 2, by id).
        #expect(result.warnings.map(\.message) == [
            "item \"Item no-segment\" (no-segment): its anchor travel segment BBBBBBBB-0000-0000-0000-000000000000 is not on day 3; shown at the start of the day",
            "item \"Item gone\" (gone): its anchor game g-removed is not on day 2; shown at the start of the day",
            "item \"Item wrong-day\" (wrong-day): its anchor game g2 is not on day 1; shown at the start of the day",
        ])
        #expect(result.warnings.allSatisfy { $0.source == S.source })
    }

    @Test("An anchorDay outside the trip goes to Unscheduled, with a warning", arguments: [0, 4, -1, 99])
    func outsideTrip(day: Int) {
        let result = timeline(items: [S.item("x", .startOfDay, day: day)])
        #expect(result.days.flatMap(S.names).contains("item:x") == false)
        #expect(result.unscheduled.count == 1)
        #expect(result.warnings.map(\.message) == ["item \"Item x\" (x) is on day \(day), outside the trip's 3 days; listed under Unscheduled"])
    }

    @Test("An unknown game id is shown by its id on its stop's day, with a warning")
    func unknownGame() {
        let result = timeline(S.trip(day3: ["g2", "mlb-2026-06-99-unknown"]))
        #expect(S.names(result.days[1]) == ["travel", "unknown:mlb-2026-06-99-unknown"])
        #expect(result.warnings.map(\.message) == ["trip \"Lakefront\": no game catalog holds game mlb-2026-06-99-unknown; the page shows its id"])
    }

    @Test("A night game on the West Coast stays on its local date, shown in its own zone")
    func acrossZones() {
        // 7:10 PM PDT on June 13 is 02:10 UTC on June 14 and 9:10 PM CDT on June 13.
        let late = S.game("g-la", "2026-06-13T19:10:00-07:00", zone: "America/Los_Angeles", away: "SD", home: "LAD")
        let result = timeline(S.trip(day1: ["g1", "g-la"]), catalog: S.catalog.merging(["g-la": late]) { $1 })
        #expect(S.names(result.days[1]).contains("game:g-la"))
        let format = Formatting(timeZone: S.chicago)
        #expect(format.time(late.startTime, in: late.timeZone) == "7:10 PM PDT")
        // A Texas game at 7:05 PM local must never show as 12:05 AM.
        let texas = S.game("g-tx", "2026-06-13T19:05:00-05:00", zone: "America/Chicago", away: "SEA", home: "TEX")
        #expect(format.time(texas.startTime, in: texas.timeZone) == "7:05 PM CDT")
        #expect(format.time(texas.startTime, in: TimeZone(identifier: "America/Phoenix")) == "5:05 PM MST")
        #expect(format.time(texas.startTime, in: TimeZone(identifier: "America/New_York")) == "8:05 PM EDT")
        // A game without a zone uses the site's.
        #expect(format.time(texas.startTime, in: nil) == "7:05 PM CDT")
    }

    @Test("Games abroad show their zone's own abbreviation, as the tz database writes it")
    func abroad() {
        let format = Formatting(timeZone: S.chicago)
        func shown(_ instant: String, _ zone: String) -> String { format.time(S.date(instant), in: TimeZone(identifier: zone)) }
        // MLB's London, Tokyo and Seoul series; ICU's English names had only "GMT+1", "GMT+9".
        #expect(shown("2026-06-13T12:00:00Z", "Europe/London") == "1:00 PM BST")
        #expect(shown("2026-01-13T12:00:00Z", "Europe/London") == "12:00 PM GMT")
        #expect(shown("2026-03-18T10:05:00Z", "Asia/Tokyo") == "7:05 PM JST")
        #expect(shown("2026-03-20T09:05:00Z", "Asia/Seoul") == "6:05 PM KST")
        #expect(shown("2026-06-13T16:00:00Z", "Europe/Berlin") == "6:00 PM CEST")
        #expect(shown("2026-06-13T15:00:00Z", "America/St_Johns") == "12:30 PM NDT")
        #expect(shown("2026-06-13T12:00:00Z", "Asia/Kolkata") == "5:30 PM IST")
        #expect(shown("2026-06-13T17:00:00Z", "Etc/UTC") == "5:00 PM UTC")
        // Foundation knows the zone "UTC" by the identifier "GMT".
        #expect(TimeZone(identifier: "UTC")?.identifier == "GMT")
        // Ireland's standard time is its summer time; its winter time is "negative" daylight time.
        #expect(shown("2026-06-13T12:00:00Z", "Europe/Dublin") == "1:00 PM IST")
        #expect(shown("2026-01-13T12:00:00Z", "Europe/Dublin") == "12:00 PM GMT")
        // The tz database writes São Paulo's as a number ("-03"): the offset is shown.
        #expect(shown("2026-06-13T12:00:00Z", "America/Sao_Paulo") == "9:00 AM UTC−3")
        // North America as before.
        #expect(shown("2026-06-13T23:00:00Z", "America/Chicago") == "6:00 PM CDT")
        #expect(shown("2026-01-13T23:00:00Z", "America/Halifax") == "7:00 PM AST")
    }

    @Test("Zone names: POSIX TZ strings read, paths out of the zoneinfo folder refused, no file no name")
    func zoneAbbreviations() {
        typealias Z = ZoneAbbreviations
        #expect(Z.parse("GMT0BST,M3.5.0/1,M10.5.0") == Z.Names(standard: ("GMT", 0), daylight: ("BST", 3600)))
        #expect(Z.parse("NST3:30NDT,M3.2.0,M11.1.0") == Z.Names(standard: ("NST", -12_600), daylight: ("NDT", -9_000)))
        #expect(Z.parse("IST-1GMT0,M10.5.0,M3.5.0/1") == Z.Names(standard: ("IST", 3600), daylight: ("GMT", 0)))
        #expect(Z.parse("<-03>3") == Z.Names(standard: ("-03", -10_800), daylight: nil))
        #expect(Z.parse("JST-9") == Z.Names(standard: ("JST", 32_400), daylight: nil))
        #expect(Z.parse("") == nil)
        #expect(Z.isZoneName("America/Argentina/Buenos_Aires") && Z.isZoneName("Etc/GMT+5"))
        #expect(!Z.isZoneName("../../etc/passwd") && !Z.isZoneName("/etc/passwd") && !Z.isZoneName("Europe//London") && !Z.isZoneName(""))
        #expect(ZoneAbbreviations(folder: "/nonexistent").abbreviation("Europe/London", offset: 3600, isDaylightSaving: true) == nil)
        // A name whose offset is not the one computed (other rules, another tzdata) is not taken.
        #expect(Z.shared.abbreviation("Europe/London", offset: 7200, isDaylightSaving: true) == nil)
        #expect(Z.shared.version?.isEmpty == false)
    }

    /// Two stops with one drive between them and a game at each; `segmentDeparture` is
    /// an ISO 8601 string or nil.
    func twoStopTrip(from: (city: String, zone: String, game: String), to: (city: String, zone: String, game: String),
                     segmentDeparture: String? = nil) -> (Trip, [String: Game]) {
        let trip = Trip(id: UUID(), name: "Seed day", preferences: TripPreferences(startDate: S.date("2026-06-19"), endDate: S.date("2026-06-21"), sports: ["mlb"]),
                        stops: [
                            Stop(city: from.city, state: "", latitude: 32.75, longitude: -97.08, arrivalDate: S.date("2026-06-19"),
                                 departureDate: S.date("2026-06-20"), games: ["from"]),
                            Stop(city: to.city, state: "", latitude: 43.03, longitude: -87.97, arrivalDate: S.date("2026-06-20"),
                                 departureDate: S.date("2026-06-21"), games: ["to"]),
                        ],
                        travelSegments: [TravelSegment(id: "drive", fromCity: from.city, toCity: to.city, distanceMeters: 1_600_000,
                                                       durationSeconds: 54_000, departureDate: segmentDeparture.map(S.date))],
                        totalGames: 2, totalDistanceMeters: 1_600_000, totalDrivingSeconds: 54_000, notes: nil)
        let catalog = ["from": S.game("from", from.game, zone: from.zone), "to": S.game("to", to.game, zone: to.zone)]
        return (trip, catalog)
    }

    @Test("The seed's day: SFG @ TEX → Drive to Milwaukee → PIT @ MIL (a drive without a departure time)")
    func seedGameDriveGame() {
        let (trip, games) = twoStopTrip(from: ("Arlington", "America/Chicago", "2026-06-20T12:05:00-05:00"),
                                          to: ("Milwaukee", "America/Chicago", "2026-06-20T19:10:00-05:00"))
        var catalog = games
        catalog["from"]!.awayTeam = "SFG"; catalog["from"]!.homeTeam = "TEX"
        catalog["to"]!.awayTeam = "PIT"; catalog["to"]!.homeTeam = "MIL"
        let result = timeline(trip, catalog: catalog)
        #expect(result.days.map(S.names) == [[], ["game:from", "travel", "game:to"], []])
        let titles = result.days[1].entries.map { entry -> String in
            switch entry {
            case .game(let game): return "\(game.awayTeam) @ \(game.homeTeam)"
            case .travel(let segment, _): return "Drive to \(segment.toCity)"
            default: return "?"
            }
        }
        #expect(titles == ["SFG @ TEX", "Drive to Milwaukee", "PIT @ MIL"])
        #expect(result.days[1].cities == ["Arlington", "Milwaukee"])
    }

    @Test("A drive's time is shown in its from-stop's zone: Boston in EDT, Phoenix in MST (no DST), beside a Central site zone")
    func driveZone() throws {
        let format = Formatting(timeZone: S.chicago)
        func drive(_ result: ItineraryTimeline) -> (day: Int, segment: TravelSegment, zone: TimeZone?)? {
            for day in result.days {
                for case .travel(let segment, let zone) in day.entries { return (day.number, segment, zone) }
            }
            return nil
        }
        // East Coast: 14:00 UTC is 10:00 AM EDT in Boston (9:00 AM CDT at the site).
        let (boston, bostonGames) = twoStopTrip(from: ("Boston", "America/New_York", "2026-06-19T19:10:00-04:00"),
                                                to: ("Cooperstown", "America/New_York", "2026-06-20T19:05:00-04:00"),
                                                segmentDeparture: "2026-06-20T14:00:00Z")
        let east = try #require(drive(timeline(boston, catalog: bostonGames)))
        #expect(east.zone?.identifier == "America/New_York")
        #expect(format.time(east.segment.departureDate!, in: east.zone) == "10:00 AM EDT")
        // Arizona keeps MST all summer: 15:00 UTC is 8:00 AM MST (10:00 AM CDT, 11:00 AM EDT).
        let (phoenix, phoenixGames) = twoStopTrip(from: ("Phoenix", "America/Phoenix", "2026-06-19T18:40:00-07:00"),
                                                  to: ("Denver", "America/Denver", "2026-06-20T18:40:00-06:00"),
                                                  segmentDeparture: "2026-06-20T15:00:00Z")
        let west = try #require(drive(timeline(phoenix, catalog: phoenixGames)))
        #expect(west.zone?.identifier == "America/Phoenix")
        #expect(format.time(west.segment.departureDate!, in: west.zone) == "8:00 AM MST")
        #expect(west.day == 2)
        // 10:30 PM MST on June 19 in Phoenix is already June 20 in Chicago: the drive stays on
        // the day it leaves by Phoenix's clock.
        let (late, lateGames) = twoStopTrip(from: ("Phoenix", "America/Phoenix", "2026-06-19T12:40:00-07:00"),
                                            to: ("Denver", "America/Denver", "2026-06-20T18:40:00-06:00"),
                                            segmentDeparture: "2026-06-20T05:30:00Z")
        let night = try #require(drive(timeline(late, catalog: lateGames)))
        #expect(night.day == 1)
        #expect(format.time(night.segment.departureDate!, in: night.zone) == "10:30 PM MST")
        // A from-stop without games of known zone: the zone of the stop it reaches (on a
        // London site, a drive from Boston was shown at 3:00 PM BST), else the one before it,
        // else the site's.
        var noGames = boston
        noGames.stops[0].games = []
        let next = try #require(drive(timeline(noGames, catalog: bostonGames)))
        #expect(next.zone?.identifier == "America/New_York")
        #expect(format.time(next.segment.departureDate!, in: next.zone) == "10:00 AM EDT")
        noGames.stops[1].games = []
        let site = try #require(drive(timeline(noGames, catalog: bostonGames)))
        #expect(site.zone == nil)
        #expect(format.time(site.segment.departureDate!, in: site.zone) == "9:00 AM CDT")
    }

    @Test("A drive leaving a stop without games, late in the evening, stays on its day by the zone of the stop it reaches")
    func gamelessStopOnAnEasternTrip() throws {
        let london = try #require(TimeZone(identifier: "Europe/London"))
        let reader = ExportDateReader(timeZone: london, numericDates: .reference)
        var (trip, catalog) = twoStopTrip(from: ("Boston", "America/New_York", "2026-06-19T19:10:00-04:00"),
                                          to: ("New York", "America/New_York", "2026-06-20T19:05:00-04:00"),
                                          segmentDeparture: "2026-06-19T21:00:00-04:00")
        trip.stops[0].games = []
        trip.preferences.startDate = reader.parse("2026-06-19")!
        trip.preferences.endDate = reader.parse("2026-06-21")!
        let result = ItineraryTimeline.build(trip: trip, catalog: catalog, items: [], timeZone: london)
        // 9 PM EDT is 2 AM BST the next day: it was day 2, headed "Boston → New York" there.
        #expect(result.days.map(S.names) == [["travel"], ["game:to"], []])
        #expect(result.days.map(\.cities) == [["Boston", "New York"], ["New York"], ["New York"]])
    }

    @Test("A drive's departureDate at midnight in the site's zone names a day: on it, with no made-up time")
    func drivePickedDay() throws {
        let london = try #require(TimeZone(identifier: "Europe/London"))
        let reader = ExportDateReader(timeZone: london, numericDates: .reference)
        var (trip, catalog) = twoStopTrip(from: ("New York", "America/New_York", "2026-06-19T19:10:00-04:00"),
                                          to: ("Boston", "America/New_York", "2026-06-20T19:05:00-04:00"))
        trip.preferences.startDate = reader.parse("2026-06-19")!
        trip.preferences.endDate = reader.parse("2026-06-21")!
        // June 20 at 00:00 BST, as JSONEncoder writes a picked day: 7 PM EDT on June 19 in New York.
        trip.travelSegments[0].departureDate = reader.parse("2026-06-20")!
        let result = ItineraryTimeline.build(trip: trip, catalog: catalog, items: [], timeZone: london)
        #expect(result.days.map(S.names) == [["game:from"], ["travel", "game:to"], []])
        guard case .travel(let segment, _) = result.days[1].entries[0] else {
            Issue.record("no drive on day 2")
            return
        }
        #expect(segment.departureIsDateOnly)
        #expect(result.days.map(\.cities) == [["New York"], ["New York", "Boston"], ["Boston"]])
    }

    @Test("A drive dated outside the trip is listed under Unscheduled, with a warning at its departureDate; an item after it goes to the start of its day, as one after an unscheduled game does",
          arguments: ["2026-06-01T10:00:00-05:00", "2026-06-20T10:00:00-05:00"])
    func driveOutsideTrip(departure: String) {
        var trip = S.trip(segmentDeparture: departure, day3: ["g2", "g-late"])
        trip.travelSegments[0].departureDatePlace = FieldPlace(offset: 612, path: "trip.travelSegments[0].departureDate")
        let late = S.game("g-late", "2026-06-20T19:05:00-05:00")
        let items = [S.item("after-drive", .afterTravel(S.segmentId), day: 2), S.item("after-game", .afterGame("g-late"), day: 3)]
        let result = timeline(trip, items: items, catalog: S.catalog.merging(["g-late": late]) { $1 })
        // It was shown on day 1 (or 3) at 10:00 AM CDT, as if it left then.
        #expect(result.days.map(S.names) == [["game:g1"], ["item:after-drive"], ["item:after-game", "game:g2"]])
        #expect(result.unscheduled == [.game(late), .travel(trip.travelSegments[0], zone: S.chicago)])
        #expect(result.warnings.map(\.message) == [
            "game g-late is outside the dates of trip \"Lakefront\"; listed under Unscheduled",
            "travel segment \(S.segmentId) (Chicago → Milwaukee) is outside the dates of trip \"Lakefront\"; listed under Unscheduled",
            "item \"Item after-drive\" (after-drive): its anchor travel segment \(S.segmentId) is not on day 2; shown at the start of the day",
            "item \"Item after-game\" (after-game): its anchor game g-late is not on day 3; shown at the start of the day",
        ])
        #expect(result.warnings[1].source == nil)
        #expect(result.warnings[1].offset == 612)
        #expect(result.warnings[1].field == "trip.travelSegments[0].departureDate")
        #expect(result.warnings[1].summary == "travel segments outside the dates of their trip are listed under Unscheduled")
    }

    @Test("A trip longer than 366 days is cut there; the timeline says so")
    func longTripCut() {
        var (trip, catalog) = twoStopTrip(from: ("Chicago", "America/Chicago", "2026-06-20T13:20:00-05:00"),
                                          to: ("Milwaukee", "America/Chicago", "2026-06-20T18:40:00-05:00"))
        trip.preferences.startDate = S.date("2028-01-01")
        trip.preferences.endDate = S.date("2029-01-01")
        let result = timeline(trip, catalog: catalog)
        #expect(result.days.count == 366 && result.isCut)
        trip.preferences.endDate = S.date("2028-12-31")
        #expect(!timeline(trip, catalog: catalog).isCut)
    }

    @Test("A drive dated without a time, or at the site's midnight, comes after the games of the city it leaves, as one without a date does")
    func driveDatedWithoutTime() {
        for departure in ["2026-06-20", "2026-06-20T00:00:00-05:00"] {
            var (trip, catalog) = twoStopTrip(from: ("Chicago", "America/Chicago", "2026-06-20T13:20:00-05:00"),
                                              to: ("Milwaukee", "America/Chicago", "2026-06-20T18:40:00-05:00"))
            trip.travelSegments[0].departureDate = S.date(departure)
            trip.travelSegments[0].departureIsDateOnly = departure.count == 10
            // Drive, SFG @ CHC, PIT @ MIL: friends read that they left before the Cubs game.
            #expect(timeline(trip, catalog: catalog).days.map(S.names) == [[], ["game:from", "travel", "game:to"], []], "\(departure)")
        }
    }

    @Test("A drive without a departure date whose stop is left outside the trip is listed under Unscheduled, warned about at the stop's departureDate")
    func undatedDriveLeftOutsideTrip() {
        var (trip, catalog) = twoStopTrip(from: ("Chicago", "America/Chicago", "2026-06-20T13:20:00-05:00"),
                                          to: ("Milwaukee", "America/Chicago", "2026-06-20T18:40:00-05:00"))
        trip.stops[0].departureDate = S.date("2026-06-25")
        trip.stops[0].departurePlace = FieldPlace(offset: 140, path: "trip.stops[0].departureDate")
        let result = timeline(trip, catalog: catalog)
        // It was put on the last day without a word.
        #expect(result.days.map(S.names) == [[], ["game:from", "game:to"], []])
        #expect(result.unscheduled.count == 1)
        #expect(result.warnings.map(\.message) == ["travel segment drive (Chicago → Milwaukee) is outside the dates of trip \"Seed day\": its stop in Chicago is left then; listed under Unscheduled"])
        #expect(result.warnings.first?.offset == 140)
        #expect(result.warnings.first?.field == "trip.stops[0].departureDate")
    }

    @Test("A drive without a departure time is dated by its from-stop's departure in that stop's zone: leaving L.A. at 11:30 PM PDT stays on that day beside a Central site zone")
    func driveDatedInFromStopZone() {
        var (trip, catalog) = twoStopTrip(from: ("Los Angeles", "America/Los_Angeles", "2026-06-19T19:10:00-07:00"),
                                          to: ("San Diego", "America/Los_Angeles", "2026-06-20T18:40:00-07:00"))
        // 11:30 PM PDT on June 19 is 1:30 AM CDT on June 20: it was shown on day 2.
        trip.stops[0].departureDate = S.date("2026-06-19T23:30:00-07:00")
        #expect(timeline(trip, catalog: catalog).days.map(S.names) == [["game:from", "travel"], ["game:to"], []])
        // The headings agree: day 1 is the travel day, L.A. left and San Diego reached with
        // its drive (day 2 read "Los Angeles → San Diego", with nothing planned on the way).
        #expect(timeline(trip, catalog: catalog).days.map(\.cities) == [["Los Angeles", "San Diego"], ["San Diego"], ["San Diego"]])
        // A departure written as a date alone names that date wherever the stop is:
        // "2026-06-20" is midnight in Chicago, 10 PM on June 19 in L.A.
        trip.stops[0].departureDate = S.date("2026-06-20")
        trip.stops[0].departureIsDateOnly = true
        #expect(timeline(trip, catalog: catalog).days.map(S.names) == [["game:from"], ["travel", "game:to"], []])
        // So does a drive's own departureDate: "2026-06-19" is the trip's first day, not before
        // it. It has no time, so it comes after the games of the city it leaves, as a drive
        // without a departureDate does: it came first, at midnight, before the L.A. game.
        trip.travelSegments[0].departureDate = S.date("2026-06-19")
        trip.travelSegments[0].departureIsDateOnly = true
        let result = timeline(trip, catalog: catalog)
        #expect(result.days.map(S.names) == [["game:from", "travel"], ["game:to"], []])
        #expect(result.unscheduled.isEmpty && result.warnings.isEmpty)
    }

    @Test("A departure at midnight in the site's zone, as the app's JSONEncoder writes a day, names that day: the drive and headings stay on it beside western games")
    func midnightDepartureNamesItsDay() {
        var (trip, catalog) = twoStopTrip(from: ("Los Angeles", "America/Los_Angeles", "2026-06-19T19:10:00-07:00"),
                                          to: ("San Diego", "America/Los_Angeles", "2026-06-20T18:40:00-07:00"))
        // June 20 at 00:00 CDT is 10 PM PDT on June 19: read in L.A.'s zone, the drive and the
        // heading that leaves L.A. landed on day 1, the evening before the day the app meant.
        trip.stops[0].departureDate = S.date("2026-06-20T00:00:00-05:00")
        let result = timeline(trip, catalog: catalog)
        #expect(result.days.map(S.names) == [["game:from"], ["travel", "game:to"], []])
        #expect(result.days.map(\.cities) == [["Los Angeles"], ["Los Angeles", "San Diego"], ["San Diego"]])
        // Any other time is an instant, read in the stop's zone: 11 PM CDT is 9 PM PDT on June 19.
        trip.stops[0].departureDate = S.date("2026-06-19T23:00:00-05:00")
        #expect(timeline(trip, catalog: catalog).days.map(S.names) == [["game:from", "travel"], ["game:to"], []])
    }

    @Test("A date written alone is part of a trip's value, so of a poll's key: it can move a drive to another day; where a date was read is not")
    func dateOnlyIsPartOfTheValue() {
        func digest(_ trip: Trip) -> String { ValueDigest.of(trip, context: "c") }
        var stop = S.trip(), segment = S.trip(segmentDeparture: "2026-06-13"), place = S.trip()
        stop.stops[0].departureIsDateOnly = true
        segment.travelSegments[0].departureIsDateOnly = true
        place.travelSegments[0].departureDatePlace = FieldPlace(offset: 9, path: "travelSegments[0].departureDate")
        #expect(stop != S.trip() && digest(stop) != digest(S.trip()))
        #expect(segment != S.trip(segmentDeparture: "2026-06-13") && digest(segment) != digest(S.trip(segmentDeparture: "2026-06-13")))
        #expect(place == S.trip() && digest(place) == digest(S.trip()))
    }

    @Test("A route line is the stops as travelled: a city visited twice is named twice, consecutive stops in one city once")
    func routeCities() {
        func trip(_ stops: [(city: String, state: String)]) -> Trip {
            var trip = S.trip()
            trip.stops = stops.map { Stop(city: $0.city, state: $0.state, latitude: 0, longitude: 0, arrivalDate: S.date("2026-06-12"),
                                          departureDate: S.date("2026-06-12"), games: []) }
            return trip
        }
        let loop = trip([("Phoenix", "AZ"), ("Los Angeles", "CA"), ("Phoenix", "AZ"), ("Tucson", "AZ")])
        #expect(loop.routeCities == ["Phoenix", "Los Angeles", "Phoenix", "Tucson"])
        #expect(loop.distinctCities == ["Phoenix", "Los Angeles", "Tucson"])
        #expect(trip([("Chicago", "IL"), ("chicago", "il"), ("Milwaukee", "WI")]).routeCities == ["Chicago", "Milwaukee"])
        // Two cities of one name: each with its state (Trip.stopNames).
        #expect(trip([("Kansas City", "MO"), ("Kansas City", "KS")]).routeCities == ["Kansas City, MO", "Kansas City, KS"])
    }

    @Test("Days and times across a DST change")
    func acrossDST() {
        // US DST ends 2026-11-01 at 2:00 AM: Oct 31 is CDT, Nov 1 is CST.
        let trip = Trip(id: UUID(), name: "Fall", preferences: TripPreferences(startDate: S.date("2026-10-31"), endDate: S.date("2026-11-02"), sports: []),
                        stops: [Stop(city: "Chicago", state: "IL", latitude: 41.9, longitude: -87.6, arrivalDate: S.date("2026-10-31"),
                                     departureDate: S.date("2026-11-02"), games: ["before", "after"])],
                        travelSegments: [], totalGames: 2, totalDistanceMeters: 0, totalDrivingSeconds: 0, notes: nil)
        let before = S.game("before", "2026-10-31T19:00:00-05:00")
        let after = S.game("after", "2026-11-01T19:00:00-06:00")
        let result = ItineraryTimeline.build(trip: trip, catalog: ["before": before, "after": after], items: [], timeZone: S.chicago)
        #expect(result.days.map(S.names) == [["game:before"], ["game:after"], []])
        #expect(result.days.map(\.date) == [S.date("2026-10-31"), S.date("2026-11-01"), S.date("2026-11-02")])
        #expect(result.days[2].date.timeIntervalSince(result.days[1].date) == 25 * 3600)   // the day with the extra hour
        let format = Formatting(timeZone: S.chicago)
        #expect(format.time(before.startTime) == "7:00 PM CDT")
        #expect(format.time(after.startTime) == "7:00 PM CST")
    }

    @Test("A time the clocks skip moves forward by the jump: 2:30 AM as Chicago springs forward, and Santiago's missing midnight")
    func skippedTimes() throws {
        let iso = ISO8601DateFormatter()
        // Chicago, 2026-03-08: 2:00 CST becomes 3:00 CDT. 2:30 AM does not exist; read as
        // 3:30 AM CDT (java.time, ICU), not 1:30 AM CST, an hour before the time written.
        #expect(S.date("2026-03-08T02:30:00") == iso.date(from: "2026-03-08T08:30:00Z"))
        #expect(Formatting(timeZone: S.chicago).time(S.date("2026-03-08T02:30:00")) == "3:30 AM CDT")
        #expect(S.date("2026-03-08T01:59:00") == iso.date(from: "2026-03-08T07:59:00Z"))
        #expect(S.date("2026-03-08T03:00:00") == iso.date(from: "2026-03-08T08:00:00Z"))
        // Falling back, 1:30 AM comes twice: the first, in CDT, as before.
        #expect(S.date("2026-11-01T01:30:00") == iso.date(from: "2026-11-01T06:30:00Z"))

        // East of Greenwich too: the first 1:30 AM is BST, the first 2:30 AM in Sydney AEDT,
        // Lord Howe's first 1:45 AM +11. They were read as the second.
        let fallBacks: [(String, String, String)] = [
            ("Europe/London", "2026-10-25T01:30:00", "2026-10-25T00:30:00Z"),
            ("Europe/Berlin", "2026-10-25T02:30:00", "2026-10-25T00:30:00Z"),
            ("Australia/Sydney", "2026-04-05T02:30:00", "2026-04-04T15:30:00Z"),
            ("Pacific/Auckland", "2026-04-05T02:30:00", "2026-04-04T13:30:00Z"),
            ("Australia/Lord_Howe", "2026-04-05T01:45:00", "2026-04-04T14:45:00Z"),
            ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z"),
        ]
        for (name, local, instant) in fallBacks {
            let zone = try #require(TimeZone(identifier: name))
            #expect(ExportDateReader(timeZone: zone, numericDates: .reference).parse(local) == iso.date(from: instant), "\(name)")
        }
        #expect(Formatting(timeZone: try #require(TimeZone(identifier: "Europe/London"))).time(try #require(iso.date(from: "2026-10-25T00:30:00Z"))) == "1:30 AM BST")

        // Santiago, 2026-09-06: clocks jump from 0:00 (-04) to 1:00 (-03). A trip starting
        // that day starts on it, not at 11 PM the evening before.
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        let reader = ExportDateReader(timeZone: santiago, numericDates: .reference)
        let start = try #require(reader.parse("2026-09-06"))
        #expect(start == iso.date(from: "2026-09-06T04:00:00Z"))
        #expect(ItineraryTimeline.dayNumber(start, santiago) == CivilDates.daysFromCivil(year: 2026, month: 9, day: 6))
        #expect(ItineraryTimeline.startOfDay(CivilDates.daysFromCivil(year: 2026, month: 9, day: 6), santiago) == start)
        let trip = Trip(id: UUID(), name: "Spring", preferences: TripPreferences(startDate: start, endDate: try #require(reader.parse("2026-09-08")), sports: []),
                        stops: [Stop(city: "Santiago", state: "RM", latitude: -33.45, longitude: -70.66, arrivalDate: start,
                                     departureDate: try #require(reader.parse("2026-09-08")), games: [])],
                        travelSegments: [], totalGames: 0, totalDistanceMeters: 0, totalDrivingSeconds: 0, notes: nil)
        let days = ItineraryTimeline.build(trip: trip, catalog: [:], items: [], timeZone: santiago).days
        let format = Formatting(timeZone: santiago)
        #expect(days.map { format.longDate($0.date) } == ["September 6, 2026", "September 7, 2026", "September 8, 2026"])
        #expect(format.dateRange(start, try #require(reader.parse("2026-09-08"))) == "Sep 6 – 8, 2026")
    }
}

@Suite("Calendar file (RFC 5545)")
struct CalendarFileTests {
    typealias S = ItinerarySample

    @Test("Events in time order with UTC instants, stable UIDs, CRLF, escaping")
    func events() {
        let games = [S.catalog["g2"]!, S.catalog["g1"]!]
        let ics = CalendarFile.ics(trip: S.trip(), games: games, calendarName: "Lakefront; fun, really", buildTime: S.date("2026-05-01T00:00:00Z"), format: Formatting(timeZone: TimeZone(identifier: "America/Chicago")!))
        #expect(ics == [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//sitegen//Trip games \(SitegenVersion.current)//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:Lakefront\\; fun\\, really",
            "BEGIN:VEVENT", "UID:g1-11111111-1111-1111-1111-111111111111@sitegen", "DTSTAMP:20260501T000000Z",
            "DTSTART:20260612T182000Z", "DTEND:20260612T212000Z", "SUMMARY:STL at CHC", "LOCATION:Wrigley Field\\, Chicago",
            "DESCRIPTION:MLB · Lakefront", "END:VEVENT",
            "BEGIN:VEVENT", "UID:g2-11111111-1111-1111-1111-111111111111@sitegen", "DTSTAMP:20260501T000000Z",
            "DTSTART:20260614T231000Z", "DTEND:20260615T021000Z", "SUMMARY:CIN at MIL", "LOCATION:Wrigley Field\\, Chicago",
            "DESCRIPTION:MLB · Lakefront", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n"))
    }

    @Test("Long lines fold at 75 octets without splitting a character")
    func folding() {
        let line = "SUMMARY:" + String(repeating: "é", count: 60) + String(repeating: "x", count: 40)
        let folded = CalendarFile.fold(line)
        let parts = folded.components(separatedBy: "\r\n")
        #expect(parts.count > 1)
        #expect(parts.allSatisfy { $0.utf8.count <= 75 })
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(parts.enumerated().map { $0 == 0 ? $1 : String($1.dropFirst()) }.joined() == line)
        #expect(CalendarFile.escapeText("a\\b;c,d\ne\r\u{7}") == "a\\\\b\\;c\\,d\\ne")
        // A tab or a bell between words is a space there, as on the page; CRLF is a line break.
        #expect(CalendarFile.escapeText("Venue\twith tab\u{7}bell\r\nnext \u{7}x") == "Venue with tab bell\\nnext x")
    }

    @Test("A character of many scalars folds between them, so no line passes 75 octets")
    func foldingLongCharacter() {
        // One character: "e" with 60 combining acute accents (121 octets).
        let accented = "e" + String(repeating: "\u{301}", count: 60)
        #expect(accented.count == 1)
        let line = "SUMMARY:" + accented + " at Wrigley"
        let parts = CalendarFile.fold(line).components(separatedBy: "\r\n")
        #expect(parts.map(\.utf8.count) == [75, 66])
        // Unfolded by scalars: the continuation's space and the accents after it are one
        // Swift character, so `dropFirst()` on the string would drop the accents too.
        #expect(parts[1].unicodeScalars.first == " ")
        #expect(String(String.UnicodeScalarView(parts[0].unicodeScalars + parts[1].unicodeScalars.dropFirst())) == line)
    }

    @Test("A game dated without a time is on that date in every zone, reads \"Time TBD\", and is an all-day event")
    func dateOnlyGame() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\ntimeZone: America/Chicago\n")
        try site.write("Data/trips/loop.json", ExportDecodingTests.tripJSON.replacingOccurrences(of: #""games":["g1","g2"]"#, with: #""games":["g1","g2","g3"]"#))
        // The app's catalog before the league sets the time: a date alone, in a western venue
        // (read as an instant, its midnight was the evening before there: Day 1, 10:00 PM PDT).
        try site.write("Data/games/mlb.json", #"""
            [{"id": "g1", "sport": "mlb", "awayTeam": "SD", "homeTeam": "LAD", "startTime": "2026-06-13", "timeZone": "America/Los_Angeles"},
             {"id": "g2", "sport": "mlb", "awayTeam": "STL", "homeTeam": "CHC", "startTime": "2026-06-13T18:20:00Z"},
             {"id": "g3", "sport": "npb", "awayTeam": "HAN", "homeTeam": "YOM", "startTime": "2026-06-13T13:00:00+09:00", "timeZone": "Asia/Tokyo"}]
            """#)
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let page = try site.read("Output/trips/11111111-1111-1111-1111-11111111111A/index.html")
        let days = page.components(separatedBy: #"<li class="day""#).dropFirst()
        #expect(days.count == 3)
        let second = try #require(days.dropFirst().first)
        #expect(!days.first!.contains("LAD"))
        #expect(second.contains(#"<span class="entry-label">MLB</span> · <time datetime="2026-06-13">Time TBD</time></p>"#))
        // Before the timed games of the same day, even one whose instant is the evening
        // before in the site's zone (1:00 PM in Tokyo).
        let tbd = try #require(second.range(of: "SD at LAD")), timed = try #require(second.range(of: "STL at CHC"))
        let tokyo = try #require(second.range(of: "HAN at YOM"))
        #expect(tbd.lowerBound < tokyo.lowerBound && tokyo.lowerBound < timed.lowerBound)
        let ics = try site.read("Output/trips/11111111-1111-1111-1111-11111111111A/calendar.ics")
        #expect(ics.contains("\r\nDTSTART;VALUE=DATE:20260613\r\nSUMMARY:SD at LAD\r\n"))
        #expect(ics.contains("\r\nDTSTART:20260613T182000Z\r\nDTEND:20260613T212000Z\r\nSUMMARY:STL at CHC\r\n"))
    }

    @Test("A game starting in the last hours of year 9999 ends at its last second, not in year 10000")
    func endOfTime() {
        let late = S.game("late", "9999-12-31T22:30:00Z")
        let ics = CalendarFile.ics(trip: S.trip(day1: ["late"], day3: []), games: [late], calendarName: "T", buildTime: S.date("2026-05-01T00:00:00Z"), format: Formatting(timeZone: TimeZone(identifier: "America/Chicago")!))
        #expect(ics.contains("\r\nDTSTART:99991231T223000Z\r\nDTEND:99991231T235959Z\r\n"))
        #expect(CalendarFile.end(of: S.game("g", "2026-06-12T13:20:00-05:00")) == S.date("2026-06-12T16:20:00-05:00"))
    }
}

@Suite("Itinerary links from option views")
struct OptionItineraryLinkTests {
    @Test("An option whose trip is also exported as an itinerary links to /trips/ID/; others do not link")
    func optionLinksToItinerary() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n")
        let trip = ExportDecodingTests.tripJSON
        let other = trip.replacingOccurrences(of: "11111111-1111-1111-1111-11111111111a", with: "22222222-1111-1111-1111-11111111111a")
            .replacingOccurrences(of: "\"Loop\"", with: "\"Other\"")
        try site.write("Data/trips/loop.json", trip)
        try site.write("Data/options/set.json", "{\"id\": \"july\", \"title\": \"July\", \"options\": [\(trip), \(other)]}")
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let view = try site.read("Output/options/july/most-games/index.html")
        #expect(view.contains(#"<a href="../../../trips/11111111-1111-1111-1111-11111111111A/">Loop</a>"#))
        #expect(view.contains(#"</span> Other</h3>"#))
        let base = try site.read("Output/options/july/index.html")
        #expect(base.contains(#"<a href="../../trips/11111111-1111-1111-1111-11111111111A/">Loop</a>"#))
    }
}

/// The golden site's itinerary (Chicago → Milwaukee, Aug 1–3) built after an edit to its export.
@Suite("Itinerary pages built from exports")
struct ItineraryPageBuildTests {
    static let tripFile = "Data/trips/chicago-milwaukee.json"
    static let page = "trips/11111111-1111-1111-1111-111111111111/index.html"

    /// The output as text and the diagnostics as printed, paths relative to the site.
    func build(items: ((String) -> String)? = nil, _ edit: (String) -> String) throws -> (tree: [String: String], diagnostics: [String]) {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        if let items { try site.write("Data/items/items.json", items(try site.read("Data/items/items.json"))) }
        let original = try site.read(Self.tripFile)
        let edited = edit(original)
        #expect(edited != original, "the edit changed nothing")
        try site.write(Self.tripFile, edited)
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        let tree = try fileTree(site.root.appendingPathComponent("Output")).mapValues { String(decoding: $0, as: UTF8.self) }
        let shown = displayPath(site.root) + "/"
        return (tree, log.all.map { $0.description.replacingOccurrences(of: shown, with: "") })
    }

    @Test("A drive dated before the trip is listed under Unscheduled with its date and time, and warned about at its departureDate")
    func driveOutsideTrip() throws {
        let (tree, diagnostics) = try build {
            $0.replacingOccurrences(of: "\"durationSeconds\": 5700\n", with: "\"durationSeconds\": 5700,\n      \"departureDate\": \"2026-07-20T10:00:00-05:00\"\n")
        }
        // Printed by file.
        #expect(diagnostics == [
            "Data/items/items.json:3:166: warning: [1].anchorId: item \"Check in: The Pfister\" (item-2): its anchor travel segment AAAAAAAA-0000-0000-0000-000000000001 is not on day 2; shown at the start of the day",
            "Data/trips/chicago-milwaukee.json:42:24: warning: travelSegments[0].departureDate: travel segment AAAAAAAA-0000-0000-0000-000000000001 (Chicago → Milwaukee) is outside the dates of trip \"A: Chicago & Milwaukee\"; listed under Unscheduled",
        ])
        let page = try #require(tree[Self.page])
        #expect(page.contains("""
            <h2 id="unscheduled-heading">Unscheduled</h2>
            <p class="note">These fall outside the trip's dates.</p>
            <ul class="timeline">
              <li class="entry entry-travel">
                <span class="entry-icon" aria-hidden="true">🚗</span>
                <div class="entry-body">
                  <p class="entry-meta"><span class="entry-label">Drive</span> · <time datetime="2026-07-20T15:00:00Z">July 20, 2026 at 10:00 AM CDT</time></p>
                  <p class="entry-title">Chicago → Milwaukee</p>
        """))
        #expect(page.components(separatedBy: "entry-travel").count == 2, "the drive is shown once")
    }

    @Test("An item under Unscheduled says the day it was set for, as games and drives there show their dates")
    func unscheduledItemDay() throws {
        let site = try CommandLineTests().goldenSite()
        let items = try site.read("Data/items/items.json")
        try site.write("Data/items/items.json", items.replacingOccurrences(of: "\"anchorDay\": 2,", with: "\"anchorDay\": 9,"))
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let page = try site.read("Output/" + Self.page)
        let unscheduled = try #require(page.components(separatedBy: "<h2 id=\"unscheduled-heading\">").last)
        #expect(unscheduled.contains("""
                      <p class="entry-title">Check in: The Pfister</p>
                      <p class="entry-detail">Set for day 9</p>
            """))
        // On its day, an item says nothing of it.
        #expect(!page.components(separatedBy: "<h2 id=\"unscheduled-heading\">")[0].contains("Set for day"))
    }

    @Test("A poll's trip links to its itinerary's route file only when the itinerary has one, whatever the poll's copy holds")
    func pollTripRouteLink() throws {
        let pollTrip = "polls/X7K9M2/trips/1/index.html", route = "trips/11111111-1111-1111-1111-111111111111/route.gpx"
        // The golden site: both copies have two stops.
        let (tree, _) = try build { $0 + "\n" }
        #expect(tree[route] != nil)
        #expect(try #require(tree[pollTrip]).contains(#"<p class="route-file"><a href="../../../../trips/11111111-1111-1111-1111-111111111111/route.gpx" download>"#))
        // The itinerary down to its first stop: no route file, so no link (the poll's copy
        // still has two stops).
        let (oneStop, _) = try build { text in
            var trip = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            trip["stops"] = [(trip["stops"] as! [Any])[0]]
            trip["travelSegments"] = [Any]()
            return String(decoding: try! JSONSerialization.data(withJSONObject: trip), as: UTF8.self)
        }
        #expect(oneStop[route] == nil)
        let page = try #require(oneStop[pollTrip])
        #expect(!page.contains("route.gpx") && page.contains("trips/11111111-1111-1111-1111-111111111111/"))
    }

    @Test("A drive whose departureDate is a date alone is on that day with no made-up time; under Unscheduled, with its date")
    func dateOnlyDrive() throws {
        let (tree, diagnostics) = try build {
            $0.replacingOccurrences(of: "\"durationSeconds\": 5700\n", with: "\"durationSeconds\": 5700,\n      \"departureDate\": \"2026-08-02\"\n")
        }
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let page = try #require(tree[Self.page])
        #expect(page.contains("<p class=\"entry-meta\"><span class=\"entry-label\">Drive</span></p>\n              <p class=\"entry-title\">Chicago → Milwaukee</p>"))
        let (stale, _) = try build {
            $0.replacingOccurrences(of: "\"durationSeconds\": 5700\n", with: "\"durationSeconds\": 5700,\n      \"departureDate\": \"2026-07-20\"\n")
        }
        #expect(try #require(stale[Self.page]).contains("<span class=\"entry-label\">Drive</span> · <time datetime=\"2026-07-20T05:00:00Z\">July 20, 2026</time></p>"))
    }

    @Test("A drive between two cities of one name is written with their states, as the stops are")
    func driveBetweenCitiesOfOneName() throws {
        let (tree, _) = try build { $0.replacingOccurrences(of: "\"Milwaukee\"", with: "\"Chicago\"") }
        let page = try #require(tree[Self.page])
        #expect(page.contains("<p class=\"entry-title\">Chicago, IL → Chicago, WI</p>"))
        #expect(!page.contains("Chicago → Chicago"))
    }

    @Test("An item exported twice is shown once, in its later version, with a warning at the older copy")
    func itemExportedTwice() throws {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        // A newer export of item-1 beside the old one (and item-2 again, unchanged).
        let items = try site.read("Data/items/items.json")
        try site.write("Data/items/later.json", items
            .replacingOccurrences(of: "Hot dogs at Superdawg", with: "Dinner at Gene & Jude's (moved)")
            .replacingOccurrences(of: "\"modifiedAt\": \"2026-05-01T10:00:00Z\"", with: "\"modifiedAt\": \"2026-05-03T10:00:00Z\""))
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        let shown = displayPath(site.root) + "/"
        #expect(log.all.map { $0.description.replacingOccurrences(of: shown, with: "") } == [
            "Data/items/items.json:2:3: warning: id: item \"Hot dogs at Superdawg\" (item-1) is exported again, changed later, at Data/items/later.json:2; only the later version is shown",
            "Data/items/items.json:3:3: warning: id: item \"Check in: The Pfister\" (item-2) is exported again at Data/items/later.json:3; it is shown once",
        ])
        let page = try site.read("Output/\(Self.page)")
        #expect(page.contains("Dinner at Gene &amp; Jude&#39;s (moved)"))
        #expect(!page.contains("Superdawg"))
        #expect(page.components(separatedBy: "Check in: The Pfister").count == 2)
    }

    @Test("A blank game id on a stop is left out with a warning, not shown as a game with no name")
    func blankGameId() throws {
        let (tree, diagnostics) = try build { $0.replacingOccurrences(of: "\"g2\"\n", with: "\"g2\",\n        \" \"\n") }
        #expect(diagnostics == ["Data/trips/chicago-milwaukee.json:32:9: warning: stops[1].games[1]: a blank game id names no game; it is left out"])
        let page = try #require(tree[Self.page])
        #expect(!page.contains("Game details are not in the catalog") && !page.contains("<p class=\"entry-title\"> </p>"))
    }

    @Test("A stop at latitude 0, longitude 0 (a place the app did not locate) is warned about at its latitude")
    func stopAtZeroZero() throws {
        let (_, diagnostics) = try build {
            $0.replacingOccurrences(of: "\"latitude\": 43.028,", with: "\"latitude\": 0.0,")
              .replacingOccurrences(of: "\"longitude\": -87.971,", with: "\"longitude\": 0,")
        }
        #expect(diagnostics == ["Data/trips/chicago-milwaukee.json:26:19: warning: stops[1].latitude: latitude 0, longitude 0 is in the sea off West Africa, most likely a place that was not located; the map, directions and route.gpx go there"])
        // One of them 0 is a real place (the equator, or Greenwich): nothing to say.
        let (_, equator) = try build { $0.replacingOccurrences(of: "\"latitude\": 43.028,", with: "\"latitude\": 0,") }
        #expect(equator.isEmpty)
    }

    @Test("A trip longer than 366 days is warned about at its endDate, and its Unscheduled list says the page stops there")
    func longTripWarnedAtEndDate() throws {
        // An item set for day 400, after the cut: under Unscheduled.
        let (tree, diagnostics) = try build(items: { $0.replacingOccurrences(of: "\"anchorDay\": 2,", with: "\"anchorDay\": 400,") }) {
            $0.replacingOccurrences(of: "\"endDate\": \"2026-08-03\"", with: "\"endDate\": \"2027-08-03\"")
        }
        #expect(diagnostics.contains("Data/trips/chicago-milwaukee.json:6:16: warning: preferences.endDate: the trip spans 368 days; its page shows the first 366, and lists what is dated after them under Unscheduled"))
        let page = try #require(tree[Self.page])
        #expect(page.contains("<p class=\"note\">These fall outside the trip's dates, or after its first 366 days, where this page stops.</p>"))
        // Within 366 days, the note is as it was.
        let (short, _) = try build(items: { $0.replacingOccurrences(of: "\"anchorDay\": 2,", with: "\"anchorDay\": 40,") }) { $0 + " " }
        #expect(try #require(short[Self.page]).contains("<p class=\"note\">These fall outside the trip's dates.</p>"))
    }

    @Test("A stop left before it is reached is warned about at its departureDate; a date alone may be left the day it is reached")
    func stopLeftBeforeReached() throws {
        let (_, diagnostics) = try build { $0.replacingOccurrences(of: "\"departureDate\": \"2026-08-03\",", with: "\"departureDate\": \"2026-08-01\",") }
        #expect(diagnostics == ["Data/trips/chicago-milwaukee.json:29:24: warning: stops[1].departureDate: departureDate is before the stop's arrivalDate: the page shows its days and drives by these dates; check the export"])
        let (_, sameDay) = try build { $0.replacingOccurrences(of: "\"departureDate\": \"2026-08-03\",", with: "\"departureDate\": \"2026-08-02\",") }
        #expect(sameDay.isEmpty)
        // The site's midnight names a day as a date does: reached at 1 PM, left that day.
        let (_, midnight) = try build {
            $0.replacingOccurrences(of: "\"arrivalDate\": \"2026-08-02\",\n      \"departureDate\": \"2026-08-03\",",
                                    with: "\"arrivalDate\": \"2026-08-02T13:00:00\",\n      \"departureDate\": \"2026-08-02T00:00:00\",")
        }
        #expect(midnight.isEmpty)
        // Left at noon the day before a date-only arrival: a day early, whatever the hours.
        let (_, dayEarly) = try build {
            $0.replacingOccurrences(of: "\"departureDate\": \"2026-08-03\",", with: "\"departureDate\": \"2026-08-01T12:00:00\",")
        }
        #expect(dayEarly == ["Data/trips/chicago-milwaukee.json:29:24: warning: stops[1].departureDate: departureDate is before the stop's arrivalDate: the page shows its days and drives by these dates; check the export"])
    }

    @Test("A drive from a city none of the stops is in is warned about at its fromCity, not at the file's start")
    func driveFromNowhereAtItsField() throws {
        let (_, diagnostics) = try build { $0.replacingOccurrences(of: "\"fromCity\": \"Chicago\",", with: "\"fromCity\": \"Boston\",") }
        #expect(diagnostics.filter { $0.contains("leaves from") } == [
            "Data/trips/chicago-milwaukee.json:38:19: warning: travelSegments[0].fromCity: trip \"A: Chicago & Milwaukee\": travel segment AAAAAAAA-0000-0000-0000-000000000001 leaves from \"Boston\", none of its stops in route order; shown after the first day's games, in the site's time zone",
        ])
    }

    @Test("A long trip name is cut in warnings about the trip, which name the field anyway")
    func longNameInWarnings() throws {
        let name = "The Great " + String(repeating: "Lakes and Prairie ", count: 10) + "Baseball Road Trip"
        let (_, diagnostics) = try build {
            $0.replacingOccurrences(of: "A: Chicago & Milwaukee", with: name)
              .replacingOccurrences(of: "\"g2\"\n", with: "\"g2\",\n        \"g-missing\"\n")
        }
        #expect(diagnostics.filter { $0.contains("g-missing") }.map { $0.components(separatedBy: ": warning: ").last! } == [
            "stops[1].games[1]: trip \"The Great Lakes and Prairie Lakes and Prairie Lakes and…\": no game catalog holds game g-missing; the page shows its id",
        ])
    }

    @Test("Without exported totals, a game two stops list counts once, as the days show it")
    func totalGamesCountsEachGameOnce() throws {
        let (tree, diagnostics) = try build { json in
            json.replacingOccurrences(of: "  \"totalGames\": 2,\n", with: "")
                .replacingOccurrences(of: "\"g2\"\n", with: "\"g2\",\n        \"g1\"\n")
        }
        #expect(diagnostics.isEmpty)
        let page = try #require(tree[Self.page])
        #expect(page.contains("<li>2 games</li>"))
        #expect(page.components(separatedBy: "<li class=\"entry entry-game\">").count == 3)
        #expect(try #require(tree["index.html"]).contains("<p class=\"meta\">Aug 1 – 3, 2026 · 2 cities · 2 games</p>"))
    }

    @Test("The home card's route is the stops as travelled: a city returned to is named again")
    func homeRouteAsTravelled() throws {
        let (tree, diagnostics) = try build { json in
            json.replacingOccurrences(of: "    }\n  ],\n  \"travelSegments\"", with: """
                    },
                    {"city": "Chicago", "state": "IL", "latitude": 41.948, "longitude": -87.655, "arrivalDate": "2026-08-03", "departureDate": "2026-08-03", "games": []}
                  ],
                  "travelSegments"
                """)
        }
        #expect(diagnostics.isEmpty)
        let page = try #require(tree[Self.page])
        #expect(page.contains("<meta name=\"description\" content=\"Aug 1 – 3, 2026: Chicago → Milwaukee → Chicago. 2 games, 2 cities, 91 mi, 1 h 35 min driving.\">"))
        let home = try #require(tree["index.html"])
        #expect(home.contains("""
              <p class="meta">Aug 1 – 3, 2026 · 2 cities · 2 games</p>
              <p class="route">Chicago → Milwaukee → Chicago</p>
        """))
    }
}
