import Foundation
import SitegenCore
import SitegenModel

/// Decoding games, custom items and itineraries (docs/exports.md).
extension ExportDecoder {
    /// Days beyond this are corrupt rather than merely outside the trip (Unscheduled).
    package static let maxAnchorDay = 10_000

    public func game(_ field: JSONField, source: SourceRef) throws(FieldError) -> Game {
        let fields = try record(field, .game)
        var zone: TimeZone?
        if let zoneField = fields.optional("timeZone") {
            let name = try zoneField.string()
            guard let parsed = TimeZone.named(name) else {
                throw zoneField.error("unknown time zone \"\(name)\"; expected an IANA name such as America/Chicago")
            }
            zone = parsed
        }
        let startField = try fields.required("startTime")
        return Game(
            id: Self.normalisedId(try fields.required("id").text()),
            sport: try fields.optional("sport")?.string() ?? "",
            awayTeam: try plainText(try fields.required("awayTeam")),
            homeTeam: try plainText(try fields.required("homeTeam")),
            startTime: try date(startField),
            startIsDateOnly: Self.isDateOnly(startField),
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
        let anchorDayField = try fields.required("anchorDay")
        var item = CustomItem(
            id: id, tripId: tripId, category: category, title: title, anchor: anchor,
            anchorDay: try count(anchorDayField, max: Self.maxAnchorDay, min: -Self.maxAnchorDay),
            createdAt: try recordTime(try fields.required("createdAt")),
            modifiedAt: try recordTime(try fields.required("modifiedAt")),
            notes: try fields.optional("notes").map { (f) throws(FieldError) in try markdown(f) },
            source: source
        )
        item.anchorDayPlace = FieldPlace(offset: anchorDayField.node.offset, path: anchorDayField.path.description)
        item.anchorIdPlace = fields.optional("anchorId").map { FieldPlace(offset: $0.node.offset, path: $0.path.description) }
        return item
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
