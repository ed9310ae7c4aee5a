import Foundation
import SitegenCore
import SitegenModel

/// A route as a GPX 1.1 file (topografix.com/GPX/1/1) for navigation apps: one `<rte>`
/// named like the trip, one `<rtept>` per point with its name. Pure; no time stamp, so a
/// rebuild of the same route writes the same bytes. CI validates the sample site's files
/// against the schema (scripts/schemas/gpx-1.1.xsd).
public enum GPXFile {
    public static let fileName = "route.gpx"

    /// nil for fewer than two points: one place is not a route.
    public static func route(name: String, points: [RoutePoint]) -> String? {
        guard points.count >= 2 else { return nil }
        // A stop at the coordinates of the one before it is the same place: one route point
        // (a navigation app asked to go from a place to itself stops there). Pages link the
        // file for two stops or more, so a route of one place keeps its two points.
        let places = points.reduce(into: [RoutePoint]()) { kept, point in
            if kept.last?.coordinateText != point.coordinateText { kept.append(point) }
        }
        let points = places.count >= 2 ? places : points
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="sitegen \(SitegenVersion.current)" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata>
                <name>\(escaped(name))</name>
              </metadata>
              <rte>
                <name>\(escaped(name))</name>

            """
        for point in points {
            xml += """
                    <rtept lat="\(RoutePoint.decimal(point.latitude))" lon="\(RoutePoint.decimal(longitude(point.longitude)))">
                      <name>\(escaped(point.name))</name>
                    </rtept>

                """
        }
        xml += "  </rte>\n</gpx>\n"
        return xml
    }

    /// GPX longitudes are in [-180, 180): the antimeridian is written as -180. Rounded to
    /// the millionths written first: 179.9999996 was written "180", which the schema refuses.
    package static func longitude(_ degrees: Double) -> Double {
        let written = (degrees * 1_000_000).rounded() / 1_000_000
        return written >= 180 ? written - 360 : written
    }

    /// Text for XML 1.0: markup characters escaped, and characters XML cannot hold at all
    /// (control characters other than tab and line ends, U+FFFE, U+FFFF) written as a space,
    /// so the words either side stay apart.
    package static func escaped(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var apart = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                if apart && !kept.isEmpty && kept.last != " " && scalar != " " { kept.append(" ") }
                apart = false
                kept.append(scalar)
            default: apart = true
            }
        }
        return HTMLEscaping.escaped(String(kept))
    }
}
