import Foundation
import SitegenCore
import SitegenModel

/// Template contexts for the links that hand a trip to other apps (docs/rules.md, "Handing trips
/// to other apps"): calendar subscriptions, directions in Google Maps and Apple Maps.
/// Itinerary and convoy pages share them (partials/calendar-links, partials/directions).
package enum HandoffLinks {
    /// The calendar download, and with baseURL the subscriptions, for the page at `page`.
    package static func calendar(_ calendarPath: String, from page: String, kit: RenderKit) -> CalendarLinks {
        var links = CalendarLinks(calendarHref: kit.href(calendarPath, from: page))
        if let absolute = kit.links.absolute(calendarPath), let subscription = CalendarSubscription(fileURL: absolute) {
            links.webcalHref = subscription.webcal
            links.googleCalendarHref = subscription.google
        }
        return links
    }

    /// Directions through `points` in both services; nil when there is no drive (fewer than
    /// two points). A route longer than a service takes in one link is split into parts,
    /// each named by where it starts and ends.
    /// `leftOut`: the names of places on the way that have no coordinates, so no link can
    /// lead through them; the note says so, or a driver would pass them by.
    package static func directions(_ points: [RoutePoint], label: String, leftOut: [String] = []) -> Directions? {
        let google = RouteHandoff.links(points, service: .google)
        guard !google.isEmpty else { return nil }
        let apple = RouteHandoff.links(points, service: .apple)
        // Why the route comes in parts: "Google Maps opens up to 5 places at a time, Apple Maps one stretch at a time."
        var limits: [String] = []
        if google.count > 1 { limits.append("Google Maps opens up to \(RouteHandoff.googleMaxWaypoints + 2) places at a time") }
        if apple.count > 1 { limits.append(limits.isEmpty ? "Apple Maps opens one stretch at a time" : "Apple Maps one stretch at a time") }
        var notes = limits.isEmpty ? [] : [limits.joined(separator: ", ") + "."]
        if !leftOut.isEmpty {
            notes.append(sentence("Not in these directions, as they have no coordinates: \(listJoined(BidiIsolation.isolated(leftOut)))"))
        }
        return Directions(
            directionsLabel: label,
            mapsLinks: rows(google, whole: "Open in Google Maps", part: "Google Maps") + rows(apple, whole: "Apple Maps", part: "Apple Maps"),
            directionsNote: notes.isEmpty ? nil : notes.joined(separator: " "))
    }

    private static func rows(_ links: [RouteHandoff.Link], whole: String, part: String) -> [Directions.MapsLink] {
        guard links.count > 1 else { return links.map { Directions.MapsLink(mapsHref: $0.url, mapsText: whole) } }
        return links.map { Directions.MapsLink(mapsHref: $0.url, mapsText: "\(part): \(BidiIsolation.isolated($0.from)) → \(BidiIsolation.isolated($0.to))") }
    }
}

/// The variables of `partials/calendar-links.mustache`, which it reads from the page itself
/// (it is shown inside `{{#calendarHref}}`).
package struct CalendarLinks: TemplateModel {
    package var calendarHref: String
    /// With baseURL: a `webcal://` subscription, and Google Calendar's "add by URL".
    package var webcalHref: String?
    package var googleCalendarHref: String?

    package static let fields = TemplateFields<Self>([
        .link("calendarHref", \.calendarHref), .link("webcalHref", \.webcalHref), .link("googleCalendarHref", \.googleCalendarHref),
    ])
}

/// The variables of `partials/directions.mustache`: a day's or a convoy's drive in both services.
package struct Directions: TemplateModel {
    /// "Directions for the drive"
    package var directionsLabel: String
    package var mapsLinks: [MapsLink]
    /// Why the route comes in parts, when it does.
    package var directionsNote: String?

    package struct MapsLink: TemplateModel {
        package var mapsHref: String
        package var mapsText: String

        package static let fields = TemplateFields<Self>([.link("mapsHref", \.mapsHref), .text("mapsText", \.mapsText)])
    }

    package static let fields = TemplateFields<Self>([
        .text("directionsLabel", \.directionsLabel), .list("mapsLinks", \.mapsLinks), .text("directionsNote", \.directionsNote),
    ])
}
