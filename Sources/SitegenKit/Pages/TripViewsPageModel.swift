/// The variables of `trip-views.mustache`: one grouped view of an option set's or a poll's
/// trips (OptionPages.page).
struct TripViewsPageModel: PageModel {
    static let template = "trip-views", kind = "a trip views page"

    var title: String
    /// "Trip options", "Poll · share code X7K9M2".
    var eyebrow: String
    /// "3 trips"
    var tripCount: String
    /// When the planner made the option set.
    var generated: Generated?
    /// Back to the poll, for a poll's views.
    var back: TextLink?
    var tabs: [TabLink]
    /// The view's name, and what it orders by.
    var viewLabel: String
    var summary: String
    var hasTrips: Bool
    var groups: [Group]
    /// The fact the view orders by, highlighted on every card by CSS (see site.css).
    var keyFact: String

    struct Generated: TemplateModel {
        var text: String
        var iso: String

        static let fields = TemplateFields<Self>([.text("text", \.text), .text("iso", \.iso)])
    }

    /// Trips under one heading ("8 games"), or all of them in a view without sections.
    struct Group: TemplateModel {
        var section: Section?
        /// Each trip's rendered card (`partials/trip-card`, OptionCard).
        var trips: [String]

        struct Section: TemplateModel {
            var title: String
            var anchor: String

            static let fields = TemplateFields<Self>([.text("title", \.title), .text("anchor", \.anchor)])
        }

        static let fields = TemplateFields<Self>([.object("section", \.section), .texts("trips", \.trips)])
    }

    static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .text("eyebrow", \.eyebrow),
        .text("tripCount", \.tripCount),
        .object("generated", \.generated),
        .object("back", \.back),
        .list("tabs", \.tabs),
        .text("viewLabel", \.viewLabel),
        .text("summary", \.summary),
        .flag("hasTrips", \.hasTrips),
        .flag("hasSections", { $0.groups.contains { $0.section != nil } }),
        .list("groups", \.groups),
        .text("keyFact", \.keyFact),
    ])
}

/// The variables of `partials/trip-card.mustache`, rendered on its own once per list and
/// page depth: a trip card with its label in the list and its miles per game.
struct OptionCard: RenderedAlone {
    static let template = "partials/trip-card", kind = "a trip card"

    var card: TripCard
    /// "Option 2", "Trip 3".
    var numberLabel: String
    /// "120 mi per game", for trips with games.
    var milesPerGame: String?

    static let fields = TemplateFields<Self>([
        .fields(of: \.card), .text("numberLabel", \.numberLabel), .text("milesPerGame", \.milesPerGame),
    ])
}
