import SitegenModel
/// The variables of `convoy.mustache` (ConvoyPages.page).
///
/// Optional names differ between nesting levels on purpose: Mustache looks a name that is
/// absent from an item up in the enclosing contexts, so a stop without notes must not find
/// the convoy's `notesHTML`.
package struct ConvoyPageModel: PageModel {
    package static let template = "convoy", kind = "a convoy page"

    package var title: String
    /// "Draft", with `statusClass` its CSS class.
    package var status: String
    package var statusClass: String
    package var notesHTML: String?
    /// The readiness checklist: on a draft, or on a ready or active convoy that fails it.
    package var checklist: Checklist?
    /// "Chicago Union Station → Mars Cheese Castle → American Family Field"
    package var routeLine: String
    package var routeMap: RouteMap?
    /// Distance and duration, once the route is computed.
    package var route: Route?
    package var directions: Directions?
    package var routeFileHref: String?
    package var stops: [Stop]
    package var vehicleCount: String
    package var vehicles: [Vehicle]
    /// "X is listed in more than one seat: …"
    package var doubleSeated: [String]
    package var needsSeat: People?
    /// Owners, drivers, passengers, viewers.
    package var roleGroups: [People]
    package var updatedText: String
    package var updatedISO: String

    package struct Checklist: TemplateModel {
        /// "2 of 4 done."
        package var summary: String
        package var items: [Item]

        package struct Item: TemplateModel {
            package var requirement: String
            package var done: Bool

            package static let fields = TemplateFields<Self>([.text("requirement", \.requirement), .flag("done", \.done)])
        }

        package static let fields = TemplateFields<Self>([.text("summary", \.summary), .list("items", \.items)])
    }

    package struct Route: TemplateModel {
        package var distance: String
        package var duration: String

        package static let fields = TemplateFields<Self>([.text("distance", \.distance), .text("duration", \.duration)])
    }

    /// The start, a checkpoint or the destination.
    package struct Stop: TemplateModel {
        /// "Start", "Stop 1", "Destination".
        package var kind: String
        package var name: String?
        package var address: String?
        /// "Not set yet", for a destination that is not.
        package var missing: String?
        package var stopNotesHTML: String?

        package static let fields = TemplateFields<Self>([
            .text("kind", \.kind), .text("name", \.name), .text("address", \.address), .text("missing", \.missing),
            .markup("stopNotesHTML", \.stopNotesHTML),
        ])
    }

    package struct Vehicle: TemplateModel {
        package var label: String
        package var isLeader: Bool
        package var isFull: Bool
        package var isOver: Bool
        /// "3 of 5 seats", "6 of 5 seats — over capacity".
        package var seats: String
        /// "2 seats free"
        package var freeSeats: String?
        /// A number we compute, never text from an export: safe in a style attribute.
        package var barWidth: String
        /// The driver's name, or "No driver yet".
        package var driver: String
        package var hasDriver: Bool
        package var passengers: [String]
        /// What the passengers line says when there are none: "None yet", or "No seat for
        /// one" when the driver fills the car.
        package var noPassengers: String
        package var vehicleNotesHTML: String?

        package static let fields = TemplateFields<Self>([
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
            .text("noPassengers", \.noPassengers),
            .markup("vehicleNotesHTML", \.vehicleNotesHTML),
        ])
    }

    /// People under a heading: "Drivers (2)", "Still needs a seat (1)".
    package struct People: TemplateModel {
        package var heading: String
        package var people: [Person]

        package struct Person: TemplateModel {
            package var name: String
            /// "Joined", with `statusClass` its CSS class.
            package var status: String
            package var statusClass: String

            package static let fields = TemplateFields<Self>([.text("name", \.name), .text("status", \.status), .text("statusClass", \.statusClass)])
        }

        package static let fields = TemplateFields<Self>([.text("heading", \.heading), .list("people", \.people)])
    }

    package static let fields = TemplateFields<Self>([
        .text("title", \.title),
        .text("status", \.status),
        .text("statusClass", \.statusClass),
        .markup("notesHTML", \.notesHTML),
        .object("checklist", \.checklist),
        .text("routeLine", \.routeLine),
        .object("routeMap", \.routeMap),
        .object("route", \.route),
        .object("directions", \.directions),
        .link("routeFileHref", \.routeFileHref),
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
