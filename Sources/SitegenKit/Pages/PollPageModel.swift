/// The variables of `poll.mustache` (PollPages.page).
struct PollPageModel: PageModel {
    static let template = "poll", kind = "a poll page"

    var title: String
    var shareCode: String
    var descriptionHTML: String?
    /// "4 people have voted."
    var votersText: String
    var hasVotes: Bool
    /// "It's a tie for first: …", when several trips lead.
    var tieForFirst: String?
    var standings: [Standing]
    /// "ol" once someone voted; "ul" (the trips in the poll's order) before.
    var resultsList: String
    var ballotNotes: [String]
    var breakdown: Breakdown?
    /// Why there is no breakdown yet (too few ballots to keep them private).
    var breakdownHidden: String?
    /// "3 trips"
    var tripCount: String
    var tripViews: [TextLink]
    var trips: [TripCard]
    var updatedText: String
    var updatedISO: String
    var appLink: String
    var resultsJSON: String

    /// A trip's line in the results, in display order.
    struct Standing: TemplateModel {
        /// "1st"
        var rank: String
        var rankNumber: Int
        var isFirst: Bool
        var tied: Bool
        var name: String
        /// "10 points"
        var points: String
        /// "90%" of the top score.
        var percent: String
        /// A number we compute, never text from an export: safe in a style attribute.
        var barWidth: String
        var tripNumber: Int
        /// The trip's own page.
        var href: String?

        static let fields = TemplateFields<Self>([
            .text("rank", \.rank),
            .number("rankNumber", \.rankNumber),
            .flag("isFirst", \.isFirst),
            .flag("tied", \.tied),
            .text("name", \.name),
            .text("points", \.points),
            .text("percent", \.percent),
            .text("barWidth", \.barWidth),
            .number("tripNumber", \.tripNumber),
            .text("href", \.href),
        ])
    }

    /// How many ballots put each trip at each position, and the head-to-head winner.
    struct Breakdown: TemplateModel {
        /// "1st", "2nd", …
        var positions: [String]
        var rows: [Row]
        var headToHead: String

        struct Row: TemplateModel {
            var name: String
            var counts: [String]

            static let fields = TemplateFields<Self>([.text("name", \.name), .texts("counts", \.counts)])
        }

        static let fields = TemplateFields<Self>([
            .texts("positions", \.positions), .list("rows", \.rows), .text("headToHead", \.headToHead),
        ])
    }

    static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .text("shareCode", \.shareCode),
        .text("descriptionHTML", \.descriptionHTML),
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
        .text("appLink", \.appLink),
        .text("resultsJSON", \.resultsJSON),
    ])
}

/// The summary card of a trip, shared by every page that lists trips (PollPages.tripCard).
struct TripCard: TemplateModel {
    var number: Int
    var name: String
    var href: String?
    var dates: String
    /// "MLB, NBA"
    var sports: String?
    /// "Chicago → Milwaukee"
    var route: String
    var cities: String
    var games: String
    var miles: String
    var driving: String
    var notesHTML: String?

    static let fields = TemplateFields<Self>([
        .number("number", \.number),
        .text("name", \.name),
        .text("href", \.href),
        .text("dates", \.dates),
        .text("sports", \.sports),
        .text("route", \.route),
        .text("cities", \.cities),
        .text("games", \.games),
        .text("miles", \.miles),
        .text("driving", \.driving),
        .text("notesHTML", \.notesHTML),
    ])
}
