import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Markdown pages: /SLUG/ from the pages folder (docs/site-config.md)")
struct MarkdownPagesTests {
    let source = InputFile(path: "Pages/x.md", sha256: "")

    func slugMessage(_ fileName: String) -> String? {
        do {
            _ = try MarkdownPages.page(fileName: fileName, text: "---\ntitle: T\n---\n", file: "Pages/\(fileName)", source: source)
            return nil
        } catch {
            return error.description
        }
    }

    func page(_ slug: String, _ title: String, menu: Int?) -> MarkdownPage {
        MarkdownPage(slug: slug, frontMatter: FrontMatter(title: title, menu: menu), markdown: "", source: source)
    }

    @Test("The file name is the address: lower-case letters, digits and hyphens, at most 63")
    func goodSlugs() throws {
        #expect(slugMessage("about.md") == nil)
        #expect(slugMessage("2026-rules.md") == nil)
        #expect(slugMessage(String(repeating: "a", count: 63) + ".md") == nil)
        let page = try MarkdownPages.page(fileName: "packing-list.md", text: "---\ntitle: Packing\n---\nBody\n",
                                          file: "Pages/packing-list.md", source: source)
        #expect(page.slug == "packing-list")
        #expect(page.path == "packing-list/")
        #expect(page.markdown == "Body\n")
    }

