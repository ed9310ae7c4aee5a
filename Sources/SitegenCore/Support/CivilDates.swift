import Foundation

/// Calendar arithmetic on day numbers (days since 1970-01-01) without Foundation's
/// Calendar, which is slow on Linux: export dates are read with it and itinerary days
/// laid out with it.
package enum CivilDates {
    /// A wall-clock time in `timeZone`, as an instant. A time the clocks skip (2:30 AM as US
    /// clocks spring forward; midnight in Santiago or Havana, whose clocks jump from 0:00 to
    /// 1:00) is moved forward by the length of the jump, as java.time and the ICU calendar
    /// do: 3:30 AM CDT; 1:00 AM, so a trip starting that day still starts on it. A time that
    /// comes twice as clocks fall back is the first of the two (1:30 AM BST, not GMT), as
    /// java.time reads it, in every zone: settling the offset from the wall-clock time read
    /// as UTC found the second one in zones east of Greenwich.
    package static func instant(days: Int, secondsOfDay: Double, in timeZone: TimeZone) -> Date {
        let wallClock = Double(days * 86_400) + secondsOfDay
        func offset(_ instant: Double) -> Double {
            Double(ZoneOffsets.shared.seconds(timeZone, at: Date(timeIntervalSince1970: instant)))
        }
        // The offsets a day either side: clocks change at most once in between.
        let before = offset(wallClock - 86_400), after = offset(wallClock + 86_400)
        if before == after, offset(wallClock - before) == before { return Date(timeIntervalSince1970: wallClock - before) }
        // Each offset that gives back this wall-clock time is one of its instants; the one
        // with the larger offset comes first.
        let instants = [before, after].filter { offset(wallClock - $0) == $0 }.map { wallClock - $0 }
        if let first = instants.min() { return Date(timeIntervalSince1970: first) }
        // Neither offset gives back this wall-clock time: it is in a gap. Read with the offset
        // before the jump (the smaller one), it lands as far after the jump as it is after
        // the skipped hour's start.
        return Date(timeIntervalSince1970: wallClock - min(before, after))
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Year, month and day of a day number: the inverse of daysFromCivil.
    package static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
