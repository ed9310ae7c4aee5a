import Foundation
import SitegenCore
import SitegenModel

/// `/trips/ID/` and `/polls/CODE/trips/N/` with their `calendar.ics` (docs/rules.md, "Itinerary timelines").
enum ItineraryPages {
    static let templates = ["itinerary"]

    /// `previews`: with the itinerary's link-preview image (a poll's trip pages name their poll's).
    static func files(for published: PublishedItinerary, previews: Bool) -> [PlannedFile] {
        var files = [PlannedFile(path: SiteLinks.file(for: published.path)) { kit in page(published, kit: kit) }]
        guard case .itinerary = published.origin else { return files }
        if let calendar = published.calendarPath {
            files.append(PlannedFile(path: calendar) { kit in
                Array(CalendarFile.ics(trip: published.trip, games: published.games,
                                       calendarName: "\(published.trip.name) · \(kit.config.title)", buildTime: kit.requiredBuildTime).utf8)
            })
        }
        if case .itinerary = published.origin, let route = published.routeFilePath {
            // routeFilePath exists only for trips of two stops or more, which make a route.
            files.append(PlannedFile(path: route) { _ in
                Array(GPXFile.route(name: published.trip.name, points: TripRoute.points(published.trip))!.utf8)
            })
        }
        if previews { files.append(PreviewPages.tripFile(published)) }
        return files
    }

    /// Itineraries in the order the home page lists them: by start date, then name, then path.
    static func sorted(_ itineraries: [PublishedItinerary]) -> [PublishedItinerary] {
        itineraries.sorted {
            ($0.trip.preferences.startDate, $0.trip.name.lowercased(), $0.path) < ($1.trip.preferences.startDate, $1.trip.name.lowercased(), $1.path)
        }
    }

    /// One row of the home page's itinerary list: name, dates, cities, games.
    static func homeRow(_ published: PublishedItinerary, kit: RenderKit) -> [String: Any] {
        let trip = published.trip
        return [
            "title": trip.name,
            "href": kit.href(published.path, from: ""),
            "dates": kit.format.dateRange(trip.preferences.startDate, trip.preferences.endDate),
            "route": trip.distinctCities.joined(separator: " → "),
            "cities": Formatting.count(trip.distinctCities.count, "city", "cities"),
            "games": Formatting.count(trip.totalGames, "game"),
        ]
    }

    static func page(_ published: PublishedItinerary, kit: RenderKit) -> [UInt8] {
        let trip = published.trip, path = published.path, format = kit.format
        let timeline = published.timeline, legs = TripRoute.legs(trip)
        let dates = format.dateRange(trip.preferences.startDate, trip.preferences.endDate)
        let totals = [
            Formatting.count(trip.totalGames, "game"),
            Formatting.count(trip.distinctCities.count, "city", "cities"),
            Formatting.miles(meters: trip.totalDistanceMeters),
            "\(Formatting.duration(seconds: trip.totalDrivingSeconds)) driving",
        ]
        var meta = PageMeta(path: path, title: trip.name,
                            description: "\(dates): \(trip.stops.map(\.city).joined(separator: " → ")). \(totals.joined(separator: ", ")).")
        meta.image = PreviewPages.itineraryImage(published, kit: kit)
        var context: [String: Any] = [
            "name": trip.name,
            "dates": dates,
            "totals": totals,
            "days": timeline.days.map { day in dayContext(day, trip: trip, legs: legs, kit: kit) },
            "unscheduled": timeline.unscheduled.map { entryContext($0, kit: kit) },
            "hasUnscheduled": !timeline.unscheduled.isEmpty,
        ]
        if case .poll(let title, let pollPath, let number, let count) = published.origin {
            context["poll"] = ["title": title, "href": kit.href(pollPath, from: path), "number": number, "count": count] as [String: Any]
            meta.noindex = !kit.config.listPolls
        } else {
            context["eyebrow"] = "Itinerary"
        }
        if let notes = trip.notes { context["notesHTML"] = MarkdownRenderer.html(notes) }
        if let calendar = published.calendarPath { context.merge(HandoffLinks.calendar(calendar, from: path, kit: kit)) { $1 } }
        if let route = published.routeFilePath { context["routeFileHref"] = kit.href(route, from: path) }
        if let itinerary = published.itineraryPath { context["itineraryHref"] = kit.href(itinerary, from: path) }
        if let picture = RoutePicture.make(stops: trip.stops) {
            context["routeMap"] = RouteMap.context(picture, title: "Route map of \(trip.name)",
                                                   description: "Stops in order: \(trip.stops.map(\.city).joined(separator: " → ")).")
        }
        return kit.page("itinerary", meta: meta, context: context)
    }

    static func dayContext(_ day: ItineraryTimeline.Day, trip: Trip, legs: [String: TripRoute.Leg], kit: RenderKit) -> [String: Any] {
        var context: [String: Any] = [
            "number": day.number,
            "id": "day-\(day.number)",
            "date": "\(kit.format.weekday(day.date)), \(kit.format.longDate(day.date))",
            "cities": day.cities.joined(separator: " → "),
            "entries": day.entries.map { entryContext($0, kit: kit) },
            "isEmpty": day.entries.isEmpty,
        ]
        if let points = TripRoute.points(of: day, legs: legs, trip: trip) {
            context["directions"] = HandoffLinks.directions(points, label: points.count > 2 ? "Directions for the day's drives" : "Directions for the drive")
        }
        return context
    }

    static func entryContext(_ entry: ItineraryTimeline.Entry, kit: RenderKit) -> [String: Any] {
        switch entry {
        case .game(let game):
            let place = [game.venue, game.city].compactMap { $0 }.joined(separator: ", ")
            return [
                "kind": "game", "icon": "🏟️", "label": game.sport.isEmpty ? "Game" : game.sport.uppercased(),
                "time": kit.format.time(game.startTime, in: game.timeZone),
                "datetime": Formatting.iso8601(game.startTime),
                "title": "\(game.awayTeam) at \(game.homeTeam)",
                "detail": place,
            ]
        case .unknownGame(let id):
            return ["kind": "game", "icon": "🏟️", "label": "Game", "title": id,
                    "detail": "Game details are not in the catalog."]
        case .travel(let segment, let zone):
            var context: [String: Any] = [
                "kind": "travel", "icon": "🚗", "label": "Drive",
                "title": "\(segment.fromCity) → \(segment.toCity)",
                "detail": "\(Formatting.miles(meters: segment.distanceMeters)) · \(Formatting.duration(seconds: segment.durationSeconds))",
            ]
            if let departure = segment.departureDate {
                context["time"] = kit.format.time(departure, in: zone)
                context["datetime"] = Formatting.iso8601(departure)
            }
            return context
        case .item(let item):
            var context: [String: Any] = [
                "kind": "item item-\(item.category.rawValue)", "icon": item.category.icon, "label": item.category.label,
                "title": item.title,
            ]
            if let notes = item.notes { context["entryNotesHTML"] = MarkdownRenderer.html(notes) }
            return context
        }
    }
}
