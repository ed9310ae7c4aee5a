import Foundation
import SitegenCore
import SitegenModel

/// `/`: the site's title and description and what it holds (docs/pages.md, "Home").
enum HomePage {
    static let templates = ["home"]

    static func file(site: SiteModel) -> PlannedFile {
        PlannedFile(path: "index.html") { kit in
            let config = kit.config
            let description = config.description.map { MarkdownRenderer.plainText($0) } ?? "Trip polls and plans for \(config.title)."
            var context: [String: Any] = [
                "title": config.title,
                "polls": config.listPolls ? site.polls.map { poll in
                    [
                        "title": poll.title,
                        "href": kit.href(poll.path, from: ""),
                        "trips": Formatting.count(poll.tripIds.count, "trip"),
                        "voters": Formatting.count(poll.voters, "voter"),
                        "updated": kit.format.longDate(poll.updatedAt),
                        "leaderLine": poll.leaderLine,
                    ] as [String: Any]
                } : [],
                "listPolls": config.listPolls && !site.polls.isEmpty,
                "itineraries": ItineraryPages.sorted(site.itineraries).map { ItineraryPages.homeRow($0, kit: kit) },
                "hasItineraries": !site.itineraries.isEmpty,
                "convoys": site.convoys.map { ConvoyPages.homeRow($0, kit: kit) },
                "hasConvoys": !site.convoys.isEmpty,
            ]
            if let markdown = config.description { context["descriptionHTML"] = MarkdownRenderer.html(markdown) }
            context["optionSets"] = OptionPages.homeSection(site: site, kit: kit)
            let morePages = MarkdownPages.outsideNavigation(site.pages)
            context["morePages"] = morePages.map { page in ["title": page.frontMatter.title, "href": kit.href(page.path, from: "")] }
            context["hasMorePages"] = !morePages.isEmpty
            context["featuredTips"] = site.tips.featured.map(TipsPages.tipContext)
            context["tipsHref"] = kit.href(TipsPages.path, from: "")
            context["tipCount"] = Formatting.count(site.tips.catalog.tips.count, "planning tip")
            return kit.page("home", meta: PageMeta(path: "", title: config.title, description: description), context: context)
        }
    }
}

/// 404.html, robots.txt and the stylesheet folder (sitemap.xml is written last: Sitemap).
enum SupportFiles {
    static let templates = ["404"]

    static func files(site: SiteModel) -> [PlannedFile] {
        var files: [PlannedFile] = [
            PlannedFile(path: "404.html") { kit in
                var meta = PageMeta(path: "404.html", title: "Page not found", description: "This page does not exist.")
                meta.absoluteLinks = true
                meta.noindex = true
                return kit.page("404", meta: meta, context: [:])
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
