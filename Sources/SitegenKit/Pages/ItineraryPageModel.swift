import SitegenModel
/// The variables of `itinerary.mustache`: a trip day by day, as an itinerary export
/// (`/trips/ID/`) or as a poll's trip (`/polls/CODE/trips/N/`) (ItineraryPages.page).
struct ItineraryPageModel: PageModel {
    static let template = "itinerary", kind = "an itinerary page"

    /// The poll a poll's trip belongs to.
    var poll: Poll?
    /// "Itinerary", on an itinerary export's own page.
    var eyebrow: String?
    var name: String
    var dates: String
    /// "5 games", "4 cities", "1,234 mi", "20 h driving".
    var totals: [String]
    var notesHTML: String?
    /// A poll's trip that is also exported as an itinerary links to it.
    var itineraryHref: String?
    var calendar: CalendarLinks?
    var routeFileHref: String?
    var routeMap: RouteMap?
    var days: [Day]
    var hasUnscheduled: Bool
    /// Custom items placed outside the trip's dates.
    var unscheduled: [TimelineEntry]

    struct Poll: TemplateModel {
        var title: String
        var href: String
        /// Trip `number` of `count`.
        var number: Int
        var count: Int

        static let fields = TemplateFields<Self>([
            .text("title", \.title), .text("href", \.href), .number("number", \.number), .number("count", \.count),
        ])
    }

    struct Day: TemplateModel {
        var number: Int
        /// The anchor "day-3".
        var id: String
        /// "Friday, June 12, 2026"
        var date: String
        var cities: String
        var isEmpty: Bool
        var entries: [TimelineEntry]
        var directions: Directions?

        static let fields = TemplateFields<Self>([
            .number("number", \.number), .text("id", \.id), .text("date", \.date), .text("cities", \.cities),
            .flag("isEmpty", \.isEmpty), .list("entries", \.entries), .object("directions", \.directions),
        ])
    }

    static let fields = TemplateFields<Self>([
        .object("poll", \.poll),
        .text("eyebrow", \.eyebrow),
        .text("name", \.name),
        .text("dates", \.dates),
        .texts("totals", \.totals),
        .text("notesHTML", \.notesHTML),
        .text("itineraryHref", \.itineraryHref),
        .fields(of: \.calendar),
        .text("routeFileHref", \.routeFileHref),
        .object("routeMap", \.routeMap),
        .list("days", \.days),
        .flag("hasUnscheduled", \.hasUnscheduled),
        .list("unscheduled", \.unscheduled),
    ])
}

/// The variables of `partials/timeline-entry.mustache`: a game, a drive or a custom item.
struct TimelineEntry: TemplateModel {
    /// CSS class suffixes: "game", "travel", "item item-hotel".
    var kind: String
    var icon: String
    /// "MLB", "Drive", "Hotel".
    var label: String
    /// "7:10 PM CDT", with `datetime` its ISO 8601 form.
    var time: String?
    var datetime: String?
    var title: String
    var detail: String?
    var entryNotesHTML: String?

    static let fields = TemplateFields<Self>([
        .text("kind", \.kind), .text("icon", \.icon), .text("label", \.label), .text("time", \.time),
        .text("datetime", \.datetime), .text("title", \.title), .text("detail", \.detail),
        .text("entryNotesHTML", \.entryNotesHTML),
    ])
}
