import Foundation
import SitegenCore
import SitegenModel

/// The variables of `partials/route-map.mustache`: a route picture as inline SVG, with the
/// title and description that screen readers announce. Itinerary and convoy pages draw it alike.
package struct RouteMap: TemplateModel {
    package var width = Int(RoutePicture.width)
    package var height = Int(RoutePicture.height)
    /// The SVG polyline's points.
    package var polyline: String
    package var title: String
    package var description: String
    package var points: [Point]

    /// A numbered stop and its label, placed beside it.
    package struct Point: TemplateModel {
        /// "S", "1", "D".
        package var marker: String
        package var name: String
        /// The name as drawn: shortened with "…" to fit between its place and the picture's
        /// edge (RouteLabels.fitted).
        package var label: String
        /// False where the picture is too crowded for the name (RouteLabels.place): a flag,
        /// as an absent `label` would be looked up in the sections around the map.
        package var labelled: Bool
        package var x: String
        package var y: String
        package var labelX: String
        package var labelY: String
        /// "start" or "end": the label's side.
        package var anchor: String

        package static let fields = TemplateFields<Self>([
            .text("marker", \.marker), .text("name", \.name), .text("label", \.label), .flag("labelled", \.labelled), .text("x", \.x), .text("y", \.y),
            .text("labelX", \.labelX), .text("labelY", \.labelY), .text("anchor", \.anchor),
        ])
    }

    package init(_ picture: RoutePicture, title: String, description: String) {
        polyline = picture.polyline
        self.title = title
        self.description = description
        points = picture.points.map { point in
            let labelX = point.x + point.labelDx
            let room = point.labelOnLeft ? labelX - Self.edge : RoutePicture.width - Self.edge - labelX
            return Point(marker: point.marker, name: point.name, label: point.labelShown ? RouteLabels.fitted(point.name, width: room) : "",
                  labelled: point.labelShown,
                  x: Formatting.oneDecimal(point.x), y: Formatting.oneDecimal(point.y),
                  labelX: Formatting.oneDecimal(labelX),
                  labelY: Formatting.oneDecimal(point.y + 5 + point.labelDy),
                  anchor: point.labelOnLeft ? "end" : "start")
        }
    }

    /// Room kept between a label and the picture's edge.
    static let edge = 2.0

    package static let fields = TemplateFields<Self>([
        .number("width", \.width), .number("height", \.height), .text("polyline", \.polyline), .text("title", \.title),
        .text("description", \.description), .list("points", \.points),
    ])
}
