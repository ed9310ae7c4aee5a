import Foundation

/// A place to drive through, by its coordinates: links and route files use coordinates, not
/// names, so a navigation app lands exactly on it instead of guessing from a city's name.
public struct RoutePoint: Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "41.948,-87.655": the form both maps services read as a coordinate.
    package var coordinateText: String { "\(Self.decimal(latitude)),\(Self.decimal(longitude))" }

    /// Degrees as plain decimal text, at most 6 places (about 11 cm), trailing zeros
    /// dropped: never an exponent (GPX's xsd:decimal has none), the same on every machine.
    package static func decimal(_ degrees: Double) -> String {
        let micro = Int64((degrees * 1_000_000).rounded())
        let whole = micro.magnitude / 1_000_000, fraction = micro.magnitude % 1_000_000
        var text = micro < 0 ? "-\(whole)" : "\(whole)"
        if fraction > 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}

/// Directions links that hand a drive to Google Maps or Apple Maps (docs/rules.md, "Handing trips to other apps"). Pure.
///
/// Each service takes a limited number of stops in one link, so a longer route becomes
/// consecutive links, each starting where the previous one ended.
public enum RouteHandoff {
    public enum Service: Sendable {
        case google, apple
    }

    /// One directions link: the stretch of the route from `points.first` to `points.last`.
    public struct Link: Sendable, Equatable {
        public var service: Service
        public var url: String
        /// Names of the stretch's first and last points, to label a route split into parts.
        public var from: String
        public var to: String
    }

    /// Waypoints per Google Maps URL (between origin and destination). Google documents
    /// "up to three waypoints supported on mobile browsers, and a maximum of nine waypoints
    /// supported otherwise"; these pages are opened on phones, where a link that lands in
    /// the browser silently drops the extra stops, so the smaller number is used.
    public static let googleMaxWaypoints = 3
    /// Apple's Map Links (`saddr`, `daddr`) document directions "between two points" only.
    public static let appleMaxWaypoints = 0

    /// Links for driving through `points` in order; none for fewer than two places. A point
    /// at the same coordinates as the one before it is the same place, passed once: a drive
    /// from Chicago to Chicago got directions from a place to itself.
    public static func links(_ points: [RoutePoint], service: Service) -> [Link] {
        let points = points.reduce(into: [RoutePoint]()) { kept, point in
            if kept.last?.coordinateText != point.coordinateText { kept.append(point) }
        }
        switch service {
        case .google:
            return stretches(points, maxWaypoints: googleMaxWaypoints).map { stretch in
                var query = [("api", "1"), ("origin", stretch.first!.coordinateText), ("destination", stretch.last!.coordinateText)]
                let waypoints = stretch.dropFirst().dropLast().map(\.coordinateText)
                if !waypoints.isEmpty { query.append(("waypoints", waypoints.joined(separator: "|"))) }
                query.append(("travelmode", "driving"))
                return link(.google, "https://www.google.com/maps/dir/", query, stretch)
            }
        case .apple:
            return stretches(points, maxWaypoints: appleMaxWaypoints).map { stretch in
                link(.apple, "https://maps.apple.com/",
                     [("saddr", stretch.first!.coordinateText), ("daddr", stretch.last!.coordinateText), ("dirflg", "d")], stretch)
            }
        }
    }

    /// `points` cut into consecutive stretches of at most `maxWaypoints` + 2 points, each
    /// beginning with the previous one's last point.
    package static func stretches(_ points: [RoutePoint], maxWaypoints: Int) -> [ArraySlice<RoutePoint>] {
        guard points.count >= 2 else { return [] }
        let step = maxWaypoints + 1
        return stride(from: 0, to: points.count - 1, by: step).map { start in
            points[start...min(start + step, points.count - 1)]
        }
    }

    private static func link(_ service: Service, _ base: String, _ query: [(String, String)], _ stretch: ArraySlice<RoutePoint>) -> Link {
        let text = query.map { "\($0)=\(percentEncoded($1))" }.joined(separator: "&")
        return Link(service: service, url: base + "?" + text, from: stretch.first!.name, to: stretch.last!.name)
    }

    /// Only RFC 3986's unreserved characters stay as they are: a value can then carry
    /// nothing that ends it (`&`, `#`) or changes its meaning (`|`, `,` are encoded too).
    /// A byte loop rather than Foundation's encoder, which is slow enough to show when every
    /// travel day of 10,000 polls' trips gets its links.
    package static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