    @Test("A file name that cannot be an address is a positioned error with a suggestion")
    func badSlugs() {
        #expect(slugMessage("About Us.md")
            == "Pages/About Us.md:1:1: error: the file name \"About Us.md\" cannot be a page address: use 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit (for example about-us.md)")
        #expect(slugMessage("-draft.md")
            == "Pages/-draft.md:1:1: error: the file name \"-draft.md\" cannot be a page address: use 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit (for example draft.md)")
        #expect(slugMessage("über_uns.md")
            == "Pages/über_uns.md:1:1: error: the file name \"über_uns.md\" cannot be a page address: use 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit (for example uber-uns.md)")
        #expect(slugMessage(".md")
            == "Pages/.md:1:1: error: the file name \".md\" cannot be a page address: use 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit")
        #expect(slugMessage(String(repeating: "a", count: 64) + ".md")?.hasSuffix("starting with a letter or digit (for example \(String(repeating: "a", count: 63)).md)") == true)
    }

    @Test("A page cannot take an address the site itself uses")
    func reservedSlugs() {
        for name in ["polls", "trips", "options", "convoys", "tips", "assets"] {
            #expect(slugMessage("\(name).md")
                == "Pages/\(name).md:1:1: error: the page address /\(name)/ belongs to the site itself; rename the file (reserved: assets, convoys, options, polls, tips, trips)")
        }
        // The file-like names cannot be slugs at all, and are not suggested as one.
        #expect(slugMessage("Tips.md")?.hasSuffix("starting with a letter or digit") == true)
    }

    @Test("Navigation: Home, Tips, then pages with menu by menu, then title; pages without menu are left out")
    func navigationOrder() {
        let pages = [page("zebra", "Zebra", menu: 1), page("rules", "Rules", menu: 2), page("about", "About", menu: 1),
                     page("hidden", "Hidden", menu: nil), page("first", "First", menu: -5), page("about-2", "About", menu: 1)]
        #expect(MarkdownPages.navigation(pages).map(\.label) == ["First", "About", "About", "Zebra", "Rules"])
        #expect(MarkdownPages.navigation(pages).map(\.path) == ["first/", "about/", "about-2/", "zebra/", "rules/"])

        let config = try! SiteConfigLoader.parse("title: Trips\n", file: URL(fileURLWithPath: "/sites/trips/site.yml"))
        var site = SiteModel(config: config, tips: PublishedTips(catalog: TipCatalog(tips: []), featured: [], date: Date(), rotation: .daily))
        site.pages = pages
        #expect(SitePlan.navigation(pages: site.pages).map(\.label) == ["Home", "Tips", "First", "About", "About", "Zebra", "Rules"])
        #expect(SitePlan.files(for: site).map(\.path).filter { !$0.contains("/") || $0.hasPrefix("hidden/") || $0.hasPrefix("about/") }
            .sorted() == ["404.html", "about/index.html", "hidden/index.html", "index.html", "robots.txt"])
    }

    /// The golden site with `pages: Pages` and the given page files.
    func siteWithPages(_ files: [String: String]) throws -> TemporarySite {
        let site = try CommandLineTests().goldenSite()
        try site.write("site.yml", try site.read("site.yml") + "pages: Pages\n")
        for (name, text) in files { try site.write("Pages/" + name, text) }
        return site
    }

    @Test("A page is rendered into the layout, linked from the navigation (or the home page's \"More pages\"), listed in the sitemap and the manifest")
    func builtPage() throws {
        let site = try siteWithPages([
            "about.md": "---\ntitle: About <us>\ndescription: Who we are.\nmenu: 1\n---\nWe *plan* trips.\n\n<script>alert(1)</script>\n",
            "notes.md": "---\ntitle: Notes\n---\nSee [the tips](../tips/).\n",
            "README.txt": "not a page",
        ])
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        #expect(log.all.isEmpty)
        let about = try site.read("Output/about/index.html")
        #expect(about.contains("<title>About &lt;us&gt; · Golden Trips</title>"))
        #expect(about.contains("<meta name=\"description\" content=\"Who we are.\">"))
        #expect(about.contains("<link rel=\"canonical\" href=\"https://example.org/trips/about/\">"))
        #expect(about.contains("<h1 dir=\"auto\">About &lt;us&gt;</h1>"))
        #expect(about.contains("<p>We <em>plan</em> trips.</p>"))
        #expect(about.contains("<!-- raw HTML omitted -->"))
        #expect(!about.contains("<script>"))
        #expect(about.contains("<li><a href=\"../about/\" aria-current=\"page\">About &lt;us&gt;</a></li>"))
        // Without a description, the body's first words describe the page.
        let notes = try site.read("Output/notes/index.html")
        #expect(notes.contains("<meta name=\"description\" content=\"See the tips.\">"))
        #expect(!notes.contains(">Notes</a></li>"))
        let home = try site.read("Output/index.html")
        #expect(home.contains("<li><a href=\"about/\">About &lt;us&gt;</a></li>"))
        // A page outside the menu is listed on the home page, so that it can be reached.
        #expect(home.contains("<h2 id=\"more-pages-heading\">More pages</h2>\n  <ul>\n    <li><a href=\"notes/\">Notes</a></li>\n  </ul>"))
        let sitemap = try site.read("Output/sitemap.xml")
        #expect(sitemap.contains("<loc>https://example.org/trips/about/</loc>"))
        #expect(sitemap.contains("<loc>https://example.org/trips/notes/</loc>"))
        let manifest = try site.read("Output/manifest.json")
        #expect(manifest.contains("\"path\": \"Pages/about.md\""))
        #expect(manifest.contains("\"path\": \"about/index.html\""))
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output/README.txt").path))
    }

    @Test("A page's links and images that lead to no file of the site are warned about where they are written")
    func brokenLinks() throws {
        let site = try siteWithPages([
            "about.md": """
                ---
                title: About
                ---
                Fine: [tips](../tips/), [tips again](../tips), [a poll](../polls/X7K9M2/), ![style](../assets/site.css),
                [home](../), [top](#top), [mail](mailto:a@example.org), [web](https://example.com/x), [in site](/trips/tips/).

                Not: [tips](tips/), [old poll](../polls/ZZZZZZ/ "gone"), ![photo](../assets/photo.jpg)
                [up](../../x/) and [root](/tips/).
                """,
            "notes.md": "---\ntitle: Notes\n---\nSee [about](../about/) and [nothing](../nothing/) and [caps](../TIPS/).\n",
        ])
        #expect(try site.buildDiagnostics() == [
            "Pages/about.md:7:6: warning: link \"tips/\" leads to /about/tips/ of the site, which has no such page or file; \"../tips/\" leads to the site's /tips/",
            "Pages/about.md:7:21: warning: link \"../polls/ZZZZZZ/\" leads to /polls/ZZZZZZ/ of the site, which has no such page or file",
            "Pages/about.md:7:58: warning: image \"../assets/photo.jpg\" leads to /assets/photo.jpg of the site, which has no such page or file",
            "Pages/about.md:8:1: warning: link \"../../x/\" leads above the site's root folder",
            "Pages/about.md:8:20: warning: link \"/tips/\" leads outside the site, which baseURL puts at /trips/; \"../tips/\", relative to the page, leads to the site's /tips/",
            "Pages/notes.md:4:28: warning: link \"../nothing/\" leads to /nothing/ of the site, which has no such page or file",
            // Most hosts tell letter case apart.
            "Pages/notes.md:4:55: warning: link \"../TIPS/\" leads to /TIPS/ of the site, which has no such page or file",
        ])
    }

    @Test("Where a link in a page leads: folders, files, names without an extension, the root, above it, outside baseURL's path")
    func linkTargets() {
        #expect(LinkTarget.of("../tips/", from: "about/") == .files(["tips/index.html"]))
        #expect(LinkTarget.of("tips/", from: "about/") == .files(["about/tips/index.html"]))
        #expect(LinkTarget.of("../tips", from: "about/") == .files(["tips", "tips/index.html"]))
        #expect(LinkTarget.of("./../assets/site.css?v=2#x", from: "about/") == .files(["assets/site.css"]))
        #expect(LinkTarget.of("..", from: "about/") == .files(["index.html"]))
        #expect(LinkTarget.of("../", from: "about/") == .files(["index.html"]))
        #expect(LinkTarget.of("%2E%2E/caf%C3%A9/", from: "about/") == .files(["café/index.html"]))
        #expect(LinkTarget.of("../../", from: "about/") == .aboveRoot)
        #expect(LinkTarget.of("/polls/AB/", from: "about/") == .files(["polls/AB/index.html"]))
        #expect(LinkTarget.of("/trips/polls/AB/", from: "about/", basePath: "/trips/") == .files(["polls/AB/index.html"]))
        #expect(LinkTarget.of("/trips", from: "about/", basePath: "/trips/") == .files(["index.html"]))
        #expect(LinkTarget.of("/polls/AB/", from: "about/", basePath: "/trips/") == .outsideSite)
        for elsewhere in ["#top", "?q=1", "", "https://example.org/", "mailto:a@b.c", "//cdn.example/x.js", "HTTP://x"] {
            #expect(LinkTarget.of(elsewhere, from: "about/") == .elsewhere, "\(elsewhere)")
        }
    }

    @Test("Every bad page is reported in one run (exit 1), and nothing is written")
    func allProblemsAtOnce() throws {
        let site = try siteWithPages([
            "tips.md": "---\ntitle: Tips\n---\n",
            "about.md": "---\ntitle: About\nmenu: one\n---\n",
            "ok.md": "---\ntitle: Fine\n---\n",
        ])
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == """
        Pages/about.md:3:7: error: menu: expected a whole number such as 1 (pages are listed in the menu by it)
        Pages/tips.md:1:1: error: the page address /tips/ belongs to the site itself; rename the file (reserved: assets, convoys, options, polls, tips, trips)
        2 errors in the inputs; nothing was written.

        """)
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
    }

    @Test("Templates without assets/site.css, which every page links, are warned about")
    func missingStylesheet() throws {
        let site = try CommandLineTests().goldenSite()
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Templates/assets/site.css"))
        #expect(try site.buildDiagnostics() == [
            "Templates/assets/site.css: warning: the templates link every page to assets/site.css, which does not exist; the pages would show unstyled",
        ])
    }

    @Test("An input folder site.yml names that does not exist is a warning; an absent default folder is none of that kind, without a word")
    func missingInputFolder() throws {
        let site = try CommandLineTests().goldenSite()
        try site.write("site.yml", try site.read("site.yml") + "inputs:\n  polls: Data/pols\n  convoys: Data/convoys\n")
        #expect(try site.buildDiagnostics().filter { !$0.contains("no poll has id") } == [
            "Data/convoys: warning: inputs.convoys: site.yml names this folder, which does not exist; nothing is read from it",
            "Data/pols: warning: inputs.polls: site.yml names this folder, which does not exist; nothing is read from it",
        ])
    }

    @Test("A pages folder that does not exist means no pages, with a warning when site.yml names it; none set, none and no word")
    func missingFolder() throws {
        let log = DiagnosticLog()
        #expect(MarkdownPages.load(nil, siteFolder: URL(fileURLWithPath: "/nonexistent"), log: log).isEmpty)
        #expect(log.all.isEmpty)
        #expect(MarkdownPages.load(URL(fileURLWithPath: "/nonexistent/Pages"), siteFolder: URL(fileURLWithPath: "/nonexistent"), log: log).isEmpty)
        #expect(log.all.map(\.description) == ["/nonexistent/Pages: warning: pages: site.yml names this pages folder, which does not exist; no page is published from it"])
    }
}
