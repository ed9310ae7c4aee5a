import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenModel
import Testing

/// Trips built from just what grouping reads: miles, games and stops.
enum GroupingSample {
    static let day = Date(timeIntervalSince1970: 1_780_000_000)

    static func trip(_ name: String, miles: Double = 0, games: Int = 0,
                     cities: [(String, String)] = [("Chicago", "IL")]) -> Trip {
        Trip(id: UUID(), name: name,
             preferences: TripPreferences(startDate: day, endDate: day, sports: []),
             stops: cities.map { Stop(city: $0.0, state: $0.1, latitude: 0, longitude: 0,
                                      arrivalDate: day, departureDate: day, games: []) },
             travelSegments: [], totalGames: games,
             totalDistanceMeters: miles * Formatting.metersPerMile, totalDrivingSeconds: 0, notes: nil)
    }

    /// The boundaries of docs/rules.md, "Trip views": 0, 499.9, 500, 1999.99 and 2000 miles; 0 and 1 games;
    /// one city, a city visited twice, and two cities of one name in different states.
    static let boundary: [Trip] = [
        trip("Zero", miles: 0, games: 0),
        trip("Under", miles: 499.9, games: 1, cities: [("Chicago", "IL"), ("Chicago", "IL")]),
        trip("Five", miles: 500, games: 1, cities: [("Chicago", "IL"), ("Milwaukee", "WI"), ("chicago", "il")]),
        trip("Almost", miles: 1999.99, games: 3, cities: [("Springfield", "IL"), ("Springfield", "MO")]),
        trip("Two", miles: 2000, games: 3, cities: [("Chicago", "IL"), ("St. Louis", "MO"), ("Kansas City", "MO")]),
        trip("Idle", miles: 1000, games: 0, cities: [("Denver", "CO"), ("Denver", "CO")]),
        trip("Home", miles: 0, games: 2),
    ]

    /// Section titles and trip names, the way a reader sees a view.
    static func shown(_ view: TripView, _ trips: [Trip]) -> [Section] {
        view.groups(of: trips).map { Section($0.title, $0.positions.map { trips[$0].name }) }
    }

    struct Section: Equatable, CustomStringConvertible {
        let title: String?
        let names: [String]
        init(_ title: String?, _ names: [String]) {
            self.title = title
            self.names = names
        }
        var description: String { "\(title ?? "—"): \(names)" }
    }
}

@Suite("Grouped trip views (docs/rules.md)")
struct GroupingTests {
    typealias Section = GroupingSample.Section
    let trips = GroupingSample.boundary

    func shown(_ view: TripView) -> [Section] { GroupingSample.shown(view, trips) }

    @Test("A city named in two states is written with its state wherever the trip is shown, so two cities read as two")
    func citiesOfOneName() throws {
        let springfields = GroupingSample.trip("Springfields", cities: [("Springfield", "IL"), ("Springfield", "MO"), ("Springfield", "IL")])
        #expect(springfields.stopNames == ["Springfield, IL", "Springfield, MO", "Springfield, IL"])
        #expect(springfields.distinctCities == ["Springfield, IL", "Springfield, MO"])
        #expect(try #require(RoutePicture.make(trip: springfields)).points.map(\.name) == ["Springfield, IL", "Springfield, MO", "Springfield, IL"])
        // One city written in two cases is one city, and no state is added.
        let five = GroupingSample.boundary[2]
        #expect(five.stopNames == ["Chicago", "Milwaukee", "chicago"])
        #expect(five.distinctCities == ["Chicago", "Milwaukee"])
        // A stop exported without its state is the city the others of that name are in.
        let stateless = GroupingSample.trip("Stateless", cities: [("Chicago", ""), ("Milwaukee", "WI"), ("Chicago", "IL")])
        #expect(stateless.stopNames == ["Chicago", "Milwaukee", "Chicago"])
        #expect(stateless.distinctCities == ["Chicago", "Milwaukee"])
        #expect(stateless.routeCities == ["Chicago", "Milwaukee", "Chicago"])
        // Unless those are in more than one state: then it cannot be told which.
        let unsure = GroupingSample.trip("Unsure", cities: [("Springfield", ""), ("Springfield", "IL"), ("Springfield", "MO")])
        #expect(unsure.distinctCities == ["Springfield", "Springfield, IL", "Springfield, MO"])
    }

