import SitegenModel
/// The variables of `itinerary.mustache`: a trip day by day, as an itinerary export
/// (`/trips/ID/`) or as a poll's trip (`/polls/CODE/trips/N/`) (ItineraryPages.page).
package struct ItineraryPageModel: PageModel {
    package static let template = "itinerary", kind = "an itinerary page"

    /// The poll a poll's trip belongs to.
    package var poll: Poll?
    /// "Itinerary", on an itinerary export's own page.
    package var eyebrow: String?
    package var name: String
    package var dates: String
    /// "5 games", "4 cities", "1,234 mi", "20 h driving".
    package var totals: [String]
    package var notesHTML: String?
    /// A poll's trip that is also exported as an itinerary links to it.
    package var itineraryHref: String?
    package var calendar: CalendarLinks?
    package var routeFileHref: String?
    package var routeMap: RouteMap?
    package var days: [Day]
    package var hasUnscheduled: Bool
    /// The trip is longer than a page lays out: "Unscheduled" holds what comes after too.
    package var isCut = false
    /// Custom items placed outside the trip's dates.
    package var unscheduled: [TimelineEntry]

    package struct Poll: TemplateModel {
        package var title: String
        package var href: String
        /// Trip `number` of `count`.
        package var number: Int
        package var count: Int

        package static let fields = TemplateFields<Self>([
            .text("title", \.title), .link("href", \.href), .number("number", \.number), .number("count", \.count),
        ])
    }

    package struct Day: TemplateModel {
        package var number: Int
        /// The anchor "day-3".
        package var id: String
        /// "Friday, June 12, 2026"
        package var date: String
        package var cities: String
        package var isEmpty: Bool
        package var entries: [TimelineEntry]
        package var directions: Directions?

        package static let fields = TemplateFields<Self>([
            .number("number", \.number), .text("id", \.id), .text("date", \.date), .text("cities", \.cities),
            .flag("isEmpty", \.isEmpty), .list("entries", \.entries), .object("directions", \.directions),
        ])
    }

    package static let fields = TemplateFields<Self>([
        .object("poll", \.poll),
        .text("eyebrow", \.eyebrow),
        .text("name", \.name),
        .text("dates", \.dates),
        .texts("totals", \.totals),
        .markup("notesHTML", \.notesHTML),
        .link("itineraryHref", \.itineraryHref),
        .fields(of: \.calendar),
        .link("routeFileHref", \.routeFileHref),
        .object("routeMap", \.routeMap),
        .list("days", \.days),
        .flag("hasUnscheduled", \.hasUnscheduled),
        .flag("isCut", \.isCut),
        .list("unscheduled", \.unscheduled),
    ])
}

/// The variables of `partials/timeline-entry.mustache`: a game, a drive or a custom item.
package struct TimelineEntry: TemplateModel {
    /// CSS class suffixes: "game", "travel", "item item-hotel".
    package var kind: String
    package var icon: String
    /// "MLB", "Drive", "Hotel".
    package var label: String
    /// "7:10 PM CDT", with `datetime` its ISO 8601 form.
    package var time: String?
    package var datetime: String?
    package var title: String
    package var detail: String?
    package var entryNotesHTML: String?

    package static let fields = TemplateFields<Self>([
        .text("kind", \.kind), .text("icon", \.icon), .text("label", \.label), .text("time", \.time),
        .text("datetime", \.datetime), .text("title", \.title), .text("detail", \.detail),
        .markup("entryNotesHTML", \.entryNotesHTML),
    ])
}
