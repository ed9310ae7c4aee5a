import Foundation

/// An inline SVG of a trip's route drawn from stop coordinates: no tiles, nothing fetched.
/// An equirectangular projection scaled by the cosine of the mean latitude keeps shapes
/// right at US latitudes; the drawing is fitted into a fixed view box.
public struct RoutePicture: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var number: Int
        public var city: String
        public var x: Double
        public var y: Double
        /// Label on the left when the point is in the right part of the picture.
        public var labelOnLeft: Bool
    }

    // Small enough that labels stay readable when a phone scales the picture down.
    public static let width = 420.0
    public static let height = 280.0
    static let margin = 34.0

    public var points: [Point]

    /// nil when there is nothing to draw.
    public static func make(stops: [Stop]) -> RoutePicture? {
        guard !stops.isEmpty else { return nil }
        let meanLatitude = stops.map(\.latitude).reduce(0, +) / Double(stops.count)
        let scaleX = cos(meanLatitude * .pi / 180)
        let xs = stops.map { $0.longitude * scaleX }, ys = stops.map { -$0.latitude }
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let spanX = max(maxX - minX, 1e-6), spanY = max(maxY - minY, 1e-6)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        // Centre the drawing in the box.
        let offsetX = (width - spanX * scale) / 2, offsetY = (height - spanY * scale) / 2
        var points: [Point] = []
        for (index, stop) in stops.enumerated() {
            let x = stops.count == 1 ? width / 2 : offsetX + (xs[index] - minX) * scale
            let y = stops.count == 1 ? height / 2 : offsetY + (ys[index] - minY) * scale
            points.append(Point(number: index + 1, city: stop.city, x: rounded(x), y: rounded(y), labelOnLeft: x > width * 0.6))
        }
        return RoutePicture(points: points)
    }

    /// Polyline points attribute, e.g. "40.0,120.5 300.0,80.0".
    public var polyline: String {
        points.map { "\(format($0.x)),\(format($0.y))" }.joined(separator: " ")
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    func format(_ value: Double) -> String { Formatting.oneDecimal(value) }
}
