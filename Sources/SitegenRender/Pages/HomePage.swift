import Foundation
import SitegenCore
import SitegenModel
import SitegenOutput

/// `/`: the site's title and description and what it holds (docs/pages.md, "Home").
package enum HomePage {
    /// It lists every poll (2.9 MB at 10,000 polls, 14.5 MB at 50,000), so it is written as it
    /// renders (`stream`).
    package static func file(site: SiteModel) -> PlannedFile {
        var file = PlannedFile(path: "index.html") { kit in
            var buffer = ByteBuffer()
            try? write(site: site, kit: kit, to: &buffer)
            return buffer.bytes
        }
        file.stream = { kit, output in try write(site: site, kit: kit, to: &output) }
        return file
    }

    private static func write<Sink: ByteSink>(site: SiteModel, kit: RenderKit, to sink: inout Sink) throws {
        let config = kit.config
        let description = config.description.map { MarkdownRenderer.plainText($0) } ?? sentence("Trip polls and plans for \(config.title)")
        let morePages = MarkdownPages.outsideNavigation(site.pages)
        let model = HomePageModel(
            title: config.title,
            descriptionHTML: config.description.map { kit.markdown($0, below: 1) },
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
        try kit.page(model, meta: PageMeta(path: "", title: config.title, description: description), into: &sink)
    }
}
