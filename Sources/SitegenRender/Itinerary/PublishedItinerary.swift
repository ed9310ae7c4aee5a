import Foundation
import SitegenCore
import SitegenInput
import SitegenModel

/// A trip page to publish: an itinerary export at `/trips/ID/`, or a poll's trip at
/// `/polls/CODE/trips/N/`.
public struct PublishedItinerary: Sendable {
    public enum Origin: Sendable {
        case itinerary
        case poll(title: String, path: String, number: Int, count: Int)
    }

    public let path: String
    public let origin: Origin
    public let trip: Trip
    public let timeline: ItineraryTimeline
    /// Catalog games of the trip, each once, for its calendar file.
    public let games: [Game]

    /// The games as a calendar file: published beside itinerary pages (README.md, "What the pages show"); a poll's
    /// trip links to its itinerary's file when that trip is also exported as an itinerary.
    /// nil for a trip without a catalog game: a calendar holds at least one event (RFC 5545 §3.4).
    public let calendarPath: String?
    /// On a poll's trip, the same trip's itinerary page (`/trips/ID/`) when it is exported
    /// as one: that page has the organiser's custom items, which poll pages never show.
    public let itineraryPath: String?

    /// The trip's route for navigation apps (GPX), beside its calendar file: published
    /// with itinerary pages, linked from a poll's copy like the calendar; nil for an
    /// itinerary of fewer than two stops. A poll's copy goes by the itinerary's stops, not
    /// its own: a two-stop copy of a one-stop itinerary linked to a file never written.
    public let routeFilePath: String?
}

/// Lays out trips day by day: the itinerary exports, and each poll's trips as its poll is
/// published (polls stream through the build, so their trips are laid out then).
///
/// A timeline's fallbacks are warnings; the same trip may appear in a poll and as an
/// itinerary, so each warning is reported once.
public final class ItineraryLayout: @unchecked Sendable {
    package let catalog: [String: Game]
    package let itemsByTrip: [String: [CustomItem]]
    /// Trips exported as itineraries: a poll's copy links to their page and calendar.
    package let itineraryTrips: Set<UUID>
    /// Those of them with a calendar: at least one game the catalog holds.
    private let itineraryTripsWithGames: Set<UUID>
    /// Those of them with a route file: two stops or more.
    private let itineraryTripsWithRoute: Set<UUID>
    package let timeZone: TimeZone
    private let log: DiagnosticLog
    private let lock = NSLock()
    /// Warnings about a game or item itself, which every copy of its trip would repeat.
    private var reported = Set<String>()
    /// Poll files whose trips met such a warning (reported with the first copy only), so a
    /// rebuild cannot replay a file's own warnings alone (PollFileCache).
    private var filesWithSharedWarnings = Set<String>()

    public init(exports: ExportSet, timeZone: TimeZone, log: DiagnosticLog) {
        catalog = Self.gameCatalog(exports.games, log: log)
        itemsByTrip = Dictionary(grouping: exports.customItems, by: \.tripId)
        itineraryTrips = Set(exports.itineraries.map(\.trip.id))
        let catalog = catalog
        itineraryTripsWithGames = Set(exports.itineraries.lazy.map(\.trip)
            .filter { trip in trip.stops.contains { stop in stop.games.contains { catalog[$0] != nil } } }.map(\.id))
        itineraryTripsWithRoute = Set(exports.itineraries.lazy.map(\.trip).filter { $0.stops.count >= 2 }.map(\.id))
        self.timeZone = timeZone
        self.log = log
    }

    /// The itinerary exports, by path (laid out in parallel); a repeated trip id is an error.
    public func itineraries(_ exports: [Itinerary]) -> [PublishedItinerary] {
        var byId: [UUID: Itinerary] = [:]
        var unique: [Itinerary] = []
        for itinerary in exports {
            if let first = byId[itinerary.trip.id] {
                log.add(itinerary.source.diagnostic(.error, field: "id",
                    "trip id \(itinerary.trip.id.uuidString) is also used by \"\(first.trip.name)\" (\(first.source.file):\(first.source.line))"))
                continue
            }
            byId[itinerary.trip.id] = itinerary
            unique.append(itinerary)
        }
        let published = ConcurrentResults<PublishedItinerary>(count: unique.count)
        let exports = unique
        DispatchQueue.concurrentPerform(iterations: exports.count) { index in
            let itinerary = exports[index]
            published[index] = self.publish(itinerary.trip, path: itinerary.path, origin: .itinerary, source: itinerary.source, log: self.log)
        }
        return published.values.sorted { $0.path < $1.path }
    }

