import Foundation

/// Where a route picture's names go. Labels are estimated from their length (16 px bold
/// text, about 9.5 px a character) so that they stay inside the picture and off each
/// other and off the points: a convoy's checkpoints can be a few miles apart, and a
/// north–south route leaves little room beside it.
package enum RouteLabels {
    package static let characterWidth = 9.5
    /// From a point's centre to its label.
    package static let gap = 15.0
    /// How far a label moves up or down when it cannot sit level with its point.
    package static let step = 20.0

    package struct Placement: Equatable {
        package var onLeft: Bool
        /// Vertical offset of the label from its point.
        package var dy: Double
        /// Above or below its point, flush with the marker's edge on its side, rather than
        /// beside it: where two points sit side by side, a label beside the first runs under
        /// the second and reads as its name.
        package var tucked = false
        /// False for a name left out of a crowded picture (`place`): its number stays.
        package var shown = true

        package init(onLeft: Bool, dy: Double, tucked: Bool = false, shown: Bool = true) {
            (self.onLeft, self.dy, self.tucked, self.shown) = (onLeft, dy, tucked, shown)
        }

        /// From the point to where its label is anchored (its start, or its end on the left).
        package var dx: Double {
            switch (onLeft, tucked) {
            case (false, false): return gap
            case (true, false): return -gap
            case (false, true): return -RoutePicture.markerRadius
            case (true, true): return RoutePicture.markerRadius
            }
        }
    }

    /// The most stops whose names are placed with care (`place`).
    package static let maxPlacedStops = 200

    package static func textWidth(_ name: String) -> Double { Double(name.count) * characterWidth }

    /// The width of a character of a label on average, measured in the page's font (Chromium,
    /// 16 px semibold: "Truth or Consequences, New Mexico" 288 units, "Baltimore" 78): less
    /// than `characterWidth`, which errs wide so that placed labels keep clear of each other.
    /// Shortening by that estimate cut "Baltimore", which fits, to "Baltimo…".
    package static let measuredCharacterWidth = 8.7

    /// `name`, or its start and "…" when its width is more than `width`: a name too long for
    /// the picture (a Welsh village, a pasted address) was cut at its edge mid-letter, with
    /// nothing to say it went on. The whole name is in the caption.
    package static func fitted(_ name: String, width: Double) -> String {
        guard Double(name.count) * measuredCharacterWidth > width else { return name }
        // The ellipsis takes one character's room.
        let kept = name.prefix(max(Int((width / measuredCharacterWidth).rounded(.down)) - 1, 1))
        return String(kept.reversed().drop { $0.isWhitespace || $0.isPunctuation }.reversed()) + "…"
    }

    /// How far to move a drawing sideways so that its names, written to the right of their
    /// points, fit in the picture: centred with them, while every point stays inside the
    /// margins (a drawing as wide as the picture does not move).
    package static func horizontalShift(xs: [Double], names: [String], width: Double, margin: Double) -> Double {
        guard xs.count > 1, let left = xs.min(), let rightmostPoint = xs.max() else { return 0 }
        let right = zip(xs, names).map { $0 + gap + textWidth($1) }.max()!
        let centred = (width - (right - left)) / 2 - left
        return min(max(centred, margin - left), width - margin - rightmostPoint)
    }

    /// One placement per point, in route order: each label takes the cheapest spot (level,
    /// one or two steps above or below, on either side, or tucked above or below), its
    /// preferred side first on a tie. Then each label is weighed again against all the
    /// others, not only those placed before it, until none moves: placed in route order
    /// alone, Boston took the spot Foxborough (five stops later, 20 miles away) then had
    /// to be drawn over. Runs for every trip page, so it allocates nothing per spot tried.
    package static func place(names: [String], points: [(x: Double, y: Double)], width: Double, height: Double) -> [Placement] {
        // Each spot is weighed against every other label, marker and stretch of the line:
        // the work grows with the square of the stops. A route of more than a couple of
        // hundred (only a hostile export has one) cannot be labelled legibly in the picture
        // anyway, and must not hold the build for minutes: its names go where they prefer.
        guard points.count <= maxPlacedStops else {
            return points.map { Placement(onLeft: $0.x > width * 0.6, dy: 0) }
        }
        let markers = points.map { Box(minX: $0.x - 11, maxX: $0.x + 11, minY: $0.y - 11, maxY: $0.y + 11) }
        let widths = names.map(textWidth)
        // The labels placed so far (nil: not yet, or the one being weighed).
        var boxes: [Box?] = Array(repeating: nil, count: points.count)

        func cost(of label: Box, _ index: Int, dy: Double) -> Double {
            let point = points[index]
            var cost = label.outside(width: width, height: height) * 20 + label.lengthCrossed(by: points) * 10
            for case let placed? in boxes { cost += label.overlap(placed) }
            for (other, marker) in markers.enumerated() where other != index { cost += label.overlap(marker) }
            // A label nearer another point than its own reads as that point's.
            let own = label.distance(to: point)
            for (other, otherPoint) in points.enumerated() where other != index && label.distance(to: otherPoint) < own {
                cost += ambiguity
            }
            // Two steps away only to get clear of something: level beats a step away on a tie.
            return cost + (abs(dy) > step ? 1 : 0)
        }

        /// The cheapest spot for label `index` against the labels in `boxes`.
        func best(_ index: Int) -> (placement: Placement, box: Box, cost: Double) {
            let point = points[index]
            let preferLeft = point.x > width * 0.6
            var best = Placement(onLeft: preferLeft, dy: 0), bestBox = box(best, at: point, textWidth: widths[index])
            var bestCost = Double.infinity
            // Beside the point first (level, then up or down; the preferred side first), then
            // tucked above or below it.
            for tucked in [false, true] {
                for onLeft in [preferLeft, !preferLeft] {
                    for dy in tucked ? [-step, step, -2 * step, 2 * step] : [0, -step, step, -2 * step, 2 * step] {
                        let placement = Placement(onLeft: onLeft, dy: dy, tucked: tucked)
                        let label = box(placement, at: point, textWidth: widths[index])
                        let cost = cost(of: label, index, dy: dy)
                        // Strictly cheaper only: on a tie the earlier spot stays.
                        if cost < bestCost { (best, bestBox, bestCost) = (placement, label, cost) }
                    }
                }
            }
            return (best, bestBox, bestCost)
        }

        var placements: [Placement] = []
        placements.reserveCapacity(points.count)
        for index in points.indices {
            let chosen = best(index)
            boxes[index] = chosen.box
            placements.append(chosen.placement)
        }
        /// Label `index` weighed again against all the others: moved to its cheapest spot when
        /// that is cheaper than where it is. True when it moved.
        func reweigh(_ index: Int) -> Bool {
            let current = boxes[index]!
            boxes[index] = nil
            let chosen = best(index)
            guard chosen.cost < cost(of: current, index, dy: placements[index].dy) - 1e-9 else {
                boxes[index] = current
                return false
            }
            placements[index] = chosen.placement
            boxes[index] = chosen.box
            return true
        }
        // A few rounds settle a trip.
        for _ in 0..<4 {
            var moved = false
            for index in points.indices { if reweigh(index) { moved = true } }
            guard moved else { break }
        }
        // Then the names that still sit on another name or number, past the picture's edge,
        // or nearer another point than their own, are left out, the worst first, until none
        // does; after each, the names left may move into the room it made. A route of twenty East Coast cities
        // printed "New Ha⑥en" over a stop's number and "Newark" beside Hartford's. The first
        // and last stops keep theirs while any other can go; every name is in the caption.
        func conflict(_ index: Int) -> Double {
            guard let label = boxes[index] else { return 0 }
            let roomy = label.widened(by: labelSpacing / 2)
            var total = 0.0
            for (other, placed) in boxes.enumerated() where other != index {
                if let placed { total += roomy.overlap(placed.widened(by: labelSpacing / 2)) }
            }
            for (other, marker) in markers.enumerated() where other != index { total += label.overlap(marker) }
            // A name that could only be placed above or below the picture is cut off there.
            // (Past a side edge it is shortened to the room, with "…": `fitted`.)
            total += (max(0, -label.minY) + max(0, label.maxY - height)) * 20
            let own = label.distance(to: points[index])
            for (other, point) in points.enumerated() where other != index && label.distance(to: point) < own {
                total += ambiguity
            }
            return total
        }
        let ends: Set<Int> = [0, points.count - 1]
        // Moving the others again after each name left out grows with the cube of the stops:
        // only where a picture can hold that many names at all.
        let settles = points.count <= 60
        while true {
            let costs = points.indices.map(conflict)
            let crowded = points.indices.filter { costs[$0] > tolerableOverlap }
            guard !crowded.isEmpty else { return placements }
            // The worst of the middle stops first; on a tie, the later stop.
            let candidates = crowded.filter { !ends.contains($0) }
            let pool = candidates.isEmpty ? crowded : candidates
            let worst = pool.max { (costs[$0], $0) < (costs[$1], $1) }!
            boxes[worst] = nil
            placements[worst].shown = false
            guard settles else { continue }
            for index in points.indices where placements[index].shown { _ = reweigh(index) }
        }
    }

    /// What a name may cover of other names and numbers, in square pixels, before it is left
    /// out: a letter's corner under a halo reads; half a number does not.
    static let tolerableOverlap = 40.0
    /// Room kept between two names side by side: the halo drawn round each (4 px on a card)
    /// ran one into the next, "MilwaukeeToronto". (A line's box holds its own room above
    /// and below.)
    static let labelSpacing = 4.0

    /// What a label that reads as another point's costs: about a marker covered whole.
    static let ambiguity = 500.0

    package static func box(_ placement: Placement, at point: (x: Double, y: Double), textWidth: Double) -> Box {
        let y = point.y + placement.dy
        let anchor = point.x + placement.dx
        return placement.onLeft
            ? Box(minX: anchor - textWidth, maxX: anchor, minY: y - 11, maxY: y + 9)
            : Box(minX: anchor, maxX: anchor + textWidth, minY: y - 11, maxY: y + 9)
    }

    package struct Box {
        package let minX, maxX, minY, maxY: Double

        /// Length outside the picture.
        package func outside(width: Double, height: Double) -> Double {
            max(0, -minX) + max(0, maxX - width) + max(0, -minY) + max(0, maxY - height)
        }

        /// From the box's nearest edge to `point` (0 inside it).
        package func distance(to point: (x: Double, y: Double)) -> Double {
            let dx = max(minX - point.x, 0, point.x - maxX), dy = max(minY - point.y, 0, point.y - maxY)
            return (dx * dx + dy * dy).squareRoot()
        }

        /// The box grown by `margin` on its left and right.
        package func widened(by margin: Double) -> Box {
            Box(minX: minX - margin, maxX: maxX + margin, minY: minY, maxY: maxY)
        }

        /// The area shared with another box.
        package func overlap(_ other: Box) -> Double {
            max(0, min(maxX, other.maxX) - max(minX, other.minX)) * max(0, min(maxY, other.maxY) - max(minY, other.minY))
        }

        /// How much of the route line, through `points` in order, runs across the box
        /// (each segment clipped to it, Liang–Barsky).
        package func lengthCrossed(by points: [(x: Double, y: Double)]) -> Double {
            var total = 0.0
            for index in points.indices.dropFirst() {
                let a = points[index - 1], b = points[index]
                let dx = b.x - a.x, dy = b.y - a.y
                var range = (enter: 0.0, leave: 1.0)
                guard Self.clip(-dx, a.x - minX, &range), Self.clip(dx, maxX - a.x, &range),
                      Self.clip(-dy, a.y - minY, &range), Self.clip(dy, maxY - a.y, &range),
                      range.enter < range.leave else { continue }
                total += (range.leave - range.enter) * (dx * dx + dy * dy).squareRoot()
            }
            return total
        }

        /// Narrows a segment's parameter range to one side of the box; false when the
        /// segment lies wholly outside that side.
        package static func clip(_ p: Double, _ q: Double, _ range: inout (enter: Double, leave: Double)) -> Bool {
            if p == 0 { return q >= 0 }
            if p < 0 { range.enter = max(range.enter, q / p) } else { range.leave = min(range.leave, q / p) }
            return true
        }
    }
}
