import SitegenModel
/// The variables of `home.mustache` (HomePage).
package struct HomePageModel: PageModel {
    package static let template = "home", kind = "the home page"

    package var title: String
    package var descriptionHTML: String?
    /// Whether the polls are listed: `listPolls` and there are polls.
    package var listPolls: Bool
    package var polls: [Poll]
    package var hasItineraries: Bool
    package var itineraries: [Itinerary]
    package var optionSets: OptionSets?
    package var hasConvoys: Bool
    package var convoys: [Convoy]
    package var featuredTips: [TipItem]
    package var tipsHref: String
    /// "120 planning tips"
    package var tipCount: String
    /// Markdown pages outside the navigation.
    package var hasMorePages: Bool
    package var morePages: [MorePage]

    package struct Poll: TemplateModel {
        package var title: String
        package var href: String
        package var trips: String
        package var voters: String
        package var updated: String
        /// "Leading: A", "Tied for first: A and B", "No votes yet".
        package var leaderLine: String

        package static let fields = TemplateFields<Self>([
            .text("title", \.title), .link("href", \.href), .text("trips", \.trips), .text("voters", \.voters),
            .text("updated", \.updated), .text("leaderLine", \.leaderLine),
        ])
    }

    package struct Itinerary: TemplateModel {
        package var title: String
        package var href: String
        package var dates: String
        package var route: String
        package var cities: String
        package var games: String

        package static let fields = TemplateFields<Self>([
            .text("title", \.title), .link("href", \.href), .text("dates", \.dates), .text("route", \.route),
            .text("cities", \.cities), .text("games", \.games),
        ])
    }

    /// The "Trip options" section, present when there are option sets.
    package struct OptionSets: TemplateModel {
        package var items: [Item]

        package struct Item: TemplateModel {
            package var title: String
            package var href: String
            package var trips: String
            /// When the planner made the set.
            package var generated: String?

            package static let fields = TemplateFields<Self>([
                .text("title", \.title), .link("href", \.href), .text("trips", \.trips), .text("generated", \.generated),
            ])
        }

        package static let fields = TemplateFields<Self>([.list("items", \.items)])
    }

    package struct Convoy: TemplateModel {
        package var title: String
        package var href: String
        package var status: String
        package var statusClass: String
        package var vehicles: String
        package var route: String

        package static let fields = TemplateFields<Self>([
            .text("title", \.title), .link("href", \.href), .text("status", \.status), .text("statusClass", \.statusClass),
            .text("vehicles", \.vehicles), .text("route", \.route),
        ])
    }

    package struct MorePage: TemplateModel {
        package var title: String
        package var href: String

        package static let fields = TemplateFields<Self>([.text("title", \.title), .link("href", \.href)])
    }

    package static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .markup("descriptionHTML", \.descriptionHTML),
        .flag("listPolls", \.listPolls),
        .list("polls", \.polls),
        .flag("hasItineraries", \.hasItineraries),
        .list("itineraries", \.itineraries),
        .object("optionSets", \.optionSets),
        .flag("hasConvoys", \.hasConvoys),
        .list("convoys", \.convoys),
        .list("featuredTips", \.featuredTips),
        .link("tipsHref", \.tipsHref),
        .text("tipCount", \.tipCount),
        .flag("hasMorePages", \.hasMorePages),
        .list("morePages", \.morePages),
    ])
}
