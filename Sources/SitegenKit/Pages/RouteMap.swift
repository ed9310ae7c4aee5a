import Foundation
import SitegenCore
import SitegenModel

/// The variables of `partials/route-map.mustache`: a route picture as inline SVG, with the
/// title and description that screen readers announce. Itinerary and convoy pages draw it alike.
struct RouteMap: TemplateModel {
    var width = Int(RoutePicture.width)
    var height = Int(RoutePicture.height)
    /// The SVG polyline's points.
    var polyline: String
    var title: String
    var description: String
    var points: [Point]

    /// A numbered stop and its label, placed beside it.
    struct Point: TemplateModel {
        /// "S", "1", "D".
        var marker: String
        var name: String
        var x: String
        var y: String
        var labelX: String
        var labelY: String
        /// "start" or "end": the label's side.
        var anchor: String

        static let fields = TemplateFields<Self>([
            .text("marker", \.marker), .text("name", \.name), .text("x", \.x), .text("y", \.y),
            .text("labelX", \.labelX), .text("labelY", \.labelY), .text("anchor", \.anchor),
        ])
    }

    init(_ picture: RoutePicture, title: String, description: String) {
        polyline = picture.polyline
        self.title = title
        self.description = description
        points = picture.points.map { point in
            Point(marker: point.marker, name: point.name,
                  x: Formatting.oneDecimal(point.x), y: Formatting.oneDecimal(point.y),
                  labelX: Formatting.oneDecimal(point.labelOnLeft ? point.x - RouteLabels.gap : point.x + RouteLabels.gap),
                  labelY: Formatting.oneDecimal(point.y + 5 + point.labelDy),
                  anchor: point.labelOnLeft ? "end" : "start")
        }
    }

    static let fields = TemplateFields<Self>([
        .number("width", \.width), .number("height", \.height), .text("polyline", \.polyline), .text("title", \.title),
        .text("description", \.description), .list("points", \.points),
    ])
}
