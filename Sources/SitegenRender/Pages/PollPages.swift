import Foundation
import SitegenCore
import SitegenModel

/// A poll with its counted results, ready to publish.
public struct PublishedPoll: Sendable, Encodable {
    public let poll: Poll
    public let results: PollResults

    package init(poll: Poll, results: PollResults) {
        self.poll = poll
        self.results = results
    }

    public var path: String { "polls/\(poll.shareCode)/" }

    /// Trip `index`'s name as the standings show it: with its number when another trip of the
    /// poll has the same name ("Lakefront Loop (trip 2)"), or a tie of three "Lakefront Loop"s
    /// could not be told apart. Trip cards carry their number anyway, and results.json both.
    public func tripName(_ index: Int) -> String {
        let name = poll.trips[index].name
        let key = name.trimmingCharacters(in: .whitespaces)
        let shared = poll.trips.count { $0.name.trimmingCharacters(in: .whitespaces) == key } > 1
        return shared ? "\(key) (trip \(index + 1))" : name
    }

    /// "Chicago Loop" or "Tie: A and B" or nil when nobody voted. Names inside these lines
    /// are isolated (`BidiIsolation`), as on every page.
    public var leaderText: String? {
        let leaders = results.leaders.map { BidiIsolation.isolated(tripName($0.trip)) }
        switch leaders.count {
        case 0: return nil
        case 1: return leaders[0]
        default: return "Tie: " + listJoined(leaders)
        }
    }

    /// "Leading: A", "Tied for first: A and B", "No votes yet", "3 ballots set aside, none counted yet".
    public var leaderLine: String {
        let leaders = results.leaders.map { BidiIsolation.isolated(tripName($0.trip)) }
        switch leaders.count {
        // Not "No votes yet": friends who voted would be told that nobody has.
        case 0 where results.ballots.invalid > 0: return "\(PollPages.setAside(results.ballots.invalid)), none counted yet"
        case 0: return "No votes yet"
        case 1: return "Leading: \(leaders[0])"
        default: return "Tied for first: \(listJoined(leaders))"
        }
    }
}

