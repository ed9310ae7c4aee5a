import Foundation
import SitegenCore
import SitegenOutput

/// sitemap.xml (only with baseURL): the absolute URL of every page a search engine may
/// list, in path order. Unlisted polls are left out: they are reachable only by share code.
///
/// It is written last, from the sorted list of written files (OutputList), and streamed:
/// a site of 10,000 polls has over 130,000 pages. The sitemaps.org protocol allows 50,000
/// URLs per file, so a larger site gets sitemap.xml as a sitemap index pointing to
/// sitemaps/1.xml, sitemaps/2.xml, …, each within the protocol's limits.
package enum Sitemap {
    package static let path = "sitemap.xml"
    /// The protocol's limits for one file: 50,000 URLs and 50 MiB.
    package static let maxURLs = 50_000
    package static let maxBytes = 52_428_800

    /// Whether the output file at `path` is a page the sitemap lists.
    package static func lists(_ path: String, listPolls: Bool) -> Bool {
        (path == "index.html" || path.hasPathSuffix("/index.html")) && (listPolls || !path.hasPathPrefix("polls/"))
    }

    /// How many files the sitemap of `pages` listed pages takes (nil: no sitemap, without baseURL).
    package static func fileCount(pages: Int?) -> Int {
        guard let pages else { return 0 }
        return pages <= maxURLs ? 1 : (pages + maxURLs - 1) / maxURLs + 1
    }

    /// The files `write` writes for `pages` listed pages, when no file reaches the byte limit
    /// (which takes URLs of over a kilobyte).
    package static func paths(pages: Int, maxURLs: Int = maxURLs) -> [String] {
        guard pages > maxURLs else { return [path] }
        return (1...(pages + maxURLs - 1) / maxURLs).map { "sitemaps/\($0).xml" } + [path]
    }

    /// Writes the sitemap of the `count` listed pages among `outputs` (every written file, in
    /// path order) through `write` (OutputFolder.writeStreamed); returns the files written.
    package static func write(count: Int, maxURLs: Int = maxURLs, links: SiteLinks, listPolls: Bool, outputs: inout OutputList.SortedEntries,
                      write: (String, (inout StreamedFile) throws -> Void) throws -> WrittenFile) throws -> [OutputList.Entry] {
        // The next listed page's path ("polls/ABC/"), or nil.
        func nextPage() throws -> String? {
            while let (file, _) = try outputs.next() {
                if lists(file, listPolls: listPolls) { return String(file.dropLast("index.html".count)) }
            }
            return nil
        }
        let urlsetHead = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        let urlsetTail = Array("</urlset>\n".utf8)
        let tailRoom = urlsetTail.count
        var pending: String? = try nextPage()
        // One file never drops a page: beyond 50 MiB it would need URLs over 1 KB long.
        let byteLimit = count <= maxURLs ? Int.max : maxBytes
        // One urlset file: the pages from `pending` on, up to the protocol's limits.
        func urlset(_ file: inout StreamedFile) throws {
            file.bytes += urlsetHead
            var written = urlsetHead.count, urls = 0
            while let page = pending, urls < maxURLs {
                let entry = Self.element("url", links.absolute(page)!)
                if urls > 0 && written + entry.count + tailRoom > byteLimit { break }
                file.bytes += entry
                written += entry.count
                urls += 1
                try file.flushIfFull()
                pending = try nextPage()
            }
            file.bytes += urlsetTail
        }

        if count <= maxURLs {
            return [(path, try write(path, urlset))]
        }
        var files: [OutputList.Entry] = []
        while pending != nil {
            let part = "sitemaps/\(files.count + 1).xml"
            files.append((part, try write(part, urlset)))
        }
        let index = try write(path) { file in
            file.bytes += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8
            for (part, _) in files {
                file.bytes += Self.element("sitemap", links.absolute(part)!)
            }
            file.bytes += "</sitemapindex>\n".utf8
        }
        return files + [(path, index)]
    }

    /// `  <url><loc>…</loc></url>` and its line break, the URL escaped for XML.
    private static func element(_ name: String, _ url: String) -> [UInt8] {
        var line = Array("  <\(name)><loc>".utf8)
        HTMLEscaping.append(url, to: &line)
        line += "</loc></\(name)>\n".utf8
        return line
    }
}
