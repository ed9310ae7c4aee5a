import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenOutput
@testable import SitegenRender
import Testing

@Suite("The list of written files, and the sitemap streamed from it")
struct OutputListTests {
    static func file(_ number: Int) -> WrittenFile {
        WrittenFile(hash: ContentHash(of: Array("\(number)".utf8)), size: number, modified: 1_000_000_000_000 + number)
    }

    @Test("Entries added from many threads come back in byte order of their paths, with every field, spilled runs and extras merged")
    func sortedMerge() throws {
        let site = try TemporarySite()
        // A batch of 7 makes many runs on disk, plus a partial batch left in memory.
        let list = try OutputList(temporaryFolder: site.root, batchSize: 7)
        let paths = (0..<200).map { "polls/\(String(format: "%03d", ($0 * 37) % 200))/index.html" }
            + ["index.html", "Zeta/index.html", "é/index.html", "e\u{301}/index.html", "assets/site.css", "a", "a/b"]
        // Some one at a time, some in groups (a kept poll's files), which can fill several
        // batches at once; full batches are spilled while other threads add.
        let groups = stride(from: 0, to: paths.count, by: 9).map { $0..<min($0 + 9, paths.count) }
        DispatchQueue.concurrentPerform(iterations: groups.count) { group in
            if group.isMultiple(of: 2) {
                for index in groups[group] { list.add(paths[index], Self.file(index)) }
            } else {
                list.add(contentsOf: groups[group].map { (paths[$0], Self.file($0)) })
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path) == [], "the temporary file is unlinked at once")
        #expect(list.count == paths.count)

        let extra: [OutputList.Entry] = [("sitemap.xml", Self.file(900)), ("manifest.json", Self.file(901))]
        let expected = (paths.enumerated().map { ($0.element, Self.file($0.offset)) } + extra)
            .sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        for _ in 0..<2 {   // reading the list back does not consume it
            var seen: [OutputList.Entry] = []
            try list.forEachSorted(adding: extra) { seen.append(($0, $1)) }
            // Compared as bytes: String's == takes "é" and "e\u{301}" as equal.
            #expect(seen.map { Array($0.path.utf8) } == expected.map { Array($0.0.utf8) })
            #expect(seen.map(\.file) == expected.map(\.1))
        }
        let others = expected.map { Array($0.0.utf8) }.filter { !$0.starts(with: Array("polls/".utf8)) }
        #expect(others == ["Zeta/index.html", "a", "a/b", "assets/site.css", "e\u{301}/index.html", "index.html",
                           "manifest.json", "sitemap.xml", "é/index.html"].map { Array($0.utf8) })
    }

    @Test("An empty list yields only the extras")
    func empty() throws {
        let site = try TemporarySite()
        let list = try OutputList(temporaryFolder: site.root)
        var seen: [String] = []
        try list.forEachSorted { path, _ in seen.append(path) }
        #expect(seen == [])
        try list.forEachSorted(adding: [("manifest.json", Self.file(1))]) { path, _ in seen.append(path) }
        #expect(seen == ["manifest.json"])
    }

    /// Writes the sitemap of `pages` (file paths) into a staging folder; returns the files.
    func sitemap(_ pages: [String], maxURLs: Int, listPolls: Bool = true) throws -> [(String, String)] {
        let site = try TemporarySite()
        let folder = OutputFolder(output: site.root.appendingPathComponent("Output"))
        try folder.open()
        let list = try OutputList(temporaryFolder: site.root, batchSize: 3)
        for (index, page) in pages.enumerated() { list.add(page, Self.file(index)) }
        var outputs = try list.sorted()
        let count = pages.count { Sitemap.lists($0, listPolls: listPolls) }
        let written = try Sitemap.write(count: count, maxURLs: maxURLs, links: SiteLinks(style: .pretty, baseURL: URL(string: "https://example.org/trip/")),
                                        listPolls: listPolls, outputs: &outputs) { path, produce in try folder.writeStreamed(path, produce) }
        return try written.map { path, file in
            let text = try String(contentsOf: folder.staging.appendingPathComponent(path), encoding: .utf8)
            #expect(file.size == text.utf8.count)
            #expect(file.hash == ContentHash(of: Array(text.utf8)))
            return (path, text)
        }
    }

    static let pages = ["polls/B/index.html", "index.html", "assets/site.css", "polls/A/results.json", "polls/A/index.html",
                        "tips/index.html", "404.html", "a&b/index.html"]

    @Test("Up to the protocol's 50,000 URLs: one sitemap.xml of the listed pages in path order")
    func oneFile() throws {
        let files = try sitemap(Self.pages, maxURLs: 5)
        #expect(files.map(\.0) == ["sitemap.xml"])
        #expect(files[0].1 == """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.org/trip/a&amp;b/</loc></url>
          <url><loc>https://example.org/trip/</loc></url>
          <url><loc>https://example.org/trip/polls/A/</loc></url>
          <url><loc>https://example.org/trip/polls/B/</loc></url>
          <url><loc>https://example.org/trip/tips/</loc></url>
        </urlset>

        """)
        #expect(try sitemap(Self.pages, maxURLs: 5, listPolls: false)[0].1.contains("polls") == false)
    }

    @Test("More pages than one file may list: sitemap.xml is an index of sitemaps/1.xml, 2.xml, …")
    func index() throws {
        let files = try sitemap(Self.pages, maxURLs: 2)
        #expect(files.map(\.0) == ["sitemaps/1.xml", "sitemaps/2.xml", "sitemaps/3.xml", "sitemap.xml"])
        #expect(files[1].1 == """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.org/trip/polls/A/</loc></url>
          <url><loc>https://example.org/trip/polls/B/</loc></url>
        </urlset>

        """)
        #expect(files[2].1.components(separatedBy: "<url>").count == 2)
        #expect(files[3].1 == """
        <?xml version="1.0" encoding="UTF-8"?>
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>https://example.org/trip/sitemaps/1.xml</loc></sitemap>
          <sitemap><loc>https://example.org/trip/sitemaps/2.xml</loc></sitemap>
          <sitemap><loc>https://example.org/trip/sitemaps/3.xml</loc></sitemap>
        </sitemapindex>

        """)
        #expect(Sitemap.fileCount(pages: 5) == 1)
        #expect(Sitemap.fileCount(pages: 50_000) == 1)
        #expect(Sitemap.fileCount(pages: 50_001) == 3)
        #expect(Sitemap.fileCount(pages: nil) == 0)
    }
}
