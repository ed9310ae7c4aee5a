import Foundation

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
    /// Catalog games of the trip, for its calendar file.
    public var games: [Game] { trip.stops.flatMap(\.games).compactMap { catalog[$0] } }

    /// The games as a calendar file: published beside itinerary pages (SPEC §5); a poll's
    /// trip links to its itinerary's file when that trip is also exported as an itinerary.
    public let calendarPath: String?

    private let catalog: [String: Game]
    private let items: [CustomItem]
    private let timeZone: TimeZone

    /// Laid out when its page is rendered, then dropped: holding every trip's timeline for
    /// the whole build made memory grow with the site (160 MB at 10,000 polls).
    public var timeline: ItineraryTimeline {
        ItineraryTimeline.build(trip: trip, catalog: catalog, items: items, timeZone: timeZone)
    }

    /// Lays out every itinerary and every poll trip (in parallel), reporting fallbacks as warnings.
    public static func publishAll(exports: ExportSet, polls: [PublishedPoll], timeZone: TimeZone, log: DiagnosticLog) -> [PublishedItinerary] {
        let catalog = gameCatalog(exports.games, log: log)
        let itemsByTrip = Dictionary(grouping: exports.customItems, by: \.tripId)
        let itineraryTrips = Set(exports.itineraries.map(\.trip.id))

        var published: [PublishedItinerary] = []
        var sources: [SourceRef] = []
        func publish(_ trip: Trip, path: String, origin: Origin, source: SourceRef) {
            let calendar: String?
            switch origin {
            case .itinerary: calendar = path + "calendar.ics"
            case .poll: calendar = itineraryTrips.contains(trip.id) ? "trips/\(trip.id.uuidString)/calendar.ics" : nil
            }
            published.append(PublishedItinerary(path: path, origin: origin, trip: trip, calendarPath: calendar,
                                                catalog: catalog, items: itemsByTrip[trip.id.uuidString] ?? [], timeZone: timeZone))
            sources.append(source)
        }

        var byId: [UUID: Itinerary] = [:]
        for itinerary in exports.itineraries {
            if let first = byId[itinerary.trip.id] {
                log.add(itinerary.source.diagnostic(.error, field: "id",
                    "trip id \(itinerary.trip.id.uuidString) is also used by \"\(first.trip.name)\" (\(first.source.file):\(first.source.line))"))
                continue
            }
            byId[itinerary.trip.id] = itinerary
            publish(itinerary.trip, path: itinerary.path, origin: .itinerary, source: itinerary.source)
        }
        for poll in polls {
            for (index, trip) in poll.poll.trips.enumerated() {
                publish(trip, path: "\(poll.path)trips/\(index + 1)/",
                        origin: .poll(title: poll.poll.title, path: poll.path, number: index + 1, count: poll.poll.trips.count),
                        source: poll.poll.source)
            }
        }

        // Every timeline is laid out once now for its warnings (`sitegen check` reports them
        // too), and again when its page is rendered.
        let laidOut = published
        let warnings = ConcurrentResults<[ItineraryTimeline.Warning]>(count: laidOut.count)
        DispatchQueue.concurrentPerform(iterations: laidOut.count) { index in
            warnings[index] = laidOut[index].timeline.warnings
        }
        var reported = Set<String>()
        for (index, source) in sources.enumerated() {
            for warning in warnings[index] ?? [] {
                let diagnostic = (warning.source ?? source).diagnostic(.warning, warning.message)
                // The same trip may appear in a poll and as an itinerary: warn once.
                if reported.insert(diagnostic.description).inserted { log.add(diagnostic) }
            }
        }

        let knownTrips = Set(exports.itineraries.map(\.trip.id.uuidString) + polls.flatMap { $0.poll.trips.map(\.id.uuidString) })
        for item in exports.customItems where !knownTrips.contains(item.tripId) {
            log.add(item.source.diagnostic(.warning, field: "tripId", "item \"\(item.title)\" (\(item.id)) belongs to trip \(item.tripId), which no export holds; it is ignored"))
        }
        return published.sorted { $0.path < $1.path }
    }

    /// Games by id; the first definition wins, and a conflicting one is a warning.
    static func gameCatalog(_ games: [Game], log: DiagnosticLog) -> [String: Game] {
        var catalog: [String: Game] = [:]
        for game in games {
            if let first = catalog[game.id] {
                if first.startTime != game.startTime || first.homeTeam != game.homeTeam || first.awayTeam != game.awayTeam {
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
