import Foundation
import SitegenCore
import SitegenModel

/// `/trips/ID/` and `/polls/CODE/trips/N/` with their `calendar.ics` (docs/rules.md, "Itinerary timelines").
package enum ItineraryPages {
    /// `previews`: with the itinerary's link-preview image (a poll's trip pages name their poll's).
    package static func files(for published: PublishedItinerary, previews: Bool) -> [PlannedFile] {
        var files = [PlannedFile(path: SiteLinks.file(for: published.path)) { kit in page(published, kit: kit) }]
        guard case .itinerary = published.origin else { return files }
        if let route = published.routeFilePath {
            // routeFilePath exists only for trips of two stops or more, which make a route.
            files.append(PlannedFile(path: route) { _ in
                Array(GPXFile.route(name: published.trip.name, points: TripRoute.points(published.trip))!.utf8)
            })
        }
        if previews { files.append(PreviewPages.tripFile(published)) }
        if let calendar = published.calendarPath {
            var file = PlannedFile(path: calendar) { kit in
                Array(CalendarFile.ics(trip: published.trip, games: published.games,
                                       calendarName: "\(published.trip.name) · \(kit.config.title)", buildTime: kit.requiredBuildTime,
                                       format: kit.format).utf8)
            }
            file.readsBuildTime = true
            files.insert(file, at: 1)
        }
        // An itinerary's files are made from its export, the game catalog, custom items and
        // the site — all in the context every key is combined with (BuildFingerprint.siteContext)
        // — so they are kept while that is unchanged; its calendar also while the build time
        // (DTSTAMP) is. Hashing the laid-out itinerary instead cost a millisecond each. A
        // poll's trip pages go with their poll's key.
        for index in files.indices { files[index].key = "itinerary \(published.trip.id.uuidString)" }
        return files
    }

    /// Itineraries in the order the home page lists them: by start date, then name, then path.
    package static func sorted(_ itineraries: [PublishedItinerary]) -> [PublishedItinerary] {
        itineraries.sorted {
            ($0.trip.preferences.startDate, $0.trip.name.lowercased(), $0.path) < ($1.trip.preferences.startDate, $1.trip.name.lowercased(), $1.path)
        }
    }

    /// One row of the home page's itinerary list: name, dates, cities, games.
    package static func homeRow(_ published: PublishedItinerary, kit: RenderKit) -> HomePageModel.Itinerary {
        let trip = published.trip
        return HomePageModel.Itinerary(
            title: trip.name,
            href: kit.href(published.path, from: ""),
            dates: kit.format.dateRange(trip.preferences.startDate, trip.preferences.endDate),
            route: BidiIsolation.isolated(trip.routeCities).joined(separator: " → "),
            cities: Formatting.count(trip.distinctCities.count, "city", "cities"),
            games: Formatting.count(trip.totalGames, "game"))
    }

    package static func page(_ published: PublishedItinerary, kit: RenderKit) -> [UInt8] {
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
                            description: "\(sentence("\(dates): \(BidiIsolation.isolated(trip.routeCities).joined(separator: " → "))")) \(totals.joined(separator: ", ")).")
        meta.image = PreviewPages.itineraryImage(published, kit: kit)
        var model = ItineraryPageModel(
            name: trip.name,
            dates: dates,
            totals: totals,
            notesHTML: trip.notes.map { kit.markdown($0, below: 1) },
            itineraryHref: published.itineraryPath.map { kit.href($0, from: path) },
            calendar: published.calendarPath.map { HandoffLinks.calendar($0, from: path, kit: kit) },
            routeFileHref: published.routeFilePath.map { kit.href($0, from: path) },
            routeMap: RoutePicture.make(trip: trip).map { picture in
                RouteMap(picture, title: "Route map of \(BidiIsolation.isolated(trip.name))",
                         description: sentence("Stops in order: \(BidiIsolation.isolated(trip.stopNames).joined(separator: " → "))"))
            },
            days: timeline.days.map { day in dayModel(day, trip: trip, legs: legs, kit: kit) },
            hasUnscheduled: !timeline.unscheduled.isEmpty,
            isCut: timeline.isCut,
            unscheduled: timeline.unscheduled.map { [places = DrivePlaces(trip: trip, legs: legs)] in
                entryModel($0, kit: kit, dated: true, places: places)
            })
        if case .poll(let title, let pollPath, let number, let count) = published.origin {
            model.poll = ItineraryPageModel.Poll(title: title, href: kit.href(pollPath, from: path), number: number, count: count)
            meta.noindex = !kit.config.listPolls
        } else {
            model.eyebrow = "Itinerary"
        }
        return kit.page(model, meta: meta)
    }

    package static func dayModel(_ day: ItineraryTimeline.Day, trip: Trip, legs: [String: TripRoute.Leg], kit: RenderKit) -> ItineraryPageModel.Day {
        let places = DrivePlaces(trip: trip, legs: legs)
        return ItineraryPageModel.Day(
            number: day.number,
            id: "day-\(day.number)",
            date: "\(kit.format.weekday(day.date)), \(kit.format.longDate(day.date))",
            cities: BidiIsolation.isolated(day.cities).joined(separator: " → "),
            isEmpty: day.entries.isEmpty,
            entries: day.entries.map { entryModel($0, kit: kit, places: places) },
            directions: TripRoute.points(of: day, legs: legs, trip: trip).flatMap { points in
                HandoffLinks.directions(points, label: points.count > 2 ? "Directions for the day's drives" : "Directions for the drive")
            })
    }

    /// A drive's ends named as the trip's stops are ("Portland, OR → Portland, ME" where the
    /// trip has a Portland in two states); a segment carries only its cities' names.
    package struct DrivePlaces {
        var stopNames: [String] = []
        var legs: [String: TripRoute.Leg] = [:]

        init(trip: Trip, legs: [String: TripRoute.Leg]) {
            stopNames = trip.stopNames
            self.legs = legs
        }

        init() {}

        func names(_ segment: TravelSegment) -> (from: String, to: String) {
            guard let leg = legs[segment.id] else { return (segment.fromCity, segment.toCity) }
            return (stopNames[leg.from], stopNames[leg.to])
        }
    }

    /// `dated`: the time with its date, for entries under Unscheduled, which no day heading dates.
    package static func entryModel(_ entry: ItineraryTimeline.Entry, kit: RenderKit, dated: Bool = false,
                                   places: DrivePlaces = DrivePlaces()) -> TimelineEntry {
        func time(_ date: Date, in zone: TimeZone?) -> String {
            dated ? kit.format.dateTime(date, in: zone) : kit.format.time(date, in: zone)
        }
        switch entry {
        case .game(let game):
            // A game dated without a time: "Time TBD" (a made-up "12:00 AM", or the evening
            // before in a western venue's zone, was shown), with its date under Unscheduled.
            let shown = game.startIsDateOnly
                ? (dated ? "\(kit.format.longDate(game.startTime)), time TBD" : "Time TBD")
                : time(game.startTime, in: game.timeZone)
            return TimelineEntry(
                kind: "game", icon: "🏟️", label: game.sport.isEmpty ? "Game" : game.sport.uppercased(),
                time: shown,
                datetime: game.startIsDateOnly ? kit.format.isoDate(game.startTime) : Formatting.iso8601(game.startTime),
                title: "\(BidiIsolation.isolated(game.awayTeam)) at \(BidiIsolation.isolated(game.homeTeam))",
                detail: BidiIsolation.isolated([game.venue, game.city].compactMap { $0 }).joined(separator: ", "))
        case .unknownGame(let id):
            return TimelineEntry(kind: "game", icon: "🏟️", label: "Game", title: id, detail: "Game details are not in the catalog.")
        case .travel(let segment, let zone):
            // A departure written as a date alone has no time to show ("10:00 PM PDT" was
            // midnight in the site's zone); under Unscheduled its date is shown.
            let shown = segment.departureDate.flatMap { date in
                segment.departureIsDateOnly ? (dated ? kit.format.longDate(date) : nil) : time(date, in: zone)
            }
            let (from, to) = places.names(segment)
            return TimelineEntry(
                kind: "travel", icon: "🚗", label: "Drive",
                time: shown,
                datetime: segment.departureDate.map(Formatting.iso8601),
                title: "\(BidiIsolation.isolated(from)) → \(BidiIsolation.isolated(to))",
                detail: "\(Formatting.miles(meters: segment.distanceMeters)) · \(Formatting.duration(seconds: segment.durationSeconds))")
        case .item(let item):
            // Under Unscheduled, the day it was put on, which the trip does not have (games
            // and drives there show their dates; an item has only its day).
            return TimelineEntry(kind: "item item-\(item.category.rawValue)", icon: item.category.icon, label: item.category.label,
                                 title: item.title, detail: dated ? "Set for day \(item.anchorDay)" : nil,
                                 // Under a day's <h3>, or right under the Unscheduled <h2>.
                                 entryNotesHTML: item.notes.map { kit.markdown($0, below: dated ? 2 : 3) })
        }
    }
}
