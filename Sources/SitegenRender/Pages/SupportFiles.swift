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
                // Its stylesheet inside it: without baseURL, a site in a sub-folder, or opened
                // from disk, the link from the domain's root would find none. Linked as usual if
                // the sheet holds what would end the element early.
                if let sheet = site.assets.first(where: { $0.name == "site.css" }).map({ String(decoding: $0.bytes, as: UTF8.self) }),
                   sheet.range(of: "</style", options: .caseInsensitive) == nil {
                    meta.inlineStylesheet = sheet
                }
                return kit.page(NotFoundPageModel(), meta: meta)
            },
            PlannedFile(path: "robots.txt") { kit in
                var lines = ["User-agent: *"]
                // Unlisted polls are reachable only by their share-code URL. Rules are paths
                // from the host's root, so a site under a sub-path names its own folder.
                lines.append(kit.config.listPolls ? "Allow: /" : "Disallow: \(kit.links.pathFromHost("polls/"))")
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
