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
        /// Where its name goes (RouteLabels): to the left or right (its end or its start at
        /// `x + labelDx`), and up or down from level.
        public var labelOnLeft: Bool
        public var labelDx: Double
        public var labelDy: Double
        /// False where the picture is too crowded for its name (RouteLabels.place).
        public var labelShown = true
    }

    // Small enough that labels stay readable when a phone scales the picture down.
    public static let width = 420.0
    public static let height = 280.0
    package static let margin = 34.0

    public var points: [Point]

    /// A trip's stops, numbered from 1 and named as its pages name them (`Trip.stopNames`);
    /// nil when there is nothing to draw.
    public static func make(trip: Trip) -> RoutePicture? {
        make(places: zip(trip.stops, trip.stopNames).enumerated().map { index, stop in
            Place(name: stop.1, marker: String(index + 1), latitude: stop.0.latitude, longitude: stop.0.longitude)
        })
    }

    /// Longitudes made continuous across the 180° meridian: the places west of the widest
    /// empty arc between two of them go round by 360°, so the drawing is as narrow as the
    /// trip (Suva → Apia is 10° east, drawn across the whole picture as 350° west). Unchanged
    /// when that arc is the one across ±180° already, as for any trip that does not cross it.
    package static func unwrapped(_ longitudes: [Double]) -> [Double] {
        let sorted = longitudes.sorted()
        guard let first = sorted.first, let last = sorted.last, sorted.count > 1 else { return longitudes }
        var widest = first + 360 - last, cut = first
        for (west, east) in zip(sorted, sorted.dropFirst()) where east - west > widest {
            widest = east - west
            cut = east
        }
        return cut == first ? longitudes : longitudes.map { $0 < cut ? $0 + 360 : $0 }
    }

    /// nil when there is nothing to draw.
    public static func make(places: [Place]) -> RoutePicture? {
        guard !places.isEmpty else { return nil }
        let meanLatitude = places.map(\.latitude).reduce(0, +) / Double(places.count)
        let scaleX = cos(meanLatitude * .pi / 180)
        let projectedX = unwrapped(places.map(\.longitude)).map { $0 * scaleX }, projectedY = places.map { -$0.latitude }
        let minX = projectedX.min()!, maxX = projectedX.max()!, minY = projectedY.min()!, maxY = projectedY.max()!
        let spanX = max(maxX - minX, 1e-6), spanY = max(maxY - minY, 1e-6)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        // Centre the drawing in the box.
        let offsetX = (width - spanX * scale) / 2, offsetY = (height - spanY * scale) / 2
        var xs = places.indices.map { places.count == 1 ? width / 2 : offsetX + (projectedX[$0] - minX) * scale }
        var ys = places.indices.map { places.count == 1 ? height / 2 : offsetY + (projectedY[$0] - minY) * scale }
        // A narrow drawing (a north–south route) moves sideways to make room for its names.
        let shift = RouteLabels.horizontalShift(xs: xs, names: places.map(\.name), width: width, margin: margin)
        xs = xs.map { $0 + shift }
        spread(&xs, &ys)
        let labels = RouteLabels.place(names: places.map(\.name), points: Array(zip(xs, ys)).map { (x: $0, y: $1) },
                                       width: width, height: height)
        let points = places.indices.map { index in
            Point(marker: places[index].marker, name: places[index].name, x: rounded(xs[index]), y: rounded(ys[index]),
                  labelOnLeft: labels[index].onLeft, labelDx: labels[index].dx, labelDy: labels[index].dy,
                  labelShown: labels[index].shown)
        }
        return RoutePicture(points: points)
    }

    /// The radius of a stop's numbered circle, and the least distance between two centres:
    /// the circles and their rings never overlap.
    public static let markerRadius = 11.0
    package static let markerSpacing = 2 * markerRadius + 3

    /// Moves stops that would overlap apart, each pair along the line between them (side by
    /// side when they coincide, in route order), a little at a time until none overlap or
    /// the rounds run out: two cities 30 miles apart on a cross-country trip (Anaheim and Los
    /// Angeles) would otherwise hide one number under the other. Stops stay inside the margin.
    package static func spread(_ xs: inout [Double], _ ys: inout [Double]) {
        // Pairs grow with the square of the stops, and past a couple of hundred the circles
        // cannot all fit apart in the picture anyway: those are left where they fall.
        guard xs.count > 1, xs.count <= RouteLabels.maxPlacedStops else { return }
        // Stops at one place start a hair apart in route order, so they end up side by
        // side in that order.
        for j in xs.indices {
            for i in xs.indices where i < j && xs[i] == xs[j] && ys[i] == ys[j] {
                xs[j] += 1e-6 * Double(j - i)
            }
        }
        for _ in 0..<100 {
            // Every pair's push is found from the same positions, then all are applied: the
            // result does not depend on the order pairs are visited.
            var moveX = [Double](repeating: 0, count: xs.count), moveY = moveX
            var moved = false
            for i in xs.indices {
                for j in xs.indices where j > i {
                    var dx = xs[j] - xs[i], dy = ys[j] - ys[i]
                    let distance = (dx * dx + dy * dy).squareRoot()
                    guard distance < markerSpacing - 1e-9 else { continue }
                    if distance < 1e-9 {
                        (dx, dy) = (1, 0)
                    } else {
                        (dx, dy) = (dx / distance, dy / distance)
                    }
                    let push = (markerSpacing - distance) / 2 + 0.01
                    moveX[i] -= dx * push; moveY[i] -= dy * push
                    moveX[j] += dx * push; moveY[j] += dy * push
                    moved = true
                }
            }
            guard moved else { return }
            for index in xs.indices {
                xs[index] = min(max(xs[index] + moveX[index], markerRadius + 2), width - markerRadius - 2)
                ys[index] = min(max(ys[index] + moveY[index], markerRadius + 2), height - markerRadius - 2)
            }
        }
    }

    /// Polyline points attribute, e.g. "40.0,120.5 300.0,80.0".
    public var polyline: String {
        points.map { "\(format($0.x)),\(format($0.y))" }.joined(separator: " ")
    }

    package static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    package func format(_ value: Double) -> String { Formatting.oneDecimal(value) }
}