    @Test("View names are the URL segments of docs/rules.md, in tab order")
    func viewNames() {
        #expect(TripView.allCases.map(\.rawValue) == [
            "recommended", "most-cities", "most-games", "least-games", "most-miles", "least-miles", "best-efficiency",
        ])
    }

    @Test("recommended: the input order, one list without sections")
    func recommended() {
        #expect(shown(.recommended) == [Section(nil, ["Zero", "Under", "Five", "Almost", "Two", "Idle", "Home"])])
    }

    @Test("most-cities: distinct (city, state) pairs, descending; repeated cities count once, same name in two states twice")
    func mostCities() {
        #expect(shown(.mostCities) == [
            Section("3 cities", ["Two"]),
            Section("2 cities", ["Five", "Almost"]),
            Section("1 city", ["Zero", "Under", "Idle", "Home"]),
        ])
    }

    @Test("most-games: totalGames descending, \"1 game\" singular, \"0 games\" last")
    func mostGames() {
        #expect(shown(.mostGames) == [
            Section("3 games", ["Almost", "Two"]),
            Section("2 games", ["Home"]),
            Section("1 game", ["Under", "Five"]),
            Section("0 games", ["Zero", "Idle"]),
        ])
    }

    @Test("least-games: totalGames ascending, \"0 games\" first")
    func leastGames() {
        #expect(shown(.leastGames) == [
            Section("0 games", ["Zero", "Idle"]),
            Section("1 game", ["Under", "Five"]),
            Section("2 games", ["Home"]),
            Section("3 games", ["Almost", "Two"]),
        ])
    }

    @Test("most-miles: 2000 is 2000+, 1999.99 is 1500-2000, 500 is 500-1000, 499.9 and 0 are 0-500")
    func mostMiles() {
        #expect(shown(.mostMiles) == [
            Section("2000+ mi", ["Two"]),
            Section("1500-2000 mi", ["Almost"]),
            Section("1000-1500 mi", ["Idle"]),
            Section("500-1000 mi", ["Five"]),
            Section("0-500 mi", ["Under", "Zero", "Home"]),
        ])
    }

    @Test("least-miles: the same ranges ascending; the two 0-mile trips keep input order")
    func leastMiles() {
        #expect(shown(.leastMiles) == [
            Section("0-500 mi", ["Zero", "Home", "Under"]),
            Section("500-1000 mi", ["Five"]),
            Section("1000-1500 mi", ["Idle"]),
            Section("1500-2000 mi", ["Almost"]),
            Section("2000+ mi", ["Two"]),
        ])
    }

    @Test("best-efficiency: miles per game ascending, trips without games last in input order, no sections")
    func bestEfficiency() {
        // Home 0, Under 499.9, Five 500, Almost 666.663, Two 666.667; Zero and Idle have no games.
        #expect(shown(.bestEfficiency) == [Section(nil, ["Home", "Under", "Five", "Almost", "Two", "Zero", "Idle"])])
    }

    @Test("best-efficiency: equal miles per game keep input order")
    func efficiencyTie() {
        let trips = [
            GroupingSample.trip("Long pair", miles: 1000, games: 2),
            GroupingSample.trip("No games", miles: 10, games: 0),
            GroupingSample.trip("Short single", miles: 500, games: 1),
            GroupingSample.trip("Best", miles: 100, games: 1),
        ]
        #expect(GroupingSample.shown(.bestEfficiency, trips) == [Section(nil, ["Best", "Long pair", "Short single", "No games"])])
    }

    @Test("Two tied trips keep input order in every view, whichever comes first", arguments: TripView.allCases)
    func ties(view: TripView) {
        let a = GroupingSample.trip("A", miles: 750, games: 2, cities: [("Chicago", "IL"), ("Detroit", "MI")])
        let b = GroupingSample.trip("B", miles: 750, games: 2, cities: [("Denver", "CO"), ("Omaha", "NE")])
        let title: String? = switch view {
        case .recommended, .bestEfficiency: nil
        case .mostCities: "2 cities"
        case .mostGames, .leastGames: "2 games"
        case .mostMiles, .leastMiles: "500-1000 mi"
        }
        #expect(GroupingSample.shown(view, [a, b]) == [Section(title, ["A", "B"])])
        #expect(GroupingSample.shown(view, [b, a]) == [Section(title, ["B", "A"])])
    }

    @Test("No trips: no sections in any view", arguments: TripView.allCases)
    func empty(view: TripView) {
        #expect(view.groups(of: []) == [])
    }

    @Test("Twelve cities are \"12 cities\"; sections get fragment ids")
    func anchors() {
        let cities = (1...12).map { ("City \($0)", "ST") }
        let trips = [GroupingSample.trip("Big", cities: cities), GroupingSample.trip("Small", games: 1)]
        #expect(TripView.mostCities.groups(of: trips) == [
            TripGroup(title: "12 cities", anchor: "cities-12", positions: [0]),
            TripGroup(title: "1 city", anchor: "cities-1", positions: [1]),
        ])
        #expect(TripView.leastGames.groups(of: trips).map(\.anchor) == ["games-0", "games-1"])
        #expect(MileageBucket.allCases.map(\.anchor) == [
            "miles-0-500", "miles-500-1000", "miles-1000-1500", "miles-1500-2000", "miles-2000-plus",
        ])
    }

    @Test("Mileage buckets include their lower bound", arguments: [
        (0.0, "0-500 mi"), (499.9, "0-500 mi"), (499.999, "0-500 mi"), (500.0, "500-1000 mi"),
        (999.99, "500-1000 mi"), (1000.0, "1000-1500 mi"), (1500.0, "1500-2000 mi"),
        (1999.99, "1500-2000 mi"), (2000.0, "2000+ mi"), (12_000.0, "2000+ mi"),
    ])
    func buckets(miles: Double, title: String) {
        #expect(MileageBucket(miles: miles).title == title)
        // Through meters, as trips store them: miles = meters ÷ 1609.344.
        #expect(MileageBucket(miles: GroupingSample.trip("x", miles: miles).miles).title == title)
    }

    @Test("Displayed miles never contradict their group: whole miles are rounded down, as the groups are cut", arguments: [
        (499.99, "499 mi", "0-500 mi"), (1999.999, "1,999 mi", "1500-2000 mi"), (500.0, "500 mi", "500-1000 mi"),
        (2000.0, "2,000 mi", "2000+ mi"), (0.4, "0 mi", "0-500 mi"), (999.5, "999 mi", "500-1000 mi"),
    ])
    func displayedMiles(miles: Double, shown: String, group: String) {
        let trip = GroupingSample.trip("x", miles: miles)
        #expect(Formatting.miles(meters: trip.totalDistanceMeters) == shown)
        #expect(MileageBucket(miles: trip.miles).title == group)
    }

    @Test("A distance of whole miles, as an export writes its meters, reads those miles: 144840.96 m is 90 mi, not 89")
    func wholeMiles() {
        #expect(Formatting.miles(meters: 144_840.96) == "90 mi")
        #expect(Formatting.miles(meters: 289_681.92) == "180 mi")
        for miles in 1...3000 {
            // The meters as a JSON number reads them: the decimal of miles × 1609.344.
            let meters = Double("\(miles * 1_609_344 / 1000).\(String(format: "%03d", miles * 1_609_344 % 1000))")!
            #expect(Formatting.miles(meters: meters) == "\(Formatting.grouped(miles)) mi", "\(miles) mi")
            #expect(MileageBucket(miles: GroupingSample.trip("x", miles: Double(miles)).miles) == MileageBucket(miles: Double(miles)))
        }
    }

    @Test("Miles per game: miles ÷ games; nil without games")
    func milesPerGame() {
        #expect(GroupingSample.trip("x", miles: 1000, games: 4).milesPerGame == 250)
        #expect(GroupingSample.trip("x", miles: 0, games: 3).milesPerGame == 0)
        #expect(GroupingSample.trip("x", miles: 300, games: 0).milesPerGame == nil)
    }
}
