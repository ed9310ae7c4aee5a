import Foundation
import SitegenCore

/// The ways a list of trips can be browsed (docs/rules.md, "Trip views"). The raw value is the URL segment.
public enum TripView: String, CaseIterable, Sendable {
    case recommended
    case mostCities = "most-cities"
    case mostGames = "most-games"
    case leastGames = "least-games"
    case mostMiles = "most-miles"
    case leastMiles = "least-miles"
    case bestEfficiency = "best-efficiency"

    /// The tab label.
    public var label: String {
        switch self {
        case .recommended: return "Recommended"
        case .mostCities: return "Most cities"
        case .mostGames: return "Most games"
        case .leastGames: return "Fewest games"
        case .mostMiles: return "Most miles"
        case .leastMiles: return "Fewest miles"
        case .bestEfficiency: return "Fewest miles per game"
        }
    }

    /// The card fact this view orders by, as a CSS class suffix ("none" for the flat order).
    public var keyFact: String {
        switch self {
        case .recommended: return "none"
        case .mostCities: return "cities"
        case .mostGames, .leastGames: return "games"
        case .mostMiles, .leastMiles: return "miles"
        case .bestEfficiency: return "efficiency"
        }
    }

    /// One sentence saying how the view orders the trips.
    public var summary: String {
        switch self {
        case .recommended: return "In the order the planner recommends them."
        case .mostCities: return "Trips visiting the most different cities first."
        case .mostGames: return "Trips with the most games first."
        case .leastGames: return "Trips with the fewest games first."
        case .mostMiles: return "The longest drives first, grouped by distance."
        case .leastMiles: return "The shortest drives first, grouped by distance."
        case .bestEfficiency: return "The fewest miles driven per game first; trips without games come last."
        }
    }

    /// The trips of `trips` in this view's order, split into its sections.
    /// Pure: no I/O, no formatting beyond the section titles. Ties keep input order.
    public func groups(of trips: [Trip]) -> [TripGroup] {
        guard !trips.isEmpty else { return [] }
        switch self {
        case .recommended:
            return [TripGroup(title: nil, anchor: nil, positions: Array(trips.indices))]
        case .mostCities:
            return Self.sections(trips.map { $0.distinctCities.count }, descending: true,
                                 section: { $0 }, title: { Formatting.count($0, "city", "cities") }, anchor: { "cities-\($0)" })
        case .mostGames, .leastGames:
            return Self.sections(trips.map(\.totalGames), descending: self == .mostGames,
                                 section: { $0 }, title: { Formatting.count($0, "game") }, anchor: { "games-\($0)" })
        case .mostMiles, .leastMiles:
            return Self.sections(trips.map(\.miles), descending: self == .mostMiles,
                                 section: MileageBucket.init(miles:), title: \.title, anchor: \.anchor)
        case .bestEfficiency:
            let withGames = trips.indices.filter { trips[$0].milesPerGame != nil }
            let withoutGames = trips.indices.filter { trips[$0].milesPerGame == nil }
            let ordered = stableSorted(withGames) { trips[$0].milesPerGame! < trips[$1].milesPerGame! }
            return [TripGroup(title: nil, anchor: nil, positions: ordered + withoutGames)]
        }
    }

    /// Orders positions by `keys` (stable), then cuts the order into consecutive sections.
    /// Each section value must be monotonic in the key, so equal sections are adjacent.
    package static func sections<Key: Comparable, Section: Equatable>(
        _ keys: [Key], descending: Bool,
        section: (Key) -> Section, title: (Section) -> String, anchor: (Section) -> String
    ) -> [TripGroup] {
        let ordered = stableSorted(Array(keys.indices)) { descending ? keys[$0] > keys[$1] : keys[$0] < keys[$1] }
        var groups: [TripGroup] = []
        var current: (section: Section, positions: [Int])?
        for position in ordered {
            let value = section(keys[position])
            if let open = current, open.section == value {
                current!.positions.append(position)
            } else {
                if let open = current {
                    groups.append(TripGroup(title: title(open.section), anchor: anchor(open.section), positions: open.positions))
                }
                current = (value, [position])
            }
        }
        if let open = current {
            groups.append(TripGroup(title: title(open.section), anchor: anchor(open.section), positions: open.positions))
        }
        return groups
    }
}

/// One section of a view: its header and the trips under it, as positions in the input list.
public struct TripGroup: Sendable, Equatable {
    /// The section header ("12 cities", "2000+ mi"); nil in views without sections.
    public let title: String?
    /// A fragment id for the section, unique within its view ("games-8", "miles-2000-plus").
    public let anchor: String?
    /// Positions in the input list (0-based), in display order.
    public let positions: [Int]
}

/// The distance ranges of docs/rules.md, "Trip views". Each includes its lower bound: 500 mi is "500-1000 mi".
public enum MileageBucket: Int, CaseIterable, Sendable, Comparable {
    case under500, from500, from1000, from1500, from2000

    public init(miles: Double) {
        switch miles {
        case 2000...: self = .from2000
        case 1500...: self = .from1500
        case 1000...: self = .from1000
        case 500...: self = .from500
        default: self = .under500
        }
    }

    public var title: String {
        switch self {
        case .under500: return "0-500 mi"
        case .from500: return "500-1000 mi"
        case .from1000: return "1000-1500 mi"
        case .from1500: return "1500-2000 mi"
        case .from2000: return "2000+ mi"
        }
    }

    public var anchor: String {
        switch self {
        case .under500: return "miles-0-500"
        case .from500: return "miles-500-1000"
        case .from1000: return "miles-1000-1500"
        case .from1500: return "miles-1500-2000"
        case .from2000: return "miles-2000-plus"
        }
    }

    public static func < (a: MileageBucket, b: MileageBucket) -> Bool { a.rawValue < b.rawValue }
}

extension Trip {
    /// Miles driven per game; nil for a trip without games (it has no such ratio).
    public var milesPerGame: Double? {
        totalGames > 0 ? miles / Double(totalGames) : nil
    }
}

/// `positions` sorted by `areInIncreasingOrder`, equal elements keeping their input order
/// (made explicit rather than relying on the standard library's sort being stable).
package func stableSorted(_ positions: [Int], by areInIncreasingOrder: (Int, Int) -> Bool) -> [Int] {
    positions.enumerated().sorted { a, b in
        if areInIncreasingOrder(a.element, b.element) { return true }
        if areInIncreasingOrder(b.element, a.element) { return false }
        return a.offset < b.offset
    }.map(\.element)
}
