import Foundation

/// `TimeZone.secondsFromGMT(for:)` and `isDaylightSavingTime(for:)` go through ICU under a
/// lock; a large build asks them hundreds of thousands of times about the same zones and
/// days (they were a tenth of reading a 10,000-poll site). Answers are cached per zone and
/// UTC day, for days whose offset is the same at their first and last second; a day with a
/// transition is always asked of ICU.
package final class ZoneOffsets: @unchecked Sendable {
    package static let shared = ZoneOffsets()

    package struct Offset: Equatable {
        package let seconds: Int
        package let isDaylightSaving: Bool
    }

    private struct Key: Hashable {
        let zone: String
        let day: Int
    }

    private let lock = NSLock()
    private var days: [Key: Offset] = [:]

    package func offset(_ zone: TimeZone, at date: Date) -> Offset {
        let time = date.timeIntervalSince1970
        guard time.isFinite, abs(time) < 1e13 else { return Self.ask(zone, date) }
        let day = Int((time / 86_400).rounded(.down))
        let key = Key(zone: zone.identifier, day: day)
        if let known = lock.withLock({ days[key] }) { return known }
        let first = Self.ask(zone, Date(timeIntervalSince1970: Double(day) * 86_400))
        let last = Self.ask(zone, Date(timeIntervalSince1970: Double(day) * 86_400 + 86_399))
        guard first == last else { return Self.ask(zone, date) }
        lock.withLock { days[key] = first }
        return first
    }

    package func seconds(_ zone: TimeZone, at date: Date) -> Int { offset(zone, at: date).seconds }

    private static func ask(_ zone: TimeZone, _ date: Date) -> Offset {
        Offset(seconds: zone.secondsFromGMT(for: date), isDaylightSaving: zone.isDaylightSavingTime(for: date))
    }
}
