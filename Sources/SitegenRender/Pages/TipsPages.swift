import Foundation
import SitegenCore
import SitegenInput
import SitegenModel

/// The tips to show, decided once per build.
public struct PublishedTips: Sendable {
    public let catalog: TipCatalog
    public let featured: [Tip]
    /// The date the rotation was keyed on (shown on the page for daily rotation).
    public let date: Date
    public let rotation: SiteConfig.Rotation

    package init(catalog: TipCatalog, featured: [Tip], date: Date, rotation: SiteConfig.Rotation) {
        self.catalog = catalog
        self.featured = featured
        self.date = date
        self.rotation = rotation
    }
}

/// `/tips/`: the featured tips, then the whole catalog by category with a jump list.
package enum TipsPages {
    package static let path = "tips/"

    package static func file(_ tips: PublishedTips) -> PlannedFile {
        PlannedFile(path: SiteLinks.file(for: path)) { kit in
            let model = TipsPageModel(
                featuredHeading: tips.rotation == .daily
                    ? "Featured for \(Formatting(timeZone: .gmt).longDate(tips.date))" : "Featured tips",
                featured: tips.featured.map(tipItem),
                total: Formatting.count(tips.catalog.tips.count, "tip"),
                categories: TipCategory.allCases.compactMap { category in
                    let inCategory = tips.catalog.tips(in: category)
                    guard !inCategory.isEmpty else { return nil }
                    return TipsPageModel.Category(id: category.rawValue, title: category.title, icon: category.icon,
                                                  count: Formatting.count(inCategory.count, "tip"), tips: inCategory.map(tipItem))
                })
            let meta = PageMeta(path: path, title: "Planning tips", description: description(tips.catalog))
            return kit.page(model, meta: meta)
        }
    }

    /// The page's description names the topics the catalog has: a custom catalog of budget
    /// tips was announced as covering stadiums and game day too.
    package static func description(_ catalog: TipCatalog) -> String {
        let topics = TipCategory.allCases.filter { !catalog.tips(in: $0).isEmpty }.map(topic)
        let list = topics.count < 2 ? topics.joined() : topics.dropLast().joined(separator: ", ") + " and " + topics.last!
        return "\(Formatting.count(catalog.tips.count, "tip")) for planning a multi-city sports road trip" + (list.isEmpty ? "." : ": \(list).")
    }

    /// A category as a topic in that sentence ("Driving and routes" would read "…, driving
    /// and routes, stadiums and game day").
    private static func topic(_ category: TipCategory) -> String {
        switch category {
        case .scheduleTiming: return "schedules"
        case .drivingRoutes: return "driving"
        case .stadiums: return "stadiums"
        case .budget: return "budget"
        case .multiSport: return "multi-sport trips"
        case .regional: return "regions"
        case .gameDay: return "game day"
        }
    }

    package static func tipItem(_ tip: Tip) -> TipItem {
        TipItem(id: tip.id, icon: tip.icon, title: tip.title, subtitle: tip.subtitle, category: tip.category.title)
    }
}
