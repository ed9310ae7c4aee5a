import Foundation
import SitegenModel

/// Template contexts for the links that hand a trip to other apps (docs/rules.md, "Handing trips to other apps"): calendar
/// subscriptions, directions in Google Maps and Apple Maps, and the GPX route file.
/// Itinerary and convoy pages share them (partials/calendar-links, partials/directions).
enum HandoffLinks {
    /// The calendar download, and with baseURL the subscriptions, for the page at `page`.
    static func calendar(_ calendarPath: String, from page: String, kit: RenderKit) -> [String: Any] {
        var context: [String: Any] = ["calendarHref": kit.href(calendarPath, from: page)]
        if let absolute = kit.links.absolute(calendarPath), let subscription = CalendarSubscription(fileURL: absolute) {
            context["webcalHref"] = subscription.webcal
            if let google = subscription.google { context["googleCalendarHref"] = google }
        }
        return context
    }

    /// Directions through `points` in both services; nil when there is no drive (fewer than
    /// two points). A route longer than a service takes in one link is split into parts,
    /// each named by where it starts and ends.
    static func directions(_ points: [RoutePoint], label: String) -> [String: Any]? {
        let google = RouteHandoff.links(points, service: .google)
        guard !google.isEmpty else { return nil }
        let apple = RouteHandoff.links(points, service: .apple)
        var context: [String: Any] = [
            "directionsLabel": label,
            "mapsLinks": rows(google, whole: "Open in Google Maps", part: "Google Maps") + rows(apple, whole: "Apple Maps", part: "Apple Maps"),
        ]
        // Why the route comes in parts: "Google Maps opens up to 5 places at a time, Apple Maps one stretch at a time."
        var limits: [String] = []
        if google.count > 1 { limits.append("Google Maps opens up to \(RouteHandoff.googleMaxWaypoints + 2) places at a time") }
        if apple.count > 1 { limits.append(limits.isEmpty ? "Apple Maps opens one stretch at a time" : "Apple Maps one stretch at a time") }
        if !limits.isEmpty { context["directionsNote"] = limits.joined(separator: ", ") + "." }
        return context
    }

    private static func rows(_ links: [RouteHandoff.Link], whole: String, part: String) -> [[String: Any]] {
        guard links.count > 1 else { return links.map { ["mapsHref": $0.url, "mapsText": whole] } }
        return links.map { ["mapsHref": $0.url, "mapsText": "\(part): \($0.from) → \($0.to)"] }
    }
}
