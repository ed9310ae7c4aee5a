import Foundation

/// The seven categories of docs/rules.md, "Tips", in the order the tips page shows them.
public enum TipCategory: String, Sendable, CaseIterable {
    case scheduleTiming = "schedule-timing"
    case drivingRoutes = "driving-routes"
    case stadiums
    case budget
    case multiSport = "multi-sport"
    case regional
    case gameDay = "game-day"

    public var title: String {
        switch self {
        case .scheduleTiming: return "Schedule timing"
        case .drivingRoutes: return "Driving and routes"
        case .stadiums: return "Stadiums"
        case .budget: return "Budget"
        case .multiSport: return "Multi-sport strategy"
        case .regional: return "Regional"
        case .gameDay: return "Game day"
        }
    }

    /// Emoji stand in for the app's SF Symbols, which browsers do not have; every tip and
    /// category uses one, always marked decorative next to its text.
    public var icon: String {
        switch self {
        case .scheduleTiming: return "🗓️"
        case .drivingRoutes: return "🚗"
        case .stadiums: return "🏟️"
        case .budget: return "💵"
        case .multiSport: return "🏅"
        case .regional: return "🗺️"
        case .gameDay: return "🎟️"
        }
    }
}

public struct Tip: Sendable, Equatable {
    public var id: String
    public var category: TipCategory
    public var icon: String
    public var title: String
    public var subtitle: String

    package init(id: String, category: TipCategory, icon: String, title: String, subtitle: String) {
        self.id = id
        self.category = category
        self.icon = icon
        self.title = title
        self.subtitle = subtitle
    }
}

/// The planning tips: the built-in catalog (Resources/tips.json, compiled into the binary)
/// or a site's replacement (`tips.file`), validated with positioned errors.
public struct TipCatalog: Sendable, Equatable {
    public let tips: [Tip]

    package init(tips: [Tip]) {
        self.tips = tips
    }

    public static let maxTips = 10_000

    /// "Expect day games on getaway days" → "expect-day-games-on-getaway-days"
    package static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(60))
    }

    public func tips(in category: TipCategory) -> [Tip] {
        tips.filter { $0.category == category }
    }
}
