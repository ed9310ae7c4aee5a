import Foundation

/// A game from the catalog (SPEC §3.4).
public struct Game: Sendable, Equatable {
    public var id: String
    public var sport: String
    public var awayTeam: String
    public var homeTeam: String
    public var startTime: Date
    public var venue: String?
    public var city: String?
    /// The venue's zone; games show their local time in it.
    public var timeZone: TimeZone?
    public var source: SourceRef
}

/// A personal item the organiser added to a trip (SPEC §3.5).
public struct CustomItem: Sendable, Equatable {
    public enum Category: String, Sendable, CaseIterable {
        case restaurant, hotel, activity, note

        public var icon: String {
            switch self {
            case .restaurant: return "🍽️"
            case .hotel: return "🏨"
            case .activity: return "🎯"
            case .note: return "📝"
            }
        }

        public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    public enum Anchor: Sendable, Equatable {
        case startOfDay
        case afterGame(String)
        case afterTravel(String)
    }

    public var id: String
    /// Normalised like every id (upper-case when a UUID).
    public var tripId: String
    public var category: Category
    public var title: String
    public var anchor: Anchor
    /// 1-based day of the trip.
    public var anchorDay: Int
    public var createdAt: Date
    public var modifiedAt: Date
    public var notes: String?
    public var source: SourceRef
}

/// A trip exported on its own, with the games and items that came in the same file.
public struct Itinerary: Sendable {
    public var trip: Trip
    public var games: [Game]
    public var customItems: [CustomItem]
    public var source: SourceRef

    public var path: String { trip.itineraryPath }
}

extension Trip {
    /// Where the trip's itinerary page is, when it is exported as an itinerary.
    public var itineraryPath: String { "trips/\(id.uuidString)/" }
}
