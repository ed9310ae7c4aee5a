import SitegenModel
/// The variables of `convoy.mustache` (ConvoyPages.page).
///
/// Optional names differ between nesting levels on purpose: Mustache looks a name that is
/// absent from an item up in the enclosing contexts, so a stop without notes must not find
/// the convoy's `notesHTML`.
struct ConvoyPageModel: PageModel {
    static let template = "convoy", kind = "a convoy page"

    var title: String
    /// "Draft", with `statusClass` its CSS class.
    var status: String
    var statusClass: String
    var notesHTML: String?
    /// The readiness checklist: on a draft, or on a ready or active convoy that fails it.
    var checklist: Checklist?
    /// "Chicago Union Station → Mars Cheese Castle → American Family Field"
    var routeLine: String
    var routeMap: RouteMap?
    /// Distance and duration, once the route is computed.
    var route: Route?
    var directions: Directions?
    var routeFileHref: String?
    var stops: [Stop]
    var vehicleCount: String
    var vehicles: [Vehicle]
    /// "X is listed in more than one seat: …"
    var doubleSeated: [String]
    var needsSeat: People?
    /// Owners, drivers, passengers, viewers.
    var roleGroups: [People]
    var updatedText: String
    var updatedISO: String

    struct Checklist: TemplateModel {
        /// "2 of 4 done."
        var summary: String
        var items: [Item]

        struct Item: TemplateModel {
            var requirement: String
            var done: Bool

            static let fields = TemplateFields<Self>([.text("requirement", \.requirement), .flag("done", \.done)])
        }

        static let fields = TemplateFields<Self>([.text("summary", \.summary), .list("items", \.items)])
    }

    struct Route: TemplateModel {
        var distance: String
        var duration: String

        static let fields = TemplateFields<Self>([.text("distance", \.distance), .text("duration", \.duration)])
    }

    /// The start, a checkpoint or the destination.
    struct Stop: TemplateModel {
        /// "Start", "Stop 1", "Destination".
        var kind: String
        var name: String?
        var address: String?
        /// "Not set yet", for a destination that is not.
        var missing: String?
        var stopNotesHTML: String?

        static let fields = TemplateFields<Self>([
            .text("kind", \.kind), .text("name", \.name), .text("address", \.address), .text("missing", \.missing),
            .text("stopNotesHTML", \.stopNotesHTML),
        ])
    }

    struct Vehicle: TemplateModel {
        var label: String
        var isLeader: Bool
        var isFull: Bool
        var isOver: Bool
        /// "3 of 5 seats", "6 of 5 seats — over capacity".
        var seats: String
        /// "2 seats free"
        var freeSeats: String?
        /// A number we compute, never text from an export: safe in a style attribute.
        var barWidth: String
        /// The driver's name, or "No driver yet".
        var driver: String
        var hasDriver: Bool
        var passengers: [String]
        var vehicleNotesHTML: String?

        static let fields = TemplateFields<Self>([
            .text("label", \.label),
            .flag("isLeader", \.isLeader),
            .flag("isFull", \.isFull),
            .flag("isOver", \.isOver),
            .text("seats", \.seats),
            .text("freeSeats", \.freeSeats),
            .text("barWidth", \.barWidth),
            .text("driver", \.driver),
            .flag("hasDriver", \.hasDriver),
            .texts("passengers", \.passengers),
            .text("vehicleNotesHTML", \.vehicleNotesHTML),
        ])
    }

    /// People under a heading: "Drivers (2)", "Still needs a seat (1)".
    struct People: TemplateModel {
        var heading: String
        var people: [Person]

        struct Person: TemplateModel {
            var name: String
            /// "Joined", with `statusClass` its CSS class.
            var status: String
            var statusClass: String

            static let fields = TemplateFields<Self>([.text("name", \.name), .text("status", \.status), .text("statusClass", \.statusClass)])
        }

        static let fields = TemplateFields<Self>([.text("heading", \.heading), .list("people", \.people)])
    }

    static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .text("status", \.status),
        .text("statusClass", \.statusClass),
        .text("notesHTML", \.notesHTML),
        .object("checklist", \.checklist),
        .text("routeLine", \.routeLine),
        .object("routeMap", \.routeMap),
        .object("route", \.route),
        .object("directions", \.directions),
        .text("routeFileHref", \.routeFileHref),
        .list("stops", \.stops),
        .text("vehicleCount", \.vehicleCount),
        .list("vehicles", \.vehicles),
        .texts("doubleSeated", \.doubleSeated),
        .object("needsSeat", \.needsSeat),
        .list("roleGroups", \.roleGroups),
        .text("updatedText", \.updatedText),
        .text("updatedISO", \.updatedISO),
    ])
}
