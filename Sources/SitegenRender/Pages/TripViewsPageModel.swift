/// The variables of `trip-views.mustache`: one grouped view of an option set's or a poll's
/// trips (OptionPages.page).
package struct TripViewsPageModel: PageModel {
    package static let template = "trip-views", kind = "a trip views page"

    package var title: String
    /// "Trip options", "Poll · share code X7K9M2".
    package var eyebrow: String
    /// "3 trips"
    package var tripCount: String
    /// When the planner made the option set.
    package var generated: Generated?
    /// Back to the poll, for a poll's views.
    package var back: TextLink?
    package var tabs: [TabLink]
    /// The view's name, and what it orders by.
    package var viewLabel: String
    package var summary: String
    package var hasTrips: Bool
    package var groups: [Group]
    /// The fact the view orders by, highlighted on every card by CSS (see site.css).
    package var keyFact: String

    package struct Generated: TemplateModel {
        package var text: String
        package var iso: String

        package static let fields = TemplateFields<Self>([.text("text", \.text), .text("iso", \.iso)])
    }

    /// Trips under one heading ("8 games"), or all of them in a view without sections.
    package struct Group: TemplateModel {
        package var section: Section?
        /// Each trip's rendered card (`partials/trip-card`, OptionCard).
        package var trips: [String]

        package struct Section: TemplateModel {
            package var title: String
            package var anchor: String

            package static let fields = TemplateFields<Self>([.text("title", \.title), .text("anchor", \.anchor)])
        }

        package static let fields = TemplateFields<Self>([.object("section", \.section), .markupList("trips", \.trips)])
    }

    package static let fields = TemplateFields<Self>([
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
package struct OptionCard: RenderedAlone {
    package static let template = "partials/trip-card", kind = "a trip card"

    package var card: TripCard
    /// "Option 2", "Trip 3".
    package var numberLabel: String
    /// "120 mi per game", for trips with games.
    package var milesPerGame: String?

    package static let fields = TemplateFields<Self>([
        .fields(of: \.card), .text("numberLabel", \.numberLabel), .text("milesPerGame", \.milesPerGame),
    ])
}
