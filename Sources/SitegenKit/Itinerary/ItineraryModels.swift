import Foundation

/// A game from the catalog (docs/exports.md, "Games").
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

extension ExportDecoder {
    /// Days beyond this are corrupt rather than merely outside the trip (Unscheduled).
    static let maxAnchorDay = 10_000

    public func game(_ field: JSONField, source: SourceRef) throws(FieldError) -> Game {
        let fields = try record(field, .game)
        var zone: TimeZone?
        if let zoneField = fields.optional("timeZone") {
            let name = try zoneField.string()
            guard let parsed = TimeZone(identifier: name) else {
                throw zoneField.error("unknown time zone \"\(name)\"; expected an IANA name such as America/Chicago")
            }
            zone = parsed
        }
        return Game(
            id: Self.normalisedId(try fields.required("id").text()),
            sport: try fields.optional("sport")?.string() ?? "",
            awayTeam: try plainText(try fields.required("awayTeam")),
            homeTeam: try plainText(try fields.required("homeTeam")),
            startTime: try date(try fields.required("startTime")),
            venue: try fields.optional("venue").map { (f) throws(FieldError) in try plainText(f) },
            city: try fields.optional("city").map { (f) throws(FieldError) in try plainText(f) },
            timeZone: zone,
            source: source
        )
    }

    public func customItem(_ field: JSONField, source: SourceRef) throws(FieldError) -> CustomItem {
        let fields = try record(field, .customItem)
        let id = Self.normalisedId(try fields.required("id", "itemId").text())
        let tripId = Self.normalisedId(try fields.required("tripId").text())
        let categoryField = try fields.required("category")
        let categoryName = try categoryField.string()
        guard let category = CustomItem.Category(rawValue: categoryName) else {
            throw categoryField.error("unknown category \"\(categoryName)\"; expected restaurant, hotel, activity or note")
        }
        let title = try plainText(try fields.required("title"))
        let anchorField = try fields.required("anchorType")
        let anchor: CustomItem.Anchor
        switch try anchorField.string() {
        case "startOfDay": anchor = .startOfDay
        case "afterGame": anchor = .afterGame(Self.normalisedId(try fields.required("anchorId").text()))
        case "afterTravel": anchor = .afterTravel(Self.normalisedId(try fields.required("anchorId").text()))
        case let other: throw anchorField.error("unknown anchor type \"\(other)\"; expected startOfDay, afterGame or afterTravel")
        }
        return CustomItem(
            id: id, tripId: tripId, category: category, title: title, anchor: anchor,
            anchorDay: try count(try fields.required("anchorDay"), max: Self.maxAnchorDay, min: -Self.maxAnchorDay),
            createdAt: try date(try fields.required("createdAt")),
            modifiedAt: try date(try fields.required("modifiedAt")),
            notes: try fields.optional("notes").map { (f) throws(FieldError) in try markdown(f) },
            source: source
        )
    }

    /// An itinerary file holds a bare trip, or `{trip, games, customItems}`.
    public func itinerary(_ field: JSONField, source: SourceRef) throws(FieldError) -> Itinerary {
        guard case .object(let object) = field.node.value, object["trip"] != nil else {
            return Itinerary(trip: try trip(field), games: [], customItems: [], source: source)
        }
        let fields = try record(field, .itinerary)
        let tripField = try fields.required("trip")
        return Itinerary(
            trip: try trip(tripField),
            games: try fields.optional("games")?.array { (f) throws(FieldError) in try game(f, source: self.source(of: f, within: source)) } ?? [],
            customItems: try fields.optional("customItems")?.array { (f) throws(FieldError) in try customItem(f, source: self.source(of: f, within: source)) } ?? [],
            source: source
        )
    }
}