    /// A poll's trips, at `/polls/CODE/trips/N/`. Warnings about the poll's own records go
    /// to `log` (its file's log, PollFileCache), else to the layout's.
    public func trips(of published: PublishedPoll, log: DiagnosticLog? = nil) -> [PublishedItinerary] {
        let poll = published.poll
        return poll.trips.enumerated().map { index, trip in
            publish(trip, path: "\(published.path)trips/\(index + 1)/",
                    origin: .poll(title: poll.title, path: published.path, number: index + 1, count: poll.trips.count),
                    source: poll.source, log: log ?? self.log)
        }
    }

    /// What a poll's trip pages take from the itinerary and game exports, as a digest. For
    /// each trip (its id and the game ids of its stops, in order): whether it is exported as
    /// an itinerary, and whether that itinerary has a calendar and a route file (the page
    /// links to them), and the catalog's entry for each game it lists (none: the page shows
    /// the id, with a warning). A poll's key holds this instead of those exports' files
    /// (docs/architecture.md, "Poll keys"), so editing an itinerary, or a game no poll
    /// lists, renders no poll again.
    package func linksDigest(of trips: [(id: UUID, games: [String])]) -> String {
        struct TripLinks: Encodable {
            var id: UUID
            var itinerary: Bool
            var calendar: Bool
            var route: Bool
            var games: [Game?]
        }
        let links = trips.map { trip in
            TripLinks(id: trip.id, itinerary: itineraryTrips.contains(trip.id), calendar: itineraryTripsWithGames.contains(trip.id),
                      route: itineraryTripsWithRoute.contains(trip.id), games: trip.games.map { catalog[$0] })
        }
        return ValueDigest.of(links, context: "poll links")
    }

    /// The same for a poll's trips.
    package func linksDigest(of poll: Poll) -> String {
        linksDigest(of: Self.gameIds(of: poll))
    }

    /// Each trip of a poll with the game ids of its stops, as `linksDigest` takes them.
    package static func gameIds(of poll: Poll) -> [(id: UUID, games: [String])] {
        poll.trips.map { trip in (trip.id, trip.stops.flatMap(\.games)) }
    }

    /// Whether a trip of a poll in `file` (as shown) met a warning about a game or item.
    package func metSharedWarnings(_ file: String) -> Bool {
        lock.withLock { filesWithSharedWarnings.contains(file) }
    }

    /// A game id that an option set's trip lists and no catalog holds: the option's card
    /// counts it among its games (as the planner exported them), but an itinerary or a poll
    /// with that trip warns, and so does this, at the id.
    public func reportUnknownGames(in optionSets: [TripOptionSet]) {
        for set in optionSets {
            for trip in set.trips {
                for stop in trip.stops {
                    for (index, id) in stop.games.enumerated() where catalog[id] == nil {
                        let place = index < stop.gamePlaces.count ? stop.gamePlaces[index] : nil
                        log.add((place.map { set.source.at(offset: $0.offset) } ?? set.source).diagnostic(.warning, field: place?.path ?? "",
                            "option \(quoted(trip.name)) of \(quoted(set.title)): no game catalog holds game \(id); it still counts among the option's games",
                            summary: "game ids in option sets that no catalog holds"))
                    }
                }
            }
        }
    }

