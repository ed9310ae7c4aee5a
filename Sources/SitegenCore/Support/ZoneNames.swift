import Foundation

extension TimeZone {
    /// The zone an IANA name gives, as `TimeZone(identifier:)` does, except that "UTC" stays
    /// UTC: Foundation answers it with its "GMT" zone, and pages then read "4:59 AM GMT" on
    /// every site that leaves `timeZone` at its default. "Etc/UTC" is the tz database's zone
    /// of that name, abbreviated "UTC" as `date +%Z` prints it.
    package static func named(_ name: String) -> TimeZone? {
        TimeZone(identifier: name == "UTC" ? "Etc/UTC" : name)
    }
}
