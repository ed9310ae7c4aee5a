import Foundation
import SitegenCore
import SitegenModel

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