/// `/polls/CODE/` and `/polls/CODE/results.json` (docs/pages.md, "Poll" and "results.json").
package enum PollPages {
    package static func files(for published: PublishedPoll, unlisted: Bool, tripPages: Bool) -> [PlannedFile] {
        [
            PlannedFile(path: SiteLinks.file(for: published.path)) { kit in
                page(published, unlisted: unlisted, tripPages: tripPages, kit: kit)
            },
            PlannedFile(path: published.path + "results.json") { _ in
                resultsJSON(published).bytes()
            },
        ]
    }

    // MARK: results.json

    package static func resultsJSON(_ published: PublishedPoll) -> JSONOutput {
        let poll = published.poll, results = published.results
        let breakdown = results.breakdown
        return .object([
            ("shareCode", .string(poll.shareCode.value)),
            ("title", .string(poll.title)),
            ("tripCount", .int(poll.trips.count)),
            ("voters", .int(results.voters)),
            ("ballots", .object([
                ("received", .int(results.ballots.received)),
                ("counted", .int(results.ballots.counted)),
                ("invalid", .int(results.ballots.invalid)),
                ("superseded", .int(results.ballots.superseded)),
            ])),
            ("results", .array(results.standings.map { standing in
                .object([
                    ("trip", .int(standing.trip + 1)),
                    ("name", .string(poll.trips[standing.trip].name)),
                    ("points", .int(standing.points)),
                    ("rank", .int(standing.rank)),
                    ("tied", .bool(standing.tied)),
                    ("share", .double(standing.share)),
                    ("rankCounts", breakdown == nil ? .null : .array(standing.rankCounts.map { .int($0) })),
                ])
            })),
            ("headToHeadWinner", breakdown?.headToHeadWinner.map { .int($0 + 1) } ?? .null),
            ("updatedAt", .string(Formatting.iso8601(results.updatedAt))),
        ])
    }

    // MARK: The page

    package static func page(_ published: PublishedPoll, unlisted: Bool, tripPages: Bool, kit: RenderKit) -> [UInt8] {
        let poll = published.poll, results = published.results
        let path = published.path
        let counted = results.ballots.counted
        let trips = poll.trips

        var description = "\(Formatting.count(trips.count, "trip option")), \(Formatting.count(counted, "vote"))."
        if counted == 0 && results.ballots.invalid > 0 {
            description = "\(Formatting.count(trips.count, "trip option")); \(setAside(results.ballots.invalid)), none counted yet."
        }
        if let leader = published.leaderText {
            description = "\(leader) leads with \(Formatting.count(results.standings[0].points, "point")) from \(Formatting.count(counted, "vote")). Vote results for \(Formatting.count(trips.count, "trip option"))."
            if results.leaders.count > 1 {
                // "with", not a comma: in plain text a number right after a right-to-left name
                // is drawn on the name's side.
                description = "\(leader) with \(Formatting.count(results.standings[0].points, "point")) each from \(Formatting.count(counted, "vote"))."
            }
        }
        var meta = PageMeta(path: path, title: poll.title, description: description)
        meta.noindex = unlisted
        meta.image = PreviewPages.pollImage(published, kit: kit)

        let standings = results.standings.map { standing in
            PollPageModel.Standing(
                rank: Formatting.ordinal(standing.rank),
                rankNumber: standing.rank,
                isFirst: standing.rank == 1 && counted > 0,
                tied: standing.tied && counted > 0,
                name: published.tripName(standing.trip),
                points: Formatting.count(standing.points, "point"),
                percent: "\(Int((standing.share * 100).rounded()))%",
                barWidth: Formatting.oneDecimal(standing.share * 100) + "%",
                tripNumber: standing.trip + 1,
                href: tripPages ? kit.href("\(path)trips/\(standing.trip + 1)/", from: path) : nil)
        }
        var notes: [String] = []
        // Without a counted ballot the sentence at the top says it.
        if results.ballots.invalid > 0 && counted > 0 {
            notes.append("\(Formatting.count(results.ballots.invalid, "ballot")) set aside because \(results.ballots.invalid == 1 ? "it did" : "they did") not rank every trip exactly once.")
        }
        if results.ballots.superseded > 0 {
            notes.append("\(Formatting.count(results.ballots.superseded, "earlier ballot")) replaced by \(results.ballots.superseded == 1 ? "its voter's" : "their voters'") newer \(results.ballots.superseded == 1 ? "ballot" : "ballots").")
        }
        var model = PollPageModel(
            title: poll.title,
            shareCode: poll.shareCode.value,
            descriptionHTML: poll.description.map { kit.markdown($0, below: 1) },
            votersText: votersSentence(counted, setAside: results.ballots.invalid, tripCount: trips.count),
            hasVotes: counted > 0,
            standings: standings,
            // Without a counted ballot there is no ranking: the trips are a plain list.
            resultsList: counted > 0 ? "ol" : "ul",
            ballotNotes: notes,
            tripCount: Formatting.count(trips.count, "trip"),
            tripViews: OptionPages.viewLinks(for: published, kit: kit),
            trips: trips.enumerated().map { index, trip in
                tripCard(trip, number: index + 1, href: tripPages ? kit.href("\(path)trips/\(index + 1)/", from: path) : nil, kit: kit)
            },
            updatedText: kit.format.dateTime(results.updatedAt),
            updatedISO: Formatting.iso8601(results.updatedAt),
            appLink: "sportstime://poll/\(poll.shareCode.value)",
            resultsJSON: kit.href(path + "results.json", from: path))
        if results.leaders.count > 1 {
            model.tieForFirst = "It's a tie for first: \(listJoined(results.leaders.map { BidiIsolation.isolated(published.tripName($0.trip)) })), with \(Formatting.count(results.leaders[0].points, "point")) each."
        }
        if let breakdown = results.breakdown {
            model.breakdown = PollPageModel.Breakdown(
                positions: (1...trips.count).map { Formatting.ordinal($0) },
                rows: results.standings.map { standing in
                    PollPageModel.Breakdown.Row(name: published.tripName(standing.trip), counts: standing.rankCounts.map { String($0) })
                },
                headToHead: breakdown.headToHeadWinner.map {
                    "\(BidiIsolation.isolated(published.tripName($0))) beats every other trip head to head: a majority of voters ranked it above each of the others."
                } ?? "No trip beats every other trip head to head.",
                isWide: trips.count > 5)
        } else if counted > 0 {
            model.breakdownHidden = "To keep ballots private, the breakdown by position appears once \(kit.config.minBallotsForBreakdown) ballots have been counted."
        }
        return kit.page(model, meta: meta)
    }

    /// With every ballot set aside (a trip added after friends voted), "Nobody has voted
    /// yet." alone would tell four friends who voted that nobody has.
    package static func votersSentence(_ count: Int, setAside: Int = 0, tripCount: Int = 0) -> String {
        switch count {
        case 0 where setAside > 0:
            return "Nobody has voted yet on all \(Formatting.count(tripCount, "trip")): \(Formatting.count(setAside, "ballot")) \(setAside == 1 ? "was" : "were") set aside because \(setAside == 1 ? "it did" : "they did") not rank every trip exactly once."
        case 0: return "Nobody has voted yet."
        case 1: return "1 person has voted."
        default: return "\(Formatting.grouped(count)) people have voted."
        }
    }

    /// "4 ballots set aside".
    package static func setAside(_ count: Int) -> String {
        "\(Formatting.count(count, "ballot")) set aside"
    }

    /// The summary card of a trip, shared by every page that lists trips.
    package static func tripCard(_ trip: Trip, number: Int, href: String?, kit: RenderKit) -> TripCard {
        TripCard(
            number: number,
            name: trip.name,
            href: href,
            dates: kit.format.dateRange(trip.preferences.startDate, trip.preferences.endDate),
            sports: trip.preferences.sports.isEmpty ? nil : trip.preferences.sports.map { $0.uppercased() }.joined(separator: ", "),
            route: BidiIsolation.isolated(trip.routeCities).joined(separator: " → "),
            cities: Formatting.count(trip.distinctCities.count, "city", "cities"),
            games: Formatting.count(trip.totalGames, "game"),
            miles: Formatting.miles(meters: trip.totalDistanceMeters),
            driving: Formatting.duration(seconds: trip.totalDrivingSeconds),
            notesHTML: trip.notes.map { kit.markdown($0, below: 3) })
    }
}
