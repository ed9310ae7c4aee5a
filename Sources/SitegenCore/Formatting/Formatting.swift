import Foundation

/// Human-readable numbers, dates and durations, fixed to English and to the given zone so
/// output does not depend on the machine's locale. Calendar is a value type, so this is
/// safe to share between render workers (DateFormatter would not be).
public struct Formatting: Sendable {
    public let timeZone: TimeZone

    /// The international mile; trip distances are exported in metres.
    public static let metersPerMile = 1609.344

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"]
    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// A date's wall-clock fields in a zone. Worked out from the zone's offset at that
    /// instant: Calendar.dateComponents cost a noticeable share of a large build.
    public struct LocalTime: Equatable {
        public let year, month, day, hour, minute: Int
        /// 1 = Sunday … 7 = Saturday, as in Calendar.
        public let weekday: Int
    }

    public func components(_ date: Date, in zone: TimeZone? = nil) -> LocalTime {
        let offset = ZoneOffsets.shared.seconds(zone ?? timeZone, at: date)
        let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDates.civilFromDays(days)
        // 1970-01-01 was a Thursday (5).
        let weekday = ((days % 7) + 7 + 4) % 7 + 1
        return LocalTime(year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60,
                         weekday: weekday)
    }

    /// "June 12, 2026"
    public func longDate(_ date: Date) -> String {
        let c = components(date)
        return "\(Self.monthNames[c.month - 1]) \(c.day), \(c.year)"
    }

    /// "2026-06-12": the date in the site's zone, as HTML's `<time datetime>` and
    /// iCalendar's DATE values (without the dashes) take it.
    public func isoDate(_ date: Date) -> String {
        let c = components(date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(String(repeating: "0", count: max(0, 4 - String(c.year).count)))\(c.year)-\(two(c.month))-\(two(c.day))"
    }

    /// "Jun 12"
    public func shortDate(_ date: Date) -> String {
        let c = components(date)
        return "\(Self.monthNames[c.month - 1].prefix(3)) \(c.day)"
    }

    /// "Friday"
    public func weekday(_ date: Date) -> String {
        Self.weekdayNames[components(date).weekday - 1]
    }

    /// "Jun 12 – 18, 2026", "Jun 28 – Jul 3, 2026"
    public func dateRange(_ start: Date, _ end: Date) -> String {
        let a = components(start), b = components(end)
        let startText = "\(Self.monthNames[a.month - 1].prefix(3)) \(a.day)"
        if a.year == b.year && a.month == b.month && a.day == b.day { return "\(startText), \(a.year)" }
        let endText = a.month == b.month && a.year == b.year ? "\(b.day)" : "\(Self.monthNames[b.month - 1].prefix(3)) \(b.day)"
        let yearText = a.year == b.year ? ", \(b.year)" : ", \(a.year) – \(endText), \(b.year)"
        return a.year == b.year ? "\(startText) – \(endText)\(yearText)" : "\(startText)\(yearText)"
    }

    /// "7:10 PM CDT" in `zone` (the site's zone by default).
    public func time(_ date: Date, in zone: TimeZone? = nil) -> String {
        let zone = zone ?? timeZone
        let c = components(date, in: zone)
        let hour12 = (c.hour + 11) % 12 + 1
        let suffix = c.hour < 12 ? "AM" : "PM"
        let minute = c.minute < 10 ? "0\(c.minute)" : "\(c.minute)"
        return "\(hour12):\(minute) \(suffix) \(abbreviation(zone, at: date))"
    }

    /// "June 1, 2026 at 7:00 AM CDT", both in `zone` (the site's zone by default).
    public func dateTime(_ date: Date, in zone: TimeZone? = nil) -> String {
        let c = components(date, in: zone)
        return "\(Self.monthNames[c.month - 1]) \(c.day), \(c.year) at \(time(date, in: zone))"
    }

    /// The zone's abbreviation at that instant ("CDT", "BST", "JST"): the tz database's
    /// (ZoneAbbreviations), else ICU's English short name (Foundation on Linux answers
    /// `abbreviation(for:)` with "GMT-5"); where neither has letters the offset is shown as
    /// "UTC−3".
    public func abbreviation(_ zone: TimeZone, at date: Date) -> String {
        let offset = ZoneOffsets.shared.offset(zone, at: date)
        if let name = ZoneAbbreviations.shared.abbreviation(zone.identifier, offset: offset.seconds, isDaylightSaving: offset.isDaylightSaving) {
            return name
        }
        let style: NSTimeZone.NameStyle = offset.isDaylightSaving ? .shortDaylightSaving : .shortStandard
        if let letters = Self.shortNames.name(zone, style), !letters.hasPrefix("GMT+"), !letters.hasPrefix("GMT-"),
           !letters.contains(" ") {
            return letters
        }
        let seconds = offset.seconds
        if seconds == 0 { return "UTC" }
        let sign = seconds < 0 ? "−" : "+"
        let hours = abs(seconds) / 3600, minutes = abs(seconds) % 3600 / 60
        return "UTC\(sign)\(hours)" + (minutes == 0 ? "" : ":\(minutes < 10 ? "0" : "")\(minutes)")
    }

    private static let shortNames = ZoneNames()

    /// ICU's English short zone names, looked up once per zone and style (each lookup
    /// loads locale data).
    private final class ZoneNames: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String: String?] = [:]
        private let english = Locale(identifier: "en_US")

