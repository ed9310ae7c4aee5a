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

/// 404.html, robots.txt and the stylesheet folder (sitemap.xml is written last: Sitemap).
package enum SupportFiles {
    package static func files(site: SiteModel) -> [PlannedFile] {
        var files: [PlannedFile] = [
            PlannedFile(path: "404.html") { kit in
                var meta = PageMeta(path: "404.html", title: "Page not found", description: "This page does not exist.")
                meta.absoluteLinks = true
                meta.noindex = true
                return kit.page(NotFoundPageModel(), meta: meta)
            },
            PlannedFile(path: "robots.txt") { kit in
                var lines = ["User-agent: *"]
                // Unlisted polls are reachable only by their share-code URL.
                lines.append(kit.config.listPolls ? "Allow: /" : "Disallow: /polls/")
                if let sitemap = kit.links.absolute("sitemap.xml") { lines.append("Sitemap: \(sitemap)") }
                return Array((lines.joined(separator: "\n") + "\n").utf8)
            },
        ]
        for asset in site.assets {
            files.append(PlannedFile(path: "assets/" + asset.name) { _ in asset.bytes })
        }
        return files
    }
}

/// `404.mustache` has the layout's variables only.
package struct NotFoundPageModel: PageModel {
    package static let template = "404", kind = "the 404 page"

    package static let fields = TemplateFields<Self>([])
}
