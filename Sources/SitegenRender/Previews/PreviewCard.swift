import Foundation
import SitegenCore
import SitegenModel

/// What a link preview image shows, decided from the same values as its page (docs/pages.md, "Link previews"):
/// the drawing (CardDrawing) only lays this out, so tests can pin what a card says.
public enum PreviewCard: Sendable, Equatable {
    case poll(PollCard)
    case trip(TripCard)

    /// Link previews are this size (the Open Graph "large image" shape, 1.91:1).
    public static let width = 1200
    public static let height = 630

    /// A poll's standings, as its page shows them: points are always published, the
    /// breakdown never appears on a card, and with no counted ballot there are no bars.
    public struct PollCard: Sendable, Equatable {
        public var title: String
        public var siteTitle: String
        /// "4 people have voted." or "Nobody has voted yet."
        public var voters: String
        /// "Tie for first" when more than one trip leads; nil otherwise.
        public var tie: String?
        /// In display order; at most `maxRows` (the rest are counted in `more`).
        public var rows: [Row]
        /// "+ 3 more trips" when the poll has more trips than fit.
        public var more: String?

        /// Written out so that the package's benchmarks (Benchmarks/CardBench) can draw cards too.
        package init(title: String, siteTitle: String, voters: String, tie: String?, rows: [Row], more: String?) {
            (self.title, self.siteTitle, self.voters, self.tie, self.rows, self.more) = (title, siteTitle, voters, tie, rows, more)
        }

        public struct Row: Sendable, Equatable {
            /// "1st"; nil when nobody has voted (the page shows no ranks then).
            public var rank: String?
            public var name: String
            /// "10 points"; nil when nobody has voted.
            public var points: String?
            /// The bar's length relative to the leader, 0…1; nil when nobody has voted.
            public var share: Double?
            /// Drawn in the leader's colour (rank 1 with votes, tied or not).
            public var isFirst: Bool
            public var tied: Bool
            /// Tied with a trip past the card's rows: the text equivalent says so, as no row
            /// shown beside it does.
            public var tiedPastCard: Bool

            package init(rank: String?, name: String, points: String?, share: Double?, isFirst: Bool, tied: Bool, tiedPastCard: Bool = false) {
                (self.rank, self.name, self.points, self.share, self.isFirst, self.tied, self.tiedPastCard)
                    = (rank, name, points, share, isFirst, tied, tiedPastCard)
            }
        }
    }

    /// An itinerary: name, dates, games and miles, and the route with numbered stops.
    public struct TripCard: Sendable, Equatable {
        public var name: String
        public var siteTitle: String
        public var dates: String
        public var games: String
        public var miles: String
        /// "4 cities"
        public var cities: String
        /// The route picture of the page (stop coordinates fitted into its box), nil without stops.
        public var route: RoutePicture?

        /// Written out so that the package's benchmarks (Benchmarks/CardBench) can draw cards too.
        package init(name: String, siteTitle: String, dates: String, games: String, miles: String, cities: String,
                     route: RoutePicture?) {
            (self.name, self.siteTitle, self.dates, self.games, self.miles, self.cities, self.route)
                = (name, siteTitle, dates, games, miles, cities, route)
        }
    }

    /// Rows a poll card has room for while staying legible at 300 px wide.
    package static let maxRows = 4

    public static func poll(_ published: PublishedPoll, siteTitle: String) -> PreviewCard {
        let poll = published.poll, results = published.results
        let hasVotes = results.ballots.counted > 0
        let firstHidden = results.standings.dropFirst(maxRows).first
        var rows = results.standings.prefix(maxRows).map { standing in
            PollCard.Row(rank: hasVotes ? Formatting.ordinal(standing.rank) : nil,
                         name: published.tripName(standing.trip),
                         points: hasVotes ? Formatting.count(standing.points, "point") : nil,
                         share: hasVotes ? standing.share : nil,
                         isFirst: hasVotes && standing.rank == 1,
                         tied: hasVotes && standing.tied)
        }
        // Said once, of the last row shown: the rows of its rank above it read as tied.
        if hasVotes, let last = results.standings.prefix(maxRows).last, last.tied, firstHidden?.rank == last.rank {
            rows[rows.count - 1].tiedPastCard = true
        }
        let hidden = results.standings.count - rows.count
        return .poll(PollCard(title: poll.title, siteTitle: siteTitle,
                              voters: results.ballots.counted == 0 && results.ballots.invalid > 0
                                  ? "\(PollPages.setAside(results.ballots.invalid)), none counted yet."
                                  : PollPages.votersSentence(results.ballots.counted),
                              tie: results.leaders.count > 1 ? "Tie for first" : nil,
                              rows: rows,
                              more: hidden > 0 ? "+ \(Formatting.count(hidden, "more trip"))" : nil))
    }

    public static func trip(_ trip: Trip, siteTitle: String, format: Formatting) -> PreviewCard {
        .trip(TripCard(name: trip.name, siteTitle: siteTitle,
                       dates: format.dateRange(trip.preferences.startDate, trip.preferences.endDate),
                       games: Formatting.count(trip.totalGames, "game"),
                       miles: Formatting.miles(meters: trip.totalDistanceMeters),
                       cities: Formatting.count(trip.distinctCities.count, "city", "cities"),
                       route: RoutePicture.make(trip: trip)))
    }

    /// The image's text equivalent (`og:image:alt`): what the card says, in a few sentences.
    /// Plain text, as every metadata field: names are not isolated (BidiIsolation.plain). So no
    /// name is followed by a colon or a number: shown left to right, "من سيفوز؟: 4 people have
    /// voted" puts the "4" before the Arabic title and the ":" beside its "؟" (a digit after
    /// right-to-left letters joins them). The title is a sentence of its own, then English words
    /// ("من سيفوز؟ Poll standings: 4 people have voted."), and each trip's points follow "with".
    public var altText: String {
        switch self {
        case .poll(let card):
            let opening = "\(sentence(card.title)) Poll standings: \(card.voters)"
            guard card.rows.first?.points != nil else { return opening }
            // A tie with a trip past the card's rows is said: it read as simply 4th. (One
            // between rows shown reads from their equal ranks.)
            let standings = card.rows.map { row in
                "\(row.rank ?? "") \(row.name) with \(row.points ?? "")\(row.tiedPastCard ? ", tied with a trip below" : "")"
            }.joined(separator: "; ")
            return sentence("\(opening)\(card.tie.map { " \(sentence($0))" } ?? "") \(standings)\(card.more.map { "; \($0)" } ?? "")")
        case .trip(let card):
            // A place stopped at again and again is named once, as route lines name it.
            let stops = card.route.map { route in
                route.points.map(\.name).reduce(into: [String]()) { names, name in
                    if names.last != name { names.append(name) }
                }.joined(separator: " → ")
            }
            return sentence("\(card.name), \(card.dates): \(card.games), \(card.miles)\(stops.map { ". Route: \($0)" } ?? "")")
        }
    }
}