        func name(_ zone: TimeZone, _ style: NSTimeZone.NameStyle) -> String? {
            let key = "\(zone.identifier) \(style == .shortDaylightSaving ? "daylight" : "standard")"
            if let known = lock.withLock({ names[key] }) { return known }
            let name = zone.localizedName(for: style, locale: english)
            lock.withLock { names[key] = name }
            return name
        }
    }

    /// "2026-06-01T12:00:00Z" (for datetime attributes and JSON).
    public static func iso8601(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = CivilDates.civilFromDays(days)
        return "\(padded(y, 4))-\(padded(m, 2))-\(padded(d, 2))T\(padded(secondOfDay / 3600, 2)):"
            + "\(padded(secondOfDay % 3600 / 60, 2)):\(padded(secondOfDay % 60, 2))Z"
    }

    /// `value` with leading zeros to `width` digits, like "%0*d" for non-negative values.
    package static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// One decimal place, as "%.1f" prints it (SVG coordinates, bar widths), without the
    /// cost of String(format:).
    public static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.1f", value) }
        let tenths = Int((value * 10).rounded(.toNearestOrEven))
        let sign = tenths < 0 ? "-" : (value.sign == .minus && tenths == 0 ? "-" : "")
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// "1,234"
    public static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }

    /// "1,234 mi". Whole miles are rounded down, as the distance groups of docs/rules.md are
    /// cut: a 499.99 mi trip is under "0-500 mi" and must not read "500 mi".
    public static func miles(meters: Double) -> String {
        "\(grouped(Int(milesValue(meters: meters).rounded(.down)))) mi"
    }

    /// Meters in miles, from whole millimetres: 144,840.96 m is 90 miles exactly, but
    /// divided as it is by 1609.344 (which a Double cannot hold exactly) it came out
    /// 89.99999999999999, and read "89 mi". Millimetres divided by 1,609,344 (both whole)
    /// give an exact quotient, or one at least 1/1,609,344 from the next whole mile.
    public static func milesValue(meters: Double) -> Double {
        (meters * 1000).rounded() / 1_609_344
    }

    /// "14 h 20 min", "45 min"
    public static func duration(seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }

    /// "1 game", "3 games"
    public static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural ?? singular + "s")"
    }

    /// "1st", "2nd", "3rd", "11th"
    public static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(value)\(suffix)"
    }
}

/// A name from an export as a diagnostic quotes it: in quotes, and cut to 60 characters
/// (`shortened`), so a 200-character trip name does not fill every warning about the trip.
package func quoted(_ name: String) -> String {
    "\"" + shortened(name, toAtMost: 60) + "\""
}

/// `text` cut to at most `limit` characters for a preview's metadata, which chat apps and
/// X cut anyway (X documents 200 characters for a description, 420 for an image's alt
/// text): at the last space of the kept part when there is one in its last fifth, ended
/// with "…", with every direction isolate it opened closed (BidiIsolation).
package func shortened(_ text: String, toAtMost limit: Int) -> String {
    guard text.count > limit, limit > 1 else { return text }
    var kept = text.prefix(limit - 1)
    if let space = kept.lastIndex(of: " "), kept.distance(from: space, to: kept.endIndex) <= limit / 5 {
        kept = kept[..<space]
    }
    while let last = kept.last, last == " " || last == "," || last == ";" || last == ":" || last == "→" { kept = kept.dropLast() }
    var open = 0
    for scalar in kept.unicodeScalars {
        switch scalar.value {
        case 0x2066...0x2068: open += 1
        case 0x2069: open = max(0, open - 1)
        default: break
        }
    }
    return String(kept) + "…" + String(repeating: "\u{2069}", count: open)
}

/// `text` ended as a sentence: with a full stop, unless it ends in one already, or in a
/// question or exclamation mark or "…" (in any script), looking past closing quotes and
/// brackets, spaces and direction isolates: "The standings of the poll מי בא לטקסס?", never
/// "…לטקסס?.".
package func sentence(_ text: String) -> String {
    for scalar in text.unicodeScalars.reversed() {
        switch scalar.value {
        case 0x2066...0x2069, 0x200E, 0x200F, 0x061C: continue
        case 0x22, 0x27, 0x29, 0x5D, 0x7D, 0x2019, 0x201D, 0xBB, 0x203A: continue      // " ' ) ] } ’ ” » ›
        case 0x2E, 0x3F, 0x21, 0x2026, 0x203C, 0x2047...0x2049, 0x061F, 0x06D4, 0x0589, 0x3002, 0xFF01, 0xFF0E, 0xFF1F, 0x0964, 0x0965:
            return text
        default:
            if scalar.properties.isWhitespace { continue }
            return text + "."
        }
    }
    return text + "."
}

/// "A", "A and B", "A, B and C"
/// `items` joined as `listJoined` joins them, the first `limit` named and the rest counted
/// ("A, B, C and 9,997 more"): a person seated in 10,000 vehicles made a 209,000-character
/// warning line.
package func listJoined(_ items: [String], atMost limit: Int) -> String {
    guard items.count > limit else { return listJoined(items) }
    return items.prefix(limit).joined(separator: ", ") + " and \(Formatting.grouped(items.count - limit)) more"
}

package func listJoined(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
