import Foundation

/// Links that subscribe to a published calendar file instead of copying it once, so a
/// rescheduled game reaches friends' calendars at the next publish (docs/rules.md, "Handing trips to other apps"). Pure.
///
/// A subscription needs the file's absolute address, so these exist only with baseURL.
public struct CalendarSubscription: Sendable, Equatable {
    /// `webcal://HOST/…/calendar.ics`: calendar apps (Apple Calendar, Outlook) subscribe.
    public var webcal: String
    /// Google Calendar's "add by URL" page for the file; nil unless it is served over
    /// https, which Google Calendar requires to fetch a calendar.
    public var google: String?

    /// `fileURL`: the calendar file's absolute http(s) address.
    public init?(fileURL: String) {
        let isHTTPS = fileURL.lowercased().hasPrefix("https://")
        guard isHTTPS || fileURL.lowercased().hasPrefix("http://") else { return nil }
        webcal = "webcal://" + fileURL.drop(while: { $0 != ":" }).dropFirst("://".count)
        google = isHTTPS ? "https://calendar.google.com/calendar/r?cid=" + RouteHandoff.percentEncoded(webcal) : nil
    }
}
