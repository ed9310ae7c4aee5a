import Foundation
import SitegenCore

/// How numbers in date fields are read (site.yml `numericDates`).
public enum NumericDates: String, Sendable, CaseIterable {
    /// Seconds since 2001-01-01T00:00:00Z, Swift's default JSONEncoder output.
    case reference
    /// Seconds since 1970-01-01T00:00:00Z.
    case unix
}

/// Reads every date encoding the app produces: ISO 8601 (with or without fractional
/// seconds, `Z` or an offset, or no zone = the site's zone), date-only strings (midnight
/// in the site's zone) and numbers. Hand-written because ISO8601DateFormatter is slow and
/// varies between platforms; the rules here are small and fully tested.
public struct ExportDateReader: Sendable {
    public let timeZone: TimeZone
    public let numericDates: NumericDates

    public init(timeZone: TimeZone, numericDates: NumericDates) {
        self.timeZone = timeZone
        self.numericDates = numericDates
    }

    /// Seconds since 1970 of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: dates beyond
    /// them are corrupt, and no calendar arithmetic should meet them.
    package static let representable = -62_135_596_800.0...253_402_300_799.0

    public func date(_ field: JSONField) throws(FieldError) -> Date {
        switch field.node.value {
        case .number(let seconds):
            let date = numericDates.date(seconds)
            guard Self.representable.contains(date.timeIntervalSince1970) else {
                throw field.error("\(ExportDecoder.describe(seconds)) seconds since \(numericDates == .reference ? "2001" : "1970") is outside the years 1 to 9999")
            }
            return date
        case .string(let text):
            if let date = parse(text) {
                // "9999-12-31T23:00:00-05:00" is 10000-01-01 in UTC, which calendars cannot hold.
                guard Self.representable.contains(date.timeIntervalSince1970) else {
                    throw field.error("\(field.describeValue()) is outside the years 1 to 9999 in UTC")
                }
                return date
            }
            throw field.error("expected a date such as \"2026-06-12T19:05:00Z\", \"2026-06-12\" or a number of seconds, found \(field.describeValue())")
        default:
            throw field.error("expected a date (a string or a number), found \(field.node.kindDescription)")
        }
    }

    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]`.
    public func parse(_ text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), year >= 1, scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), (1...CivilDates.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = CivilDates.daysFromCivil(year: year, month: month, day: day)
        if scanner.atEnd {
            return CivilDates.instant(days: days, secondsOfDay: 0, in: timeZone)
        }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if scanner.skip(":") {
            guard let s = scanner.number(digits: 2), s < 61 else { return nil }
            second = s
            if scanner.skip(".") || scanner.skip(",") {
                guard let (value, count) = scanner.digitRun(), count > 0 else { return nil }
                fraction = Double(value) / pow(10, Double(count))
            }
        }
        let secondsOfDay = Double(hour * 3600 + minute * 60 + second) + fraction
        if scanner.atEnd {
            return CivilDates.instant(days: days, secondsOfDay: secondsOfDay, in: timeZone)
        }
        var offsetSeconds = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetSeconds = 0
        } else {
            let sign: Int
            if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
            guard let offsetHours = scanner.number(digits: 2) else { return nil }
            _ = scanner.skip(":")
            guard let offsetMinutes = scanner.number(digits: 2), offsetHours < 24, offsetMinutes < 60 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.atEnd else { return nil }
        let unix = Double(days * 86_400 - offsetSeconds) + secondsOfDay
        return Date(timeIntervalSince1970: unix)
    }

}

private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// Up to 9 significant fraction digits (more are read but ignored).
    mutating func digitRun() -> (Int, Int)? {
        var value = 0
        var count = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if count < 9 {
                value = value * 10 + Int(bytes[index] - 48)
                count += 1
            }
            index += 1
        }
        return (value, count)
    }
}
