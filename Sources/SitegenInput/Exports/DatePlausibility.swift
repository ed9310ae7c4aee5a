import Foundation
import SitegenCore

/// Numbers in date fields are ambiguous: seconds since 2001 (Swift's JSONEncoder default)
/// or since 1970. Read with the wrong epoch they land 31 years off — Unix seconds of 2026
/// read as reference-date seconds give 2057 — and nothing else would notice. This collects
/// the years of the dates read and warns, once per file, about numeric dates decades away
/// from the site's other dates that would fit them under the other epoch.
///
/// Memory is bounded by files × distinct years, however many dates are read.
package final class DatePlausibility: @unchecked Sendable {
    package let numericDates: NumericDates
    private let lock = NSLock()
    /// Years of dates that can be read only one way (ISO strings, CloudKit timestamps).
    private var unambiguousYears: [Int: Int] = [:]
    private var numericByFile: [String: [Int: Example]] = [:]

    /// The first numeric date of one year in one file (by position), and how many there are.
    package struct Example: Sendable {
        package var count: Int
        package var value: Double
        /// The JSON path of the first, as shown.
        package var field: String
        package var source: SourceRef

        package init(count: Int, value: Double, field: String, source: SourceRef) {
            self.count = count
            self.value = value
            self.field = field
            self.source = source
        }
    }

    /// What one or more files contributed: a poll file's share is kept by the build state
    /// so that a rebuild that does not read the file again still counts its dates.
    package struct Share: Sendable {
        package var years: [Int: Int] = [:]
        /// By file, then year.
        package var numeric: [String: [Int: Example]] = [:]

        package init(years: [Int: Int] = [:], numeric: [String: [Int: Example]] = [:]) {
            self.years = years
            self.numeric = numeric
        }
    }

    /// Everything collected so far.
    package var share: Share {
        lock.withLock { Share(years: unambiguousYears, numeric: numericByFile) }
    }

    /// Counts another collector's dates (one file's, read by its own collector) as if read here.
    package func add(_ share: Share) {
        lock.withLock {
            unambiguousYears.merge(share.years, uniquingKeysWith: +)
            for (file, years) in share.numeric {
                for (year, example) in years {
                    if var mine = numericByFile[file]?[year] {
                        mine.count += example.count
                        if example.source.orderPosition < mine.source.orderPosition {
                            (mine.value, mine.field, mine.source) = (example.value, example.field, example.source)
                        }
                        numericByFile[file]![year] = mine
                    } else {
                        numericByFile[file, default: [:]][year] = example
                    }
                }
            }
        }
    }

    /// Years the app's exports can have when no other date says otherwise.
    package static let fallbackYears = 2001...2050
    /// How far from the other dates' median year a date may be and still fit.
    package static let fittingYears = 15
    /// How far from it a date must be to be suspected.
    package static let suspectYears = 20

    package init(numericDates: NumericDates) {
        self.numericDates = numericDates
    }

    package func unambiguous(_ date: Date) {
        let year = Self.year(date)
        lock.withLock { unambiguousYears[year, default: 0] += 1 }
    }

    package func numeric(_ value: Double, read date: Date, path: JSONPath, source: SourceRef?) {
        guard let source else { return }
        let year = Self.year(date)
        lock.withLock {
            if var example = numericByFile[source.file]?[year] {
                example.count += 1
                if source.orderPosition < example.source.orderPosition {
                    (example.value, example.field, example.source) = (value, path.description, source)
                }
                numericByFile[source.file]![year] = example
            } else {
                numericByFile[source.file, default: [:]][year] = Example(count: 1, value: value, field: path.description, source: source)
            }
        }
    }

    package func report(to log: DiagnosticLog) {
        let (anchor, files) = lock.withLock { (Self.median(unambiguousYears), numericByFile) }
        func fits(_ year: Int) -> Bool {
            guard let anchor else { return Self.fallbackYears.contains(year) }
            return abs(year - anchor) <= Self.fittingYears
        }
        func suspect(_ year: Int) -> Bool {
            guard let anchor else { return !Self.fallbackYears.contains(year) }
            return abs(year - anchor) >= Self.suspectYears
        }
        let other: NumericDates = numericDates == .reference ? .unix : .reference
        for years in files.values {
            let suspects = years.filter { year, example in
                suspect(year) && fits(Self.year(other.date(example.value)))
            }.values
            guard let first = suspects.min(by: { $0.source.orderPosition < $1.source.orderPosition }) else { continue }
            let count = suspects.reduce(0) { $0 + $1.count }
            let shown = Formatting.iso8601(numericDates.date(first.value)).prefix(10)
            let otherShown = Formatting.iso8601(other.date(first.value)).prefix(10)
            let context = anchor == nil ? "" : ", decades from the site's other dates,"
            let times = count > 1 ? " (\(Formatting.count(count, "such date")) in this file)" : ""
            log.add(first.source.diagnostic(.warning, field: first.field,
                "\(ExportDecoder.describe(first.value)) reads as \(shown) under numericDates: \(numericDates.rawValue)\(context) "
                + "but as \(otherShown) under numericDates: \(other.rawValue); if that is what the app wrote, "
                + "set numericDates: \(other.rawValue) in site.yml\(times)",
                summary: "numeric dates that fit numericDates: \(other.rawValue) better (see site.yml)"))
        }
    }

    package static func year(_ date: Date) -> Int {
        CivilDates.civilFromDays(Int((date.timeIntervalSince1970 / 86_400).rounded(.down))).0
    }

    package static func median(_ counts: [Int: Int]) -> Int? {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        var seen = 0
        for year in counts.keys.sorted() {
            seen += counts[year]!
            if seen * 2 >= total { return year }
        }
        return nil
    }
}

extension NumericDates {
    package func date(_ seconds: Double) -> Date {
        switch self {
        case .reference: return Date(timeIntervalSinceReferenceDate: seconds)
        case .unix: return Date(timeIntervalSince1970: seconds)
        }
    }
}
