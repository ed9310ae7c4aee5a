import Foundation
import SitegenCore

/// A poll's 6-character share code; it becomes a URL path segment, so only the app's
/// unambiguous alphabet is accepted.
public struct ShareCode: Sendable, Encodable, Hashable, Comparable, CustomStringConvertible {
    public static let alphabet = Set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    public let value: String

    public init?(_ text: String) {
        let upper = text.uppercased()
        guard upper.count == 6, upper.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        value = upper
    }

    public var description: String { value }
    public static func < (a: ShareCode, b: ShareCode) -> Bool { a.value < b.value }
}

public struct TripPreferences: Sendable, Encodable, Equatable {
    public var startDate: Date
    public var endDate: Date
    public var sports: [String]

    package init(startDate: Date, endDate: Date, sports: [String]) {
        self.startDate = startDate
        self.endDate = endDate
        self.sports = sports
    }
}

public struct Stop: Sendable, Encodable, Equatable {
    public var city: String
    public var state: String
    public var latitude: Double
    public var longitude: Double
    public var arrivalDate: Date
    public var departureDate: Date
    public var games: [String]
    /// Where each of `games` was read (its offset and JSON path), for a warning about one
    /// id; empty when not read from a file. Like every SourceRef, not part of the stop's
    /// value: not encoded (a poll's key) nor compared.
    package var gamePlaces: [FieldPlace] = []
    /// `departureDate` was written as a date alone ("2026-06-12", midnight in the site's
    /// zone): it names that calendar date, in whatever zone the stop is. Part of the value
    /// (it can move a drive to another day), so encoded into a poll's key and compared.
    package var departureIsDateOnly = false
    /// Where `departureDate` was read, for a warning about a drive it dates; like
    /// `gamePlaces`, not part of the stop's value.
    package var departurePlace: FieldPlace? = nil

    private enum CodingKeys: String, CodingKey {
        case city, state, latitude, longitude, arrivalDate, departureDate, games, departureIsDateOnly
    }

    public static func == (a: Stop, b: Stop) -> Bool {
        a.city == b.city && a.state == b.state && a.latitude == b.latitude && a.longitude == b.longitude
            && a.arrivalDate == b.arrivalDate && a.departureDate == b.departureDate && a.games == b.games
            && a.departureIsDateOnly == b.departureIsDateOnly
    }

    package init(city: String, state: String, latitude: Double, longitude: Double, arrivalDate: Date,
                 departureDate: Date, games: [String], gamePlaces: [FieldPlace] = [], departureIsDateOnly: Bool = false,
                 departurePlace: FieldPlace? = nil) {
        self.city = city
        self.state = state
        self.latitude = latitude
        self.longitude = longitude
        self.arrivalDate = arrivalDate
        self.departureDate = departureDate
        self.games = games
        self.gamePlaces = gamePlaces
        self.departureIsDateOnly = departureIsDateOnly
        self.departurePlace = departurePlace
    }
}

public struct TravelSegment: Sendable, Encodable, Equatable {
    /// Normalised: upper-case when it is a UUID, so anchors match case-insensitively.
    public var id: String
    public var fromCity: String
    public var toCity: String
    public var distanceMeters: Double
    public var durationSeconds: Double
    public var departureDate: Date?
    /// Where `departureDate` was read, for a warning about it; nil when not read from a
    /// file. Like every SourceRef, not part of the segment's value: not encoded nor compared.
    package var departureDatePlace: FieldPlace? = nil
    /// Where `fromCity` was read, likewise: a drive from a city none of the stops is in is
    /// warned about there.
    package var fromCityPlace: FieldPlace? = nil
    /// `departureDate` was written as a date alone: it names that calendar date (Stop).
    package var departureIsDateOnly = false

    private enum CodingKeys: String, CodingKey {
        case id, fromCity, toCity, distanceMeters, durationSeconds, departureDate, departureIsDateOnly
    }

    public static func == (a: TravelSegment, b: TravelSegment) -> Bool {
        a.id == b.id && a.fromCity == b.fromCity && a.toCity == b.toCity && a.distanceMeters == b.distanceMeters
            && a.durationSeconds == b.durationSeconds && a.departureDate == b.departureDate
            && a.departureIsDateOnly == b.departureIsDateOnly
    }

    package init(id: String, fromCity: String, toCity: String, distanceMeters: Double, durationSeconds: Double,
                 departureDate: Date?, departureDatePlace: FieldPlace? = nil, fromCityPlace: FieldPlace? = nil,
                 departureIsDateOnly: Bool = false) {
        self.id = id
        self.fromCity = fromCity
        self.toCity = toCity
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.departureDate = departureDate
        self.departureDatePlace = departureDatePlace
        self.fromCityPlace = fromCityPlace
        self.departureIsDateOnly = departureIsDateOnly
    }
}

/// Where a field of a record was read: its byte offset in the file and its JSON path
/// (`trip.travelSegments[0].departureDate`), for a warning found after decoding.
package struct FieldPlace: Sendable, Equatable {
    package var offset: Int
    package var path: String

    package init(offset: Int, path: String) {
        self.offset = offset
        self.path = path
    }
}

