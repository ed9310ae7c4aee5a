import Foundation
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Route pictures: names inside the picture, off each other and off the line")
struct RoutePictureTests {
    typealias Place = RoutePicture.Place

    /// The sample convoy: Union Station and Wrigley Field are 5 miles apart, the Public
    /// Market and the ballpark 3, on a route that runs north.
    static let convoy = [
        Place(name: "Chicago Union Station", marker: "S", latitude: 41.8787, longitude: -87.6403),
        Place(name: "Wrigley Field (pick-up)", marker: "1", latitude: 41.9484, longitude: -87.6553),
        Place(name: "Mars Cheese Castle", marker: "2", latitude: 42.6147, longitude: -87.9543),
        Place(name: "Milwaukee Public Market", marker: "3", latitude: 43.0346, longitude: -87.909),
        Place(name: "American Family Field", marker: "D", latitude: 43.028, longitude: -87.9712),
    ]

    func labels(_ picture: RoutePicture) -> [RouteLabels.Box] {
        picture.points.map { point in
            RouteLabels.box(RouteLabels.Placement(onLeft: point.labelOnLeft, dy: point.labelDy, tucked: abs(point.labelDx) != RouteLabels.gap), at: (point.x, point.y),
                            textWidth: RouteLabels.textWidth(point.name))
        }
    }

    @Test("Close checkpoints on a north–south route: every name fits, and no two overlap")
    func closeCheckpoints() throws {
        let picture = try #require(RoutePicture.make(places: Self.convoy))
        #expect(picture.points.map(\.marker) == ["S", "1", "2", "3", "D"])
        let boxes = labels(picture)
        for box in boxes {
            #expect(box.minX >= 0 && box.maxX <= RoutePicture.width && box.minY >= 0 && box.maxY <= RoutePicture.height)
        }
        for (i, a) in boxes.enumerated() {
            for b in boxes[(i + 1)...] {
                #expect(a.maxX <= b.minX || b.maxX <= a.minX || a.maxY <= b.minY || b.maxY <= a.minY, "two names overlap")
            }
        }
        // Each name reads as its own point's: nearer to it than to any other. The destination
        // sits beside the last checkpoint; written beside it, its name ran under the
        // checkpoint's and read as a second name of it. It now sits tucked under its own marker.
        for (index, box) in boxes.enumerated() {
            let point = picture.points[index]
            for other in picture.points where other.marker != point.marker {
                #expect(box.distance(to: (point.x, point.y)) < box.distance(to: (other.x, other.y)), "\(point.name) reads as \(other.name)'s")
            }
        }
        #expect(picture.points[4].labelDx == -RoutePicture.markerRadius && picture.points[4].labelDy == RouteLabels.step)
        // Every point stays inside the margins after the drawing moved to make room.
        #expect(picture.points.allSatisfy { $0.x >= 34 && $0.x <= RoutePicture.width - 34 })
    }

    /// An audit's trip: five stops within 20 miles of each other at the end of a long drive,
    /// Foxborough (the last) beside Boston (the second).
    static let bostonLoop = [
        ("New York", 40.7505, -73.9934), ("Boston", 42.3662, -71.0621), ("Providence", 41.824, -71.4128),
        ("Pawtucket", 41.8787, -71.3826), ("Attleboro", 41.9445, -71.2856), ("Mansfield", 42.0334, -71.219),
        ("Foxborough", 42.0909, -71.2643),
    ].enumerated().map { Place(name: $1.0, marker: String($0 + 1), latitude: $1.1, longitude: $1.2) }

