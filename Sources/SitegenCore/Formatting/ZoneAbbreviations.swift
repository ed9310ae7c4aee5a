import Foundation

/// Time zone abbreviations as the tz database writes them ("BST", "JST", "CEST", "NDT"):
/// the names `date +%Z` prints, from the system's zoneinfo files (Debian's tzdata).
///
/// Foundation on Linux computes offsets with its own ICU and names zones from CLDR's
/// English data, which has letters for North American zones only: London in summer is
/// "GMT+1" there, Tokyo "GMT+9". The tz database has the abbreviation people use for most
/// zones. Each zone file ends with a POSIX TZ string ("GMT0BST,M3.5.0/1,M10.5.0") naming its
/// standard and daylight abbreviations and offsets for the present rules; a name is taken
/// only when its offset is the one Foundation computed for the instant, so past rules, a
/// tzdata older or newer than Foundation's, or a missing file fall back to the caller's
/// default. Names the tz database writes as numbers ("<-03>") are not abbreviations.
package final class ZoneAbbreviations: @unchecked Sendable {
    package static let shared = ZoneAbbreviations(folder: ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo")

    /// One zone's present names and their offsets east of UTC, in seconds.
    struct Names: Equatable {
        var standard: (name: String, offset: Int)
        var daylight: (name: String, offset: Int)?

        static func == (a: Names, b: Names) -> Bool {
            a.standard == b.standard && a.daylight?.name == b.daylight?.name && a.daylight?.offset == b.daylight?.offset
        }
    }

    private let folder: String
    private let lock = NSLock()
    private var zones: [String: Names?] = [:]

    package init(folder: String) {
        self.folder = folder
    }

    /// The abbreviation of zone `identifier` when its offset is `offset` seconds east of UTC
    /// (daylight saving time or not, as Foundation says); nil when the tz database has no
    /// letters for it.
    package func abbreviation(_ identifier: String, offset: Int, isDaylightSaving: Bool) -> String? {
        guard let names = names(identifier) else { return nil }
        var matching = [names.standard] + (names.daylight.map { [$0] } ?? [])
        matching = matching.filter { $0.offset == offset }
        // Both at one offset happens in no zone today; the daylight flag then decides.
        let chosen = matching.count > 1 ? (isDaylightSaving ? matching[1] : matching[0]) : matching.first
        guard let name = chosen?.name, name.utf8.allSatisfy(Self.isLetter) else { return nil }
        return name
    }

    /// The version of the tz database ("2025b"), for the build fingerprint: a new one may
    /// name a zone differently. nil without one.
    package var version: String? {
        guard let handle = FileHandle(forReadingAtPath: folder + "/tzdata.zi") else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64), let line = String(decoding: head, as: UTF8.self).split(separator: "\n").first,
              line.hasPrefix("# version ") else { return nil }
        return String(line.dropFirst("# version ".count))
    }

    private func names(_ identifier: String) -> Names? {
        if let known = lock.withLock({ zones[identifier] }) { return known }
        let names = Self.isZoneName(identifier) ? Self.footer(ofFile: folder + "/" + identifier).flatMap(Self.parse) : nil
        lock.withLock { zones[identifier] = names }
        return names
    }

    /// An IANA name ("America/Argentina/Buenos_Aires", "Etc/GMT+5"): never a path that could
    /// leave the zoneinfo folder.
    static func isZoneName(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.utf8.count <= 64
            && identifier.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
                !part.isEmpty && part != "." && part != ".."
                    && part.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2B }
            }
    }

    /// The TZ string a version 2 or later zone file ends with, between its last two newlines.
    static func footer(ofFile path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20,
              data.starts(with: Array("TZif".utf8)) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.last == 0x0A, let start = bytes.dropLast().lastIndex(of: 0x0A) else { return nil }
        return String(decoding: bytes[(start + 1)..<(bytes.count - 1)], as: UTF8.self)
    }

    /// The names and offsets of a POSIX TZ string: `std offset [dst [offset] [,rule]]`, where
    /// a name is letters or `<…>` and an offset is hours west of UTC (`-9` is UTC+9).
    static func parse(_ tz: String) -> Names? {
        var rest = Substring(tz)
        guard let standard = name(&rest), let standardWest = offset(&rest) else { return nil }
        var names = Names(standard: (standard, -standardWest), daylight: nil)
        if let daylight = name(&rest) {
            // Without an offset of its own, daylight time is an hour ahead of standard time.
            let west = offset(&rest) ?? standardWest - 3600
            names.daylight = (daylight, -west)
        }
        return names
    }

    private static func name(_ text: inout Substring) -> String? {
        if text.first == "<" {
            guard let end = text.firstIndex(of: ">") else { return nil }
            let name = String(text[text.index(after: text.startIndex)..<end])
            text = text[text.index(after: end)...]
            return name
        }
        let letters = text.prefix { $0.isASCII && $0.isLetter }
        guard letters.count >= 3 else { return nil }
        text = text.dropFirst(letters.count)
        return String(letters)
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    private static func offset(_ text: inout Substring) -> Int? {
        var sign = 1
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            text = text.dropFirst()
        }
        var seconds = 0
        for (index, unit) in [3600, 60, 1].enumerated() {
            if index > 0 {
                guard text.first == ":" else { break }
                text = text.dropFirst()
            }
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3, let value = Int(digits) else { return index == 0 ? nil : seconds * sign }
            seconds += value * unit
            text = text.dropFirst(digits.count)
        }
        return seconds * sign
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
