import Foundation

/// A trip's stops as route points: the whole trip (its GPX route) and each day's drives
/// (that day's directions links). Pure.
public enum TripRoute {
    /// Every stop in travel order, named "City, ST".
    public static func points(_ trip: Trip) -> [RoutePoint] {
        trip.stops.map(point)
    }

    /// The stops a day's drives pass through, in order: the first drive's from-stop, then
    /// each drive's to-stop. Drives whose cities match no stops are left out (their
    /// coordinates are unknown); nil when no drive of the day can be placed.
    public static func points(of day: ItineraryTimeline.Day, legs: [String: Leg], trip: Trip) -> [RoutePoint]? {
        var stops: [Int] = []
        for case .travel(let segment, _) in day.entries {
            guard let leg = legs[segment.id] else { continue }
            if stops.last != leg.from { stops.append(leg.from) }
            stops.append(leg.to)
        }
        return stops.count >= 2 ? stops.map { point(trip.stops[$0]) } : nil
    }

    /// The stops a drive leaves and reaches, as indices into `trip.stops`.
    public struct Leg: Sendable, Equatable {
        public var from: Int
        public var to: Int
    }

    /// Each drive's stops, by segment id, matched by city the way the timeline places drives:
    /// the from-stop is the next stop of that city after the previous drive's, the to-stop
    /// the first stop of its city after the from-stop.
    public static func legs(_ trip: Trip) -> [String: Leg] {
        var legs: [String: Leg] = [:]
        var searchFrom = 0
        for segment in trip.travelSegments {
            guard let from = trip.stops[min(searchFrom, trip.stops.count)...].firstIndex(where: { $0.city == segment.fromCity }) else { continue }
            searchFrom = from + 1
            guard let to = trip.stops[(from + 1)...].firstIndex(where: { $0.city == segment.toCity }) else { continue }
            if legs[segment.id] == nil { legs[segment.id] = Leg(from: from, to: to) }
        }
        return legs
    }

    private static func point(_ stop: Stop) -> RoutePoint {
        RoutePoint(name: stop.state.isEmpty ? stop.city : "\(stop.city), \(stop.state)",
                   latitude: stop.latitude, longitude: stop.longitude)
    }
}