    @Test("A late stop beside an early one: the early name moves aside rather than be drawn over (Foxborough over Boston)")
    func laterStopBesideEarlier() throws {
        let picture = try #require(RoutePicture.make(places: Self.bostonLoop))
        let boxes = labels(picture)
        for box in boxes {
            #expect(box.minX >= 0 && box.maxX <= RoutePicture.width && box.minY >= 0 && box.maxY <= RoutePicture.height)
        }
        for (i, a) in boxes.enumerated() {
            for (j, b) in boxes.enumerated() where j > i {
                #expect(a.maxX <= b.minX || b.maxX <= a.minX || a.maxY <= b.minY || b.maxY <= a.minY,
                        "\(picture.points[i].name) and \(picture.points[j].name) overlap")
            }
        }
    }

    @Test("A name beside the line leaves it: Denver, west of Kansas City, is written above its point")
    func offTheLine() throws {
        let picture = try #require(RoutePicture.make(places: [
            Place(name: "Kansas City", marker: "1", latitude: 39.05, longitude: -94.48),
            Place(name: "Denver", marker: "2", latitude: 39.76, longitude: -104.99),
        ]))
        let points = picture.points.map { (x: $0.x, y: $0.y) }
        for box in labels(picture) {
            #expect(box.lengthCrossed(by: points) == 0)
        }
        #expect(picture.points[1].labelDy == -RouteLabels.step)
    }

    @Test("A route across the 180° meridian is drawn the short way: Suva to Apia is 10° east, not 350° west")
    func antimeridian() throws {
        let places = [("Suva", -18.14, 178.44), ("Taveuni", -16.8, 180.0), ("Apia", -13.83, -171.77), ("Nukuʻalofa", -21.14, -175.2)]
            .enumerated().map { RoutePicture.Place(name: $1.0, marker: String($0 + 1), latitude: $1.1, longitude: $1.2) }
        let picture = try #require(RoutePicture.make(places: places))
        let xs = picture.points.map(\.x)
        // West to east: Suva, Taveuni, Nukuʻalofa, Apia, as on a map of the Pacific.
        #expect(xs[0] < xs[1] && xs[1] < xs[3] && xs[3] < xs[2])
        #expect(RoutePicture.unwrapped([178.44, 180, -171.77, -175.2]) == [178.44, 180, 188.23, 184.8])
        // A trip that does not cross the meridian keeps its longitudes, wherever it is.
        #expect(RoutePicture.unwrapped([-122.4, -87.6, -71.1]) == [-122.4, -87.6, -71.1])
        #expect(RoutePicture.unwrapped([-10, 10]) == [-10, 10])
        #expect(RoutePicture.unwrapped([139.7]) == [139.7])
    }

    @Test("A wide route keeps its place; a lone stop sits in the middle")
    func unmoved() throws {
        let wide = try #require(RoutePicture.make(places: [
            Place(name: "Boston", marker: "1", latitude: 42.35, longitude: -71.1),
            Place(name: "Denver", marker: "2", latitude: 39.76, longitude: -104.99),
        ]))
        #expect(wide.points.map(\.x) == [386.0, 34.0])
        let lone = try #require(RoutePicture.make(places: [Place(name: "Chicago", marker: "1", latitude: 41.9, longitude: -87.6)]))
        #expect((lone.points[0].x, lone.points[0].y) == (210.0, 140.0))
    }

    func closestCentres(_ picture: RoutePicture) -> Double {
        var closest = Double.infinity
        for (i, a) in picture.points.enumerated() {
            for b in picture.points[(i + 1)...] {
                closest = min(closest, ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
            }
        }
        return closest
    }

    @Test("Stops that nearly coincide are drawn apart: no number hides another")
    func markersApart() throws {
        // Anaheim and Los Angeles on a trip to Denver; a loop back to its first city; the
        // convoy's start and pick-up; three stops at one place.
        let trips: [[Place]] = [
            [Place(name: "Phoenix", marker: "1", latitude: 33.45, longitude: -112.07),
             Place(name: "Anaheim", marker: "2", latitude: 33.80, longitude: -117.88),
             Place(name: "Los Angeles", marker: "3", latitude: 34.07, longitude: -118.24),
             Place(name: "Denver", marker: "4", latitude: 39.76, longitude: -104.99)],
            [Place(name: "Chicago", marker: "1", latitude: 41.9, longitude: -87.6),
             Place(name: "Detroit", marker: "2", latitude: 42.33, longitude: -83.05),
             Place(name: "Cincinnati", marker: "3", latitude: 39.1, longitude: -84.51),
             Place(name: "Chicago", marker: "4", latitude: 41.9, longitude: -87.6)],
            Self.convoy,
            [Place(name: "Denver", marker: "1", latitude: 39.76, longitude: -104.99),
             Place(name: "Denver", marker: "2", latitude: 39.76, longitude: -104.99),
             Place(name: "Denver", marker: "3", latitude: 39.76, longitude: -104.99)],
        ]
        for places in trips {
            let picture = try #require(RoutePicture.make(places: places))
            // Centres are rounded to a tenth when drawn.
            #expect(closestCentres(picture) >= RoutePicture.markerSpacing - 0.15, "\(places.map(\.name))")
            for point in picture.points {
                #expect(point.x >= RoutePicture.markerRadius && point.x <= RoutePicture.width - RoutePicture.markerRadius)
                #expect(point.y >= RoutePicture.markerRadius && point.y <= RoutePicture.height - RoutePicture.markerRadius)
            }
        }
        // Coincident stops are set side by side in route order.
        let same = try #require(RoutePicture.make(places: trips[3]))
        #expect(same.points.map(\.x) == same.points.map(\.x).sorted() && Set(same.points.map(\.y)).count == 1)
    }

    @Test("More stops at one place than fit side by side: the spreading stops, inside the picture")
    func crowded() throws {
        let places = (1...40).map { Place(name: "Denver", marker: String($0), latitude: 39.76, longitude: -104.99) }
        let picture = try #require(RoutePicture.make(places: places))
        #expect(picture.points.count == 40)
        #expect(picture.points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.x >= 0 && $0.x <= RoutePicture.width })
        // Past 200 stops they are drawn where they fall and their names where they prefer
        // (both searches grow with the square): a hostile export of 20,000 stops draws at once.
        let many = (1...201).map { Place(name: "Stop \($0)", marker: String($0), latitude: 39, longitude: -105) }
        let drawn = try #require(RoutePicture.make(places: many))
        #expect(Set(drawn.points.map(\.x)).count == 1 && Set(drawn.points.map(\.y)).count == 1)
        #expect(drawn.points.allSatisfy { $0.labelDy == 0 })
        let hostile = (1...20_000).map { Place(name: "Stop \($0)", marker: String($0), latitude: 30 + Double($0 % 97) * 0.1,
                                                longitude: -120 + Double($0 % 89) * 0.2) }
        #expect(RoutePicture.make(places: hostile)?.points.count == 20_000)
    }

    @Test("A crowded route leaves out the names that would sit on another name or number, never the first or last; an uncrowded one keeps all")
    func crowdedNamesLeftOut() throws {
        let cities: [(String, Double, Double)] = [
            ("Boston", 42.36, -71.06), ("Providence", 41.82, -71.41), ("Hartford", 41.76, -72.68), ("New Haven", 41.31, -72.92),
            ("New York", 40.71, -74.0), ("Newark", 40.73, -74.17), ("Trenton", 40.22, -74.76), ("Philadelphia", 39.95, -75.16),
            ("Wilmington", 39.74, -75.55), ("Baltimore", 39.29, -76.61), ("Washington", 38.9, -77.04), ("Richmond", 37.54, -77.44),
            ("Norfolk", 36.85, -76.29), ("Raleigh", 35.78, -78.64), ("Durham", 35.99, -78.9), ("Charlotte", 35.23, -80.84),
            ("Columbia", 34.0, -81.03), ("Atlanta", 33.75, -84.39), ("Nashville", 36.16, -86.78), ("Memphis", 35.15, -90.05),
        ]
        let places = cities.enumerated().map { Place(name: $1.0, marker: String($0 + 1), latitude: $1.1, longitude: $1.2) }
        let picture = try #require(RoutePicture.make(places: places))
        let shown = picture.points.indices.filter { picture.points[$0].labelShown }
        // "New Ha⑥en" was drawn across stop 6's number, and "Newark" beside Hartford's.
        #expect(shown.count < places.count && shown.count >= places.count / 2, "\(shown.count) of \(places.count) names")
        #expect(shown.contains(0) && shown.contains(places.count - 1))
        let boxes = labels(picture)
        for index in shown {
            let markers = picture.points.indices.filter { $0 != index }.map { other in
                RouteLabels.Box(minX: picture.points[other].x - 11, maxX: picture.points[other].x + 11,
                                minY: picture.points[other].y - 11, maxY: picture.points[other].y + 11)
            }
            let covered = shown.filter { $0 != index }.map { boxes[index].overlap(boxes[$0]) }.reduce(0, +)
                + markers.map { boxes[index].overlap($0) }.reduce(0, +)
            #expect(covered <= RouteLabels.tolerableOverlap, "\(picture.points[index].name) covers \(covered) px²")
            let own = boxes[index].distance(to: (picture.points[index].x, picture.points[index].y))
            #expect(!picture.points.indices.contains { $0 != index && boxes[index].distance(to: (picture.points[$0].x, picture.points[$0].y)) < own },
                    "\(picture.points[index].name) reads as another stop's")
        }
        // The page leaves out the text elements of a name left out; its number stays.
        let map = RouteMap(picture, title: "Route", description: "Stops in order")
        #expect(map.points.filter { !$0.labelled }.count == places.count - shown.count)
        #expect(map.points.allSatisfy { $0.labelled == !$0.label.isEmpty })
        #expect(map.points.map(\.marker) == places.map(\.marker))
        // The sample convoy, close checkpoints and all, keeps every name.
        #expect(try #require(RoutePicture.make(places: Self.convoy)).points.allSatisfy(\.labelShown))
    }

    @Test("A name too long for the picture is shortened with an ellipsis inside it; the others and the caption keep theirs")
    func longNamesShortened() throws {
        let places = [
            Place(name: "Boston", marker: "1", latitude: 42.3467, longitude: -71.0972),
            Place(name: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch", marker: "2", latitude: 42.7004, longitude: -74.9243),
            Place(name: "New York", marker: "3", latitude: 40.8296, longitude: -73.9262),
            Place(name: "Truth or Consequences, New Mexico", marker: "4", latitude: 39.9061, longitude: -75.1665),
        ]
        let map = RouteMap(try #require(RoutePicture.make(places: places)), title: "Route", description: "Stops in order")
        #expect(map.points.map(\.name) == places.map(\.name))
        #expect(map.points.map(\.label) == ["Boston", "Llanfairpwllgwyngyllgogerychwyrndrobwlllla…", "New York", "Truth or Consequences, New Mexico"])
        for point in map.points {
            let label = point.label
            let x = try #require(Double(point.labelX)), width = Double(label.count) * RouteLabels.measuredCharacterWidth
            let (left, right) = point.anchor == "end" ? (x - width, x) : (x, x + width)
            #expect(left >= 0 && right <= RoutePicture.width, "\(label) runs out of the picture")
        }
        #expect(RouteLabels.fitted("Truth or Consequences, New Mexico", width: 200) == "Truth or Consequences…", "cut after a word, not before its comma")
        // As wide as it is in the page's font, not the wider estimate placement keeps clear with.
        #expect(RouteLabels.fitted("Baltimore", width: 83.6) == "Baltimore")
        #expect(RouteLabels.fitted("東京", width: 0) == "東…", "at least one character is kept")
    }
}
