import Foundation
import SitegenCore

/// An inline SVG of a trip's route drawn from stop coordinates: no tiles, nothing fetched.
/// An equirectangular projection scaled by the cosine of the mean latitude keeps shapes
/// right at US latitudes; the drawing is fitted into a fixed view box.
public struct RoutePicture: Sendable, Equatable {
    /// A place to draw, in route order: a trip's stop, a convoy's start, checkpoint or end.
    public struct Place: Sendable, Equatable {
        public var name: String
        /// The short text in its circle: "1", "2", … or "S" for a convoy's start.
        public var marker: String
        public var latitude: Double
        public var longitude: Double

        package init(name: String, marker: String, latitude: Double, longitude: Double) {
            self.name = name
            self.marker = marker
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public struct Point: Sendable, Equatable {
        public var marker: String
        public var name: String
        public var x: Double
        public var y: Double
        /// Where its name goes (RouteLabels): to the left or right, and up or down from level.
        public var labelOnLeft: Bool
        public var labelDy: Double
    }

    // Small enough that labels stay readable when a phone scales the picture down.
    public static let width = 420.0
    public static let height = 280.0
    package static let margin = 34.0

    public var points: [Point]

    /// A trip's stops, numbered from 1; nil when there is nothing to draw.
    public static func make(stops: [Stop]) -> RoutePicture? {
        make(places: stops.enumerated().map { index, stop in
            Place(name: stop.city, marker: String(index + 1), latitude: stop.latitude, longitude: stop.longitude)
        })
    }

    /// nil when there is nothing to draw.
    public static func make(places: [Place]) -> RoutePicture? {
        guard !places.isEmpty else { return nil }
        let meanLatitude = places.map(\.latitude).reduce(0, +) / Double(places.count)
        let scaleX = cos(meanLatitude * .pi / 180)
        let projectedX = places.map { $0.longitude * scaleX }, projectedY = places.map { -$0.latitude }
        let minX = projectedX.min()!, maxX = projectedX.max()!, minY = projectedY.min()!, maxY = projectedY.max()!
        let spanX = max(maxX - minX, 1e-6), spanY = max(maxY - minY, 1e-6)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        // Centre the drawing in the box.
        let offsetX = (width - spanX * scale) / 2, offsetY = (height - spanY * scale) / 2
        var xs = places.indices.map { places.count == 1 ? width / 2 : offsetX + (projectedX[$0] - minX) * scale }
        let ys = places.indices.map { places.count == 1 ? height / 2 : offsetY + (projectedY[$0] - minY) * scale }
        // A narrow drawing (a north–south route) moves sideways to make room for its names.
        let shift = RouteLabels.horizontalShift(xs: xs, names: places.map(\.name), width: width, margin: margin)
        xs = xs.map { $0 + shift }
        let labels = RouteLabels.place(names: places.map(\.name), points: Array(zip(xs, ys)).map { (x: $0, y: $1) },
                                       width: width, height: height)
        let points = places.indices.map { index in
            Point(marker: places[index].marker, name: places[index].name, x: rounded(xs[index]), y: rounded(ys[index]),
                  labelOnLeft: labels[index].onLeft, labelDy: labels[index].dy)
        }
        return RoutePicture(points: points)
    }

    /// Polyline points attribute, e.g. "40.0,120.5 300.0,80.0".
    public var polyline: String {
        points.map { "\(format($0.x)),\(format($0.y))" }.joined(separator: " ")
    }

    package static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    package func format(_ value: Double) -> String { Formatting.oneDecimal(value) }
}
