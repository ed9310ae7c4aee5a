import Foundation
import SitegenCore

/// A game from the catalog (docs/exports.md, "Games"). `Encodable` for the keys of the poll
/// pages that show it (ItineraryLayout.links), like the other models.
public struct Game: Sendable, Equatable, Encodable {
    public var id: String
    public var sport: String
    public var awayTeam: String
    public var homeTeam: String
    public var startTime: Date
    /// Written as a date without a time ("2026-09-13", a game whose time is not set yet):
    /// `startTime` is that day's midnight in the site's zone, and no time is shown.
    public var startIsDateOnly: Bool
    public var venue: String?
    public var city: String?
    /// The venue's zone; games show their local time in it.
    public var timeZone: TimeZone?
    public var source: SourceRef

    package init(id: String, sport: String, awayTeam: String, homeTeam: String, startTime: Date, startIsDateOnly: Bool = false,
                 venue: String?, city: String?, timeZone: TimeZone?, source: SourceRef) {
        self.id = id
        self.sport = sport
        self.awayTeam = awayTeam
        self.homeTeam = homeTeam
        self.startTime = startTime
        self.startIsDateOnly = startIsDateOnly
        self.venue = venue
        self.city = city
        self.timeZone = timeZone
        self.source = source
    }
}

/// A personal item the organiser added to a trip (docs/exports.md, "Custom itinerary items").
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
    /// Where `anchorDay` and `anchorId` were read, for a warning about them.
    package var anchorDayPlace: FieldPlace? = nil, anchorIdPlace: FieldPlace? = nil

    package init(id: String, tripId: String, category: Category, title: String, anchor: Anchor, anchorDay: Int,
                 createdAt: Date, modifiedAt: Date, notes: String?, source: SourceRef) {
        self.id = id
        self.tripId = tripId
        self.category = category
        self.title = title
        self.anchor = anchor
        self.anchorDay = anchorDay
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.notes = notes
        self.source = source
    }
}

/// A trip exported on its own, with the games and items that came in the same file.
public struct Itinerary: Sendable {
    public var trip: Trip
    public var games: [Game]
    public var customItems: [CustomItem]
    public var source: SourceRef

    package init(trip: Trip, games: [Game], customItems: [CustomItem], source: SourceRef) {
        self.trip = trip
        self.games = games
        self.customItems = customItems
        self.source = source
    }

    public var path: String { trip.itineraryPath }
}

extension Trip {
    /// Where the trip's itinerary page is, when it is exported as an itinerary.
    public var itineraryPath: String { "trips/\(id.uuidString)/" }
}