public struct Trip: Sendable, Encodable, Equatable {
    public var id: UUID
    public var name: String
    public var preferences: TripPreferences
    public var stops: [Stop]
    public var travelSegments: [TravelSegment]
    public var totalGames: Int
    public var totalDistanceMeters: Double
    public var totalDrivingSeconds: Double
    public var notes: String?

    package init(id: UUID, name: String, preferences: TripPreferences, stops: [Stop],
                 travelSegments: [TravelSegment], totalGames: Int, totalDistanceMeters: Double,
                 totalDrivingSeconds: Double, notes: String?) {
        self.id = id
        self.name = name
        self.preferences = preferences
        self.stops = stops
        self.travelSegments = travelSegments
        self.totalGames = totalGames
        self.totalDistanceMeters = totalDistanceMeters
        self.totalDrivingSeconds = totalDrivingSeconds
        self.notes = notes
    }

    public var miles: Double { Formatting.milesValue(meters: totalDistanceMeters) }

    /// The cities as travelled, for a route line: every stop in order, named as `stopNames`
    /// names them, with consecutive stops in the same (city, state) as one (Phoenix → Los
    /// Angeles → Phoenix → Tucson).
    public var routeCities: [String] {
        var cities: [String] = []
        var last: String?
        for (key, name) in zip(cityKeys, stopNames) {
            if key != last { cities.append(name) }
            last = key
        }
        return cities
    }

    /// Distinct (city, state) pairs, in travel order, named as `stopNames` names them.
    public var distinctCities: [String] {
        var seen = Set<String>()
        var cities: [String] = []
        for (key, name) in zip(cityKeys, stopNames) {
            if seen.insert(key).inserted { cities.append(name) }
        }
        return cities
    }

    /// Each stop's name as pages write it: its city, with its state ("Portland, OR") when
    /// another stop of the trip has a city of that name in another state. Cities count as
    /// (city, state) pairs, and "Portland → Portland · 2 cities" read as a mistake.
    public var stopNames: [String] {
        var states: [String: Set<String>] = [:]
        let stopStates = self.stopStates
        for (stop, state) in zip(stops, stopStates) { states[stop.city.lowercased(), default: []].insert(state) }
        return stops.map { stop in
            states[stop.city.lowercased()]!.count > 1 && !stop.state.isEmpty ? "\(stop.city), \(stop.state)" : stop.city
        }
    }

    /// Each stop's state, lower-cased; for a stop exported without one, the state of the
    /// trip's other stops in that city when they all have the same: "Chicago" then
    /// "Chicago, IL" read "Chicago → Chicago, IL · 2 cities".
    var stopStates: [String] {
        var states: [String: Set<String>] = [:]
        for stop in stops where !stop.state.isEmpty { states[stop.city.lowercased(), default: []].insert(stop.state.lowercased()) }
        return stops.map { stop in
            if stop.state.isEmpty, let known = states[stop.city.lowercased()], known.count == 1 { return known.first! }
            return stop.state.lowercased()
        }
    }

    /// Each stop's (city, state) as one key, states as `stopStates` gives them.
    private var cityKeys: [String] {
        zip(stops, stopStates).map { "\($0.city.lowercased())|\($1)" }
    }
}

public struct Poll: Sendable, Encodable, Equatable {
    /// The times a record can say it was made, changed or voted at: from 2001, where the
    /// app's dates count from, to the end of 2100 (docs/exports.md, "Encodings"). A time
    /// outside them is warned about when read and dates nothing.
    public static let plausibleTimes = Date(timeIntervalSinceReferenceDate: 0)..<Date(timeIntervalSince1970: 4_133_980_800)

    public var id: UUID
    public var title: String
    public var shareCode: ShareCode
    public var trips: [Trip]
    public var createdAt: Date
    public var modifiedAt: Date
    public var description: String?
    public var source: SourceRef

    package init(id: UUID, title: String, shareCode: ShareCode, trips: [Trip], createdAt: Date,
                 modifiedAt: Date, description: String?, source: SourceRef) {
        self.id = id
        self.title = title
        self.shareCode = shareCode
        self.trips = trips
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.description = description
        self.source = source
    }
}

/// One ballot. `voterId` is private: it is used only to keep one ballot per voter.
public struct Vote: Sendable, Equatable {
    public var id: UUID
    public var pollId: UUID
    public var voterId: String
    public var rankings: [Int]
    public var votedAt: Date
    public var modifiedAt: Date
    public var source: SourceRef

    package init(id: UUID, pollId: UUID, voterId: String, rankings: [Int], votedAt: Date, modifiedAt: Date,
                 source: SourceRef) {
        self.id = id
        self.pollId = pollId
        self.voterId = voterId
        self.rankings = rankings
        self.votedAt = votedAt
        self.modifiedAt = modifiedAt
        self.source = source
    }
}
