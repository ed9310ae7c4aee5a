import SitegenModel
/// The variables of `home.mustache` (HomePage).
struct HomePageModel: PageModel {
    static let template = "home", kind = "the home page"

    var title: String
    var descriptionHTML: String?
    /// Whether the polls are listed: `listPolls` and there are polls.
    var listPolls: Bool
    var polls: [Poll]
    var hasItineraries: Bool
    var itineraries: [Itinerary]
    var optionSets: OptionSets?
    var hasConvoys: Bool
    var convoys: [Convoy]
    var featuredTips: [TipItem]
    var tipsHref: String
    /// "120 planning tips"
    var tipCount: String
    /// Markdown pages outside the navigation.
    var hasMorePages: Bool
    var morePages: [MorePage]

    struct Poll: TemplateModel {
        var title: String
        var href: String
        var trips: String
        var voters: String
        var updated: String
        /// "Leading: A", "Tied for first: A and B", "No votes yet".
        var leaderLine: String

        static let fields = TemplateFields<Self>([
            .text("title", \.title), .text("href", \.href), .text("trips", \.trips), .text("voters", \.voters),
            .text("updated", \.updated), .text("leaderLine", \.leaderLine),
        ])
    }

    struct Itinerary: TemplateModel {
        var title: String
        var href: String
        var dates: String
        var route: String
        var cities: String
        var games: String

        static let fields = TemplateFields<Self>([
            .text("title", \.title), .text("href", \.href), .text("dates", \.dates), .text("route", \.route),
            .text("cities", \.cities), .text("games", \.games),
        ])
    }

    /// The "Trip options" section, present when there are option sets.
    struct OptionSets: TemplateModel {
        var items: [Item]

        struct Item: TemplateModel {
            var title: String
            var href: String
            var trips: String
            /// When the planner made the set.
            var generated: String?

            static let fields = TemplateFields<Self>([
                .text("title", \.title), .text("href", \.href), .text("trips", \.trips), .text("generated", \.generated),
            ])
        }

        static let fields = TemplateFields<Self>([.list("items", \.items)])
    }

    struct Convoy: TemplateModel {
        var title: String
        var href: String
        var status: String
        var statusClass: String
        var vehicles: String
        var route: String

        static let fields = TemplateFields<Self>([
            .text("title", \.title), .text("href", \.href), .text("status", \.status), .text("statusClass", \.statusClass),
            .text("vehicles", \.vehicles), .text("route", \.route),
        ])
    }

    struct MorePage: TemplateModel {
        var title: String
        var href: String

        static let fields = TemplateFields<Self>([.text("title", \.title), .text("href", \.href)])
    }

    static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .text("descriptionHTML", \.descriptionHTML),
        .flag("listPolls", \.listPolls),
        .list("polls", \.polls),
        .flag("hasItineraries", \.hasItineraries),
        .list("itineraries", \.itineraries),
        .object("optionSets", \.optionSets),
        .flag("hasConvoys", \.hasConvoys),
        .list("convoys", \.convoys),
        .list("featuredTips", \.featuredTips),
        .text("tipsHref", \.tipsHref),
        .text("tipCount", \.tipCount),
        .flag("hasMorePages", \.hasMorePages),
        .list("morePages", \.morePages),
    ])
}