    /// Custom items are published only on their trip's itinerary page: an item whose trip
    /// is not exported as an itinerary is ignored, with a warning saying why (the polls'
    /// trip pages never show items).
    public func reportOrphanItems(_ items: [CustomItem], polls: [PollSummary]) {
        let itineraries = Set(itineraryTrips.map(\.uuidString))
        let orphans = items.filter { !itineraries.contains($0.tripId) }
        guard !orphans.isEmpty else { return }
        // Only the orphans' trips are looked for among the polls' (40,000 at 10,000 polls),
        // each id as written compared with the poll trip's as an itinerary's is.
        let wanted = Set(orphans.compactMap { item in UUID(uuidString: item.tripId).flatMap { $0.uuidString == item.tripId ? $0 : nil } })
        var inPolls = Set<UUID>()
        if !wanted.isEmpty {
            for poll in polls { for trip in poll.tripIds where wanted.contains(trip) { inPolls.insert(trip) } }
        }
        for item in orphans {
            let inPoll = UUID(uuidString: item.tripId).map { inPolls.contains($0) && $0.uuidString == item.tripId } ?? false
            let why = inPoll
                ? "which is exported only in a poll, and poll pages do not show custom items; export the trip as an itinerary to publish it"
                : "which no export holds"
            log.add(item.source.diagnostic(.warning, field: "tripId", "item \(quoted(item.title)) (\(item.id)) belongs to trip \(item.tripId), \(why); it is ignored",
                summary: "custom items whose trip is not an exported itinerary are ignored"))
        }
    }

    private func publish(_ trip: Trip, path: String, origin: PublishedItinerary.Origin, source: SourceRef,
                         log: DiagnosticLog) -> PublishedItinerary {
        // Custom items are the organiser's notes on a saved trip: they stay off poll pages,
        // even when a poll's trip has the id of a saved one.
        let items: [CustomItem], itineraryPath: String?, calendar: String?, route: String?
        // A game listed twice (at one stop or two) is one event: its UID must be unique.
        var seen = Set<String>()
        let games = trip.stops.flatMap(\.games).compactMap { catalog[$0] }.filter { seen.insert($0.id).inserted }
        switch origin {
        case .itinerary:
            items = itemsByTrip[trip.id.uuidString] ?? []
            itineraryPath = nil
            calendar = games.isEmpty ? nil : path + "calendar.ics"
            route = trip.stops.count >= 2 ? path + GPXFile.fileName : nil
        case .poll:
            items = []
            itineraryPath = itineraryTrips.contains(trip.id) ? trip.itineraryPath : nil
            calendar = itineraryTripsWithGames.contains(trip.id) ? itineraryPath.map { $0 + "calendar.ics" } : nil
            route = itineraryTripsWithRoute.contains(trip.id) ? itineraryPath.map { $0 + GPXFile.fileName } : nil
        }
        let timeline = ItineraryTimeline.build(trip: trip, catalog: catalog, items: items, timeZone: timeZone)
        for warning in timeline.warnings {
            if let own = warning.source {
                // Keyed without a line lookup: positions are worked out only for what is printed.
                let key = "\(own.file)\u{0}\(own.orderPosition.0)\u{0}\(warning.message)"
                let first = lock.withLock {
                    filesWithSharedWarnings.insert(source.file)
                    return reported.insert(key).inserted
                }
                if first { self.log.add(own.diagnostic(.warning, field: warning.field, warning.message, summary: warning.summary)) }
                continue
            }
            let at = warning.offset.map { source.at(offset: $0) } ?? source
            log.add(at.diagnostic(.warning, field: warning.field, warning.message, summary: warning.summary))
        }
        return PublishedItinerary(path: path, origin: origin, trip: trip, timeline: timeline,
                                  games: games,
                                  calendarPath: calendar,
                                  itineraryPath: itineraryPath,
                                  routeFilePath: route)
    }

    /// Games by id; the first definition wins, and a conflicting one is a warning.
    package static func gameCatalog(_ games: [Game], log: DiagnosticLog) -> [String: Game] {
        var catalog: [String: Game] = [:]
        for game in games {
            if let first = catalog[game.id] {
                if first.startTime != game.startTime || first.startIsDateOnly != game.startIsDateOnly
                    || first.homeTeam != game.homeTeam || first.awayTeam != game.awayTeam {
                    log.add(game.source.diagnostic(.warning, field: "id",
                        "game \(game.id) is defined differently in \(first.source.file):\(first.source.line); that definition is used"))
                }
                continue
            }
            catalog[game.id] = game
        }
        return catalog
    }
}
