import Foundation

/// Where a route picture's names go. Labels are estimated from their length (16 px bold
/// text, about 9.5 px a character) so that they stay inside the picture and off each
/// other and off the points: a convoy's checkpoints can be a few miles apart, and a
/// north–south route leaves little room beside it.
enum RouteLabels {
    static let characterWidth = 9.5
    /// From a point's centre to its label.
    static let gap = 15.0
    /// How far a label moves up or down when it cannot sit level with its point.
    static let step = 20.0

    struct Placement: Equatable {
        var onLeft: Bool
        /// Vertical offset of the label from its point.
        var dy: Double
    }

    static func textWidth(_ name: String) -> Double { Double(name.count) * characterWidth }

    /// How far to move a drawing sideways so that its names, written to the right of their
    /// points, fit in the picture: centred with them, while every point stays inside the
    /// margins (a drawing as wide as the picture does not move).
    static func horizontalShift(xs: [Double], names: [String], width: Double, margin: Double) -> Double {
        guard xs.count > 1, let left = xs.min(), let rightmostPoint = xs.max() else { return 0 }
        let right = zip(xs, names).map { $0 + gap + textWidth($1) }.max()!
        let centred = (width - (right - left)) / 2 - left
        return min(max(centred, margin - left), width - margin - rightmostPoint)
    }

    /// One placement per point, in route order: each label takes the cheapest of six
    /// spots (level, above or below, on either side), its preferred side first on a tie.
    static func place(names: [String], points: [(x: Double, y: Double)], width: Double, height: Double) -> [Placement] {
        let markers = points.map { Box(minX: $0.x - 11, maxX: $0.x + 11, minY: $0.y - 11, maxY: $0.y + 11) }
        var placed: [Box] = []
        var placements: [Placement] = []
        for (index, point) in points.enumerated() {
            let preferLeft = point.x > width * 0.6
            let candidates = [preferLeft, !preferLeft].flatMap { onLeft in
                [0, -step, step].map { Placement(onLeft: onLeft, dy: $0) }
            }
            let others = placed + markers.enumerated().filter { $0.offset != index }.map(\.element)
            let costs = candidates.map { placement in
                let label = box(placement, at: point, name: names[index])
                return label.cost(among: others, width: width, height: height) + 10 * label.lengthCrossed(by: points)
            }
            // The first of the cheapest: min(by:) keeps the earlier of equal elements.
            let best = candidates[costs.indices.min { costs[$0] < costs[$1] }!]
            placed.append(box(best, at: point, name: names[index]))
            placements.append(best)
        }
        return placements
    }

    static func box(_ placement: Placement, at point: (x: Double, y: Double), name: String) -> Box {
        let textWidth = textWidth(name), y = point.y + placement.dy
        return placement.onLeft
            ? Box(minX: point.x - gap - textWidth, maxX: point.x - gap, minY: y - 11, maxY: y + 9)
            : Box(minX: point.x + gap, maxX: point.x + gap + textWidth, minY: y - 11, maxY: y + 9)
    }

    struct Box {
        let minX, maxX, minY, maxY: Double

        /// Length outside the picture (weighted: a clipped name is worst), plus the area
        /// shared with labels and points already there.
        func cost(among others: [Box], width: Double, height: Double) -> Double {
            let outside = max(0, -minX) + max(0, maxX - width) + max(0, -minY) + max(0, maxY - height)
            return outside * 20 + others.reduce(0) { total, other in
                total + max(0, min(maxX, other.maxX) - max(minX, other.minX)) * max(0, min(maxY, other.maxY) - max(minY, other.minY))
            }
        }

        /// How much of the route line, through `points` in order, runs across the box
        /// (each segment clipped to it, Liang–Barsky).
        func lengthCrossed(by points: [(x: Double, y: Double)]) -> Double {
            zip(points, points.dropFirst()).reduce(0) { total, segment in
                let (a, b) = segment
                let dx = b.x - a.x, dy = b.y - a.y
                var enter = 0.0, leave = 1.0
                for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
                    if p == 0 {
                        if q < 0 { return total }
                    } else if p < 0 {
                        enter = max(enter, q / p)
                    } else {
                        leave = min(leave, q / p)
                    }
                }
                return enter < leave ? total + (leave - enter) * (dx * dx + dy * dy).squareRoot() : total
            }
        }
    }
}
