import Foundation
import SitegenCore
import SitegenModel

/// A trip's games as an iCalendar file (RFC 5545): stable UIDs, UTC instants, escaped
/// text, lines folded at 75 octets without splitting a character, CRLF line ends.
public enum CalendarFile {
    /// Typical length of a game, for DTEND (the export has no end time).
    public static let gameLength: TimeInterval = 3 * 3600

    /// `format` dates the games written without a time (in the site's zone), which are
    /// all-day events: the day is known, the time is not.
    public static func ics(trip: Trip, games: [Game], calendarName: String, buildTime: Date, format: Formatting) -> String {
        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//sitegen//Trip games \(SitegenVersion.current)//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escapeText(calendarName),
        ]
        for game in games.sorted(by: { ($0.startTime, $0.id) < ($1.startTime, $1.id) }) {
            lines += [
                "BEGIN:VEVENT",
                // Stable across builds: the same game on the same trip keeps its UID.
                "UID:" + escapeText("\(game.id)-\(trip.id.uuidString.lowercased())@sitegen"),
                "DTSTAMP:" + utcStamp(buildTime),
            ]
            if game.startIsDateOnly {
                // An all-day event: a DATE start and no end is one day long (RFC 5545 §3.6.1).
                lines.append("DTSTART;VALUE=DATE:" + format.isoDate(game.startTime).replacingOccurrences(of: "-", with: ""))
            } else {
                lines += [
                    "DTSTART:" + utcStamp(game.startTime),
                    "DTEND:" + utcStamp(end(of: game)),
                ]
            }
            lines += [
                "SUMMARY:" + escapeText("\(game.awayTeam) at \(game.homeTeam)"),
            ]
            let place = [game.venue, game.city].compactMap { $0 }.joined(separator: ", ")
            if !place.isEmpty { lines.append("LOCATION:" + escapeText(place)) }
            let sport = game.sport.isEmpty ? "" : "\(game.sport.uppercased()) · "
            lines.append("DESCRIPTION:" + escapeText("\(sport)\(trip.name)"))
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// The game's start plus its typical length, but not past the last second a calendar
    /// date can name (start times are checked to fall in years 1 to 9999).
    static func end(of game: Game) -> Date {
        min(game.startTime.addingTimeInterval(gameLength), lastInstant)
    }

    /// 9999-12-31T23:59:59Z.
    static let lastInstant = Date(timeIntervalSince1970: 253_402_300_799)

    /// "20260612T190500Z"
    package static func utcStamp(_ date: Date) -> String {
        Formatting.iso8601(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// TEXT escaping (RFC 5545 §3.3.11); other control characters part words with a space.
    package static func escapeText(_ text: String) -> String {
        var out = ""
        // A tab or another control character is a space between the words either side, as a
        // page shows it: left out, "Venue\twith tab" read "Venuewith tab".
        var apart = false
        for scalar in text.unicodeScalars {
            if scalar != "\n" && (scalar.value < 0x20 || scalar.value == 0x7F) {
                apart = true
                continue
            }
            if apart && !out.isEmpty && !out.hasSuffix(" ") && scalar != " " && scalar != "\n" { out += " " }
            apart = false
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Lines longer than 75 octets continue on the next line after CRLF and a space. A line
    /// breaks between Unicode scalars, never inside one's UTF-8 bytes; a fold may fall inside
    /// a character of several scalars (an emoji sequence, a letter with many accents), which
    /// unfolding joins again, so no line is longer however long a character is.
    package static func fold(_ line: String) -> String {
        var result = ""
        var current = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if current + size > 75 {
                result += "\r\n "
                current = 1
            }
            result.unicodeScalars.append(scalar)
            current += size
        }
        return result
    }
}
