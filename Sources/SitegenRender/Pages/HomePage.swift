import Foundation
import SitegenCore
import SitegenModel

/// `/`: the site's title and description and what it holds (docs/pages.md, "Home").
package enum HomePage {
    package static func file(site: SiteModel) -> PlannedFile {
        PlannedFile(path: "index.html") { kit in
            let config = kit.config
            let description = config.description.map { MarkdownRenderer.plainText($0) } ?? "Trip polls and plans for \(config.title)."
            let morePages = MarkdownPages.outsideNavigation(site.pages)
            let model = HomePageModel(
                title: config.title,
                descriptionHTML: config.description.map(MarkdownRenderer.html),
                listPolls: config.listPolls && !site.polls.isEmpty,
                polls: config.listPolls ? site.polls.map { poll in
                    HomePageModel.Poll(title: poll.title, href: kit.href(poll.path, from: ""),
                                       trips: Formatting.count(poll.tripIds.count, "trip"),
                                       voters: Formatting.count(poll.voters, "voter"),
                                       updated: kit.format.longDate(poll.updatedAt), leaderLine: poll.leaderLine)
                } : [],
                hasItineraries: !site.itineraries.isEmpty,
                itineraries: ItineraryPages.sorted(site.itineraries).map { ItineraryPages.homeRow($0, kit: kit) },
                optionSets: OptionPages.homeSection(site: site, kit: kit),
                hasConvoys: !site.convoys.isEmpty,
                convoys: site.convoys.map { ConvoyPages.homeRow($0, kit: kit) },
                featuredTips: site.tips.featured.map(TipsPages.tipItem),
                tipsHref: kit.href(TipsPages.path, from: ""),
                tipCount: Formatting.count(site.tips.catalog.tips.count, "planning tip"),
                hasMorePages: !morePages.isEmpty,
                morePages: morePages.map { HomePageModel.MorePage(title: $0.frontMatter.title, href: kit.href($0.path, from: "")) })
            return kit.page(model, meta: PageMeta(path: "", title: config.title, description: description))
        }
    }
}
