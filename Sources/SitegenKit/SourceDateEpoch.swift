import Foundation
import SitegenCore

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org): the build time, as whole seconds since 1970.
///
/// The specification asks for a decimal integer; anything else (`abc`, `0x10`, `1e9`, a
/// value past year 9999 that no page can print) is a usage error, exit 2, rather than
/// ignored or trapped on.
public enum SourceDateEpoch {
    public static let name = "SOURCE_DATE_EPOCH"
    /// 1970-01-01 to 9999-12-31T23:59:59Z, the years every date on a page can show.
    public static let range: ClosedRange<Int> = 0...253_402_300_799

    /// The build time it sets, or nil when it is not set. Set to nothing is not set:
    /// `SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)` outside a checkout gives that, and
    /// stopped the build.
    public static func read(_ environment: [String: String]) throws(BuildFailure) -> Date? {
        guard let raw = environment[name], !raw.isEmpty else { return nil }
        guard let seconds = seconds(raw) else {
            let shown = String(raw.prefix(40))   // control characters are escaped by Diagnostic
            throw .configuration([Diagnostic(.error, file: name, field: "", message:
                "expected whole seconds since 1970 from \(range.lowerBound) to \(range.upperBound) (year 9999), found \"\(shown)\"")])
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The seconds of a valid value: ASCII digits only, within `range`.
    public static func seconds(_ raw: String) -> Double? {
        guard !raw.isEmpty, raw.utf8.count <= 12, raw.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(raw), range.contains(value) else { return nil }
        return Double(value)
    }
}
