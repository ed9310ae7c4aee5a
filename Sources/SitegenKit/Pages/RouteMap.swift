import Foundation
import SitegenCore
import SitegenModel

/// The context of `partials/route-map`: a route picture as inline SVG, with the title and
/// description that screen readers announce. Itinerary and convoy pages draw it alike.
enum RouteMap {
    static func context(_ picture: RoutePicture, title: String, description: String) -> [String: Any] {
        [
            "width": Int(RoutePicture.width), "height": Int(RoutePicture.height),
            "polyline": picture.polyline,
            "title": title,
            "description": description,
            "points": picture.points.map { point in
                [
                    "marker": point.marker, "name": point.name,
                    "x": Formatting.oneDecimal(point.x), "y": Formatting.oneDecimal(point.y),
                    "labelX": Formatting.oneDecimal(point.labelOnLeft ? point.x - RouteLabels.gap : point.x + RouteLabels.gap),
                    "labelY": Formatting.oneDecimal(point.y + 5 + point.labelDy),
                    "anchor": point.labelOnLeft ? "end" : "start",
                ] as [String: Any]
            },
        ]
    }
}
