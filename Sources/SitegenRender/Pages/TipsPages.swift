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
            let meta = PageMeta(path: path, title: "Planning tips",
                                description: "\(Formatting.count(tips.catalog.tips.count, "tip")) for planning a multi-city sports road trip: schedules, driving, stadiums, budget and game day.")
            return kit.page(model, meta: meta)
        }
    }

    package static func tipItem(_ tip: Tip) -> TipItem {
        TipItem(id: tip.id, icon: tip.icon, title: tip.title, subtitle: tip.subtitle, category: tip.category.title)
    }
}
