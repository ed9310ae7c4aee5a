/// The variables of `poll.mustache` (PollPages.page).
package struct PollPageModel: PageModel {
    package static let template = "poll", kind = "a poll page"

    package var title: String
    package var shareCode: String
    package var descriptionHTML: String?
    /// "4 people have voted."
    package var votersText: String
    package var hasVotes: Bool
    /// "It's a tie for first: …", when several trips lead.
    package var tieForFirst: String?
    package var standings: [Standing]
    /// "ol" once someone voted; "ul" (the trips in the poll's order) before.
    package var resultsList: String
    package var ballotNotes: [String]
    package var breakdown: Breakdown?
    /// Why there is no breakdown yet (too few ballots to keep them private).
    package var breakdownHidden: String?
    /// "3 trips"
    package var tripCount: String
    package var tripViews: [TextLink]
    package var trips: [TripCard]
    package var updatedText: String
    package var updatedISO: String
    package var appLink: String
    package var resultsJSON: String

    /// A trip's line in the results, in display order.
    package struct Standing: TemplateModel {
        /// "1st"
        package var rank: String
        package var rankNumber: Int
        package var isFirst: Bool
        package var tied: Bool
        package var name: String
        /// "10 points"
        package var points: String
        /// "90%" of the top score.
        package var percent: String
        /// A number we compute, never text from an export: safe in a style attribute.
        package var barWidth: String
        package var tripNumber: Int
        /// The trip's own page.
        package var href: String?

        package static let fields = TemplateFields<Self>([
            .text("rank", \.rank),
            .number("rankNumber", \.rankNumber),
            .flag("isFirst", \.isFirst),
            .flag("tied", \.tied),
            .text("name", \.name),
            .text("points", \.points),
            .text("percent", \.percent),
            .text("barWidth", \.barWidth),
            .number("tripNumber", \.tripNumber),
            .link("href", \.href),
        ])
    }

    /// How many ballots put each trip at each position, and the head-to-head winner.
    package struct Breakdown: TemplateModel {
        /// "1st", "2nd", …
        package var positions: [String]
        package var rows: [Row]
        package var headToHead: String
        /// More than five trips: the table is wider than a phone and scrolls under the trips'
        /// names, which get about half the screen (`is-wide` in site.css).
        package var isWide: Bool

        package struct Row: TemplateModel {
            package var name: String
            package var counts: [String]

            package static let fields = TemplateFields<Self>([.text("name", \.name), .texts("counts", \.counts)])
        }

        package static let fields = TemplateFields<Self>([
            .texts("positions", \.positions), .list("rows", \.rows), .text("headToHead", \.headToHead),
            .flag("isWide", \.isWide),
        ])
    }

    package static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .text("shareCode", \.shareCode),
        .markup("descriptionHTML", \.descriptionHTML),
        .text("votersText", \.votersText),
        .flag("hasVotes", \.hasVotes),
        .text("tieForFirst", \.tieForFirst),
        .list("standings", \.standings),
        .text("resultsList", \.resultsList),
        .texts("ballotNotes", \.ballotNotes),
        .object("breakdown", \.breakdown),
        .text("breakdownHidden", \.breakdownHidden),
        .text("tripCount", \.tripCount),
        .list("tripViews", \.tripViews),
        .list("trips", \.trips),
        .text("updatedText", \.updatedText),
        .text("updatedISO", \.updatedISO),
        .link("appLink", \.appLink),
        .link("resultsJSON", \.resultsJSON),
    ])
}

/// The summary card of a trip, shared by every page that lists trips (PollPages.tripCard).
package struct TripCard: TemplateModel {
    package var number: Int
    package var name: String
    package var href: String?
    package var dates: String
    /// "MLB, NBA"
    package var sports: String?
    /// "Chicago → Milwaukee"
    package var route: String
    package var cities: String
    package var games: String
    package var miles: String
    package var driving: String
    package var notesHTML: String?

    package static let fields = TemplateFields<Self>([
        .number("number", \.number),
        .text("name", \.name),
        .link("href", \.href),
        .text("dates", \.dates),
        .text("sports", \.sports),
        .text("route", \.route),
        .text("cities", \.cities),
        .text("games", \.games),
        .text("miles", \.miles),
        .text("driving", \.driving),
        .markup("notesHTML", \.notesHTML),
    ])
}
