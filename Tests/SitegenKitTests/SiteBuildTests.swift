import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenRender
import Testing

@Suite("Building a whole site")
struct SiteBuildTests {
    static let golden = Repository.fixtures.appendingPathComponent("golden")

    /// Builds the golden site into a temporary folder and returns the output tree.
    func buildGolden(environment: [String: String] = [:]) throws -> (TemporarySite, [String: Data]) {
        let site = try TemporarySite()
        try site.copy(from: Self.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.environment = environment
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: options, log: log).run()
        #expect(log.all.isEmpty)
        return (site, try fileTree(site.root.appendingPathComponent("Output")))
    }

    @Test("The golden site's output matches the expected tree exactly: no missing, unexpected or different file")
    func goldenTree() throws {
        let (_, actual) = try buildGolden()
        try expectGolden(actual, in: Self.golden.appendingPathComponent("expected"))
    }

    @Test("Two builds of the same input are byte-identical")
    func deterministic() throws {
        let (_, first) = try buildGolden()
        let (_, second) = try buildGolden()
        #expect(first == second)
    }

    @Test("SOURCE_DATE_EPOCH sets the build time; otherwise the newest input date (here a poll's modifiedAt) does")
    func buildTime() throws {
        let (_, fromInputs) = try buildGolden()
        let manifest = String(decoding: fromInputs["manifest.json"]!, as: UTF8.self)
        #expect(manifest.contains("\"buildTime\": \"2026-05-09T06:13:20Z\""))
        let (_, fromEpoch) = try buildGolden(environment: ["SOURCE_DATE_EPOCH": "1781291100"])
        #expect(String(decoding: fromEpoch["manifest.json"]!, as: UTF8.self).contains("\"buildTime\": \"2026-06-12T19:05:00Z\""))
    }

    @Test("A site of itineraries and games alone takes the newest date they plan as its build time, not 2001-01-01")
    func buildTimeOfItinerariesAlone() throws {
        let site = try TemporarySite()
        try site.copy(from: Self.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        // No poll, ballot or item: nothing that records when it was made.
        for file in ["Data/polls/polls.json", "Data/votes/spec-example.json", "Data/votes/tie.json", "Data/items/items.json"] {
            try site.write(file, "[]")
        }
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let manifest = try site.read("Output/manifest.json")
        // Game g4 of the catalog, the latest date of the trip and its games.
        #expect(manifest.contains("\"buildTime\": \"2026-08-08T18:15:00Z\""))
        #expect(try site.read("Output/trips/11111111-1111-1111-1111-111111111111/calendar.ics").contains("DTSTAMP:20260808T181500Z\r\n"))
    }

    @Test("A site of option sets without generatedAt takes the newest date their trips plan, not 2001-01-01")
    func buildTimeOfOptionSetsAlone() throws {
        let site = try TemporarySite()
        try site.copy(from: Repository.fixtures.appendingPathComponent("options/site"))
        try site.copyTemplates()
        try site.write("Data/polls/poll.json", "[]")
        let set = try site.read("Data/options/boundary.json")
        try site.write("Data/options/boundary.json", set.replacingOccurrences(of: "  \"generatedAt\": \"2026-07-01T12:00:00Z\",\n", with: ""))
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        // The trips' last day, July 20 (the tips page said "Featured for January 1, 2001").
        #expect(try site.read("Output/manifest.json").contains("\"buildTime\": \"2026-07-20T05:00:00Z\""))
        #expect(try site.read("Output/tips/index.html").contains("July 20, 2026"))
    }

    @Test("A site whose inputs hold no date is dated by --date, or warned about: it would say January 1, 2001 without a word")
    func buildTimeOfAnUndatedSite() throws {
        let site = try TemporarySite()
        try site.copy(from: Self.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        for file in ["Data/polls/polls.json", "Data/votes/spec-example.json", "Data/votes/tie.json", "Data/items/items.json", "Data/games/games.json"] {
            try site.write(file, "[]")
        }
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/trips/chicago-milwaukee.json"))
        let config = site.root.appendingPathComponent("site.yml")
        var options = BuildOptions(configFile: config)
        options.environment = [:]
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: options, log: log).run()
        #expect(log.all.map(\.description) == [
            "\(displayPath(config)): warning: no input holds a date, so the site is dated January 1, 2001 (the tips page, manifest.json); pass --date YYYY-MM-DD or set SOURCE_DATE_EPOCH",
        ])
        #expect(try site.read("Output/manifest.json").contains("\"buildTime\": \"2001-01-01T00:00:00Z\""))

        options.date = Date(timeIntervalSince1970: 1_788_220_800)   // 2026-09-01
        let dated = DiagnosticLog()
        _ = try SiteBuilder(options: options, log: dated).run()
        #expect(dated.all.isEmpty, "\(dated.all)")
        #expect(try site.read("Output/manifest.json").contains("\"buildTime\": \"2026-09-01T00:00:00Z\""))
        #expect(try site.read("Output/tips/index.html").contains("September 1, 2026"))
    }

    @Test("404.html carries its stylesheet; without baseURL it links from the domain's root, as a host shows it at any mistyped depth; with urls: files, relatively")
    func notFoundLinks() throws {
        func hrefs(urls: String) throws -> [String] {
            let site = try TemporarySite()
            try site.copy(from: Self.golden.appendingPathComponent("site"))
            try site.copyTemplates()
            let yaml = try site.read("site.yml").split(separator: "\n").filter { !$0.hasPrefix("baseURL:") && !$0.hasPrefix("urls:") }
            try site.write("site.yml", yaml.joined(separator: "\n") + "\nurls: \(urls)\n")
            _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
            let html = try site.read("Output/404.html")
            let sheet = try site.read("Output/assets/site.css")
            #expect(html.contains("<style>\n" + sheet + "</style>\n") && !html.contains("rel=\"stylesheet\""))
            let regex = try NSRegularExpression(pattern: ##"href="([^"#]*)""##)
            return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
        }
        // The stylesheet is inside the page, which looks the same at any address.
        #expect(try hrefs(urls: "pretty") == ["/", "/", "/tips/", "/"])
        // Pages opened from disk: a link from the root would lead out of the site.
        #expect(try hrefs(urls: "files") == ["index.html", "index.html", "tips/index.html", "index.html"])
    }

    @Test("A pages folder site.yml names that does not exist is a warning, not a silent site without pages")
    func missingPagesFolder() throws {
        let site = try TemporarySite()
        try site.copy(from: Self.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        try site.write("site.yml", try site.read("site.yml") + "pages: Pagse\n")
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        #expect(log.all.map(\.description) == [
            "\(displayPath(site.root.appendingPathComponent("Pagse"))): warning: pages: site.yml names this pages folder, which does not exist; no page is published from it",
        ])
    }

    @Test("With urls: files, Markdown links to folders open their index.html from disk; with pretty URLs they stay as written")
    func markdownFolderLinks() throws {
        func about(urls: String) throws -> String {
            let site = try TemporarySite()
            try site.copy(from: Self.golden.appendingPathComponent("site"))
            try site.copyTemplates()
            try site.write("site.yml", try site.read("site.yml") + "urls: \(urls)\npages: Pages\n")
            try site.write("Pages/about.md", "---\ntitle: About\n---\nSee [the tips](../tips/) and [home](..).\n")
            _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
            return try site.read("Output/about/index.html")
        }
        // From disk, `../tips/` opened the browser's listing of the folder.
        #expect(try about(urls: "files").contains("<p>See <a href=\"../tips/index.html\">the tips</a> and <a href=\"../index.html\">home</a>.</p>"))
        #expect(try about(urls: "pretty").contains("<p>See <a href=\"../tips/\">the tips</a> and <a href=\"..\">home</a>.</p>"))
    }

    @Test("Private ids never appear in any output file")
    func privacy() throws {
        let (_, tree) = try buildGolden()
        for (path, data) in tree {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("_priv_"), "\(path) leaks a private id")
        }
    }

    @Test("The results.json fields of docs/pages.md for the example poll")
    func resultsJSON() throws {
        let (_, tree) = try buildGolden()
        let json = try JSONSerialization.jsonObject(with: tree["polls/X7K9M2/results.json"]!) as! [String: Any]
        #expect(json["voters"] as? Int == 4)
        #expect(json["ballots"] as? [String: Int] == ["received": 6, "counted": 4, "invalid": 1, "superseded": 1])
        let results = json["results"] as! [[String: Any]]
        #expect(results.map { $0["trip"] as! Int } == [2, 1, 3])
        #expect(results.map { $0["points"] as! Int } == [10, 9, 5])
        #expect(json["updatedAt"] as? String == "2026-05-04T14:30:00Z")
    }

    @Test("listPolls: false — share codes appear only in the polls' own files: not in the home page, sitemap, robots.txt or manifest")
    func unlistedPolls() throws {
        let site = try TemporarySite()
        try site.copy(from: Self.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        try site.write("site.yml", try site.read("site.yml") + "listPolls: false\n")
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let tree = try fileTree(site.root.appendingPathComponent("Output"))
        for (path, data) in tree where !path.hasPrefix("polls/") {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("X7K9M2") && !text.contains("TWB2AA"), "\(path) reveals a share code")
        }
        // Rules are paths from the host's root: the site is at https://example.org/trips/.
        #expect(String(decoding: tree["robots.txt"]!, as: UTF8.self)
                == "User-agent: *\nDisallow: /trips/polls/\nSitemap: https://example.org/trips/sitemap.xml\n")
        #expect(String(decoding: tree["polls/X7K9M2/index.html"]!, as: UTF8.self).contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(SiteLinks(style: .pretty, baseURL: URL(string: "https://example.org/our%20trips/")).pathFromHost("polls/") == "/our%20trips/polls/")
        #expect(SiteLinks(style: .pretty, baseURL: URL(string: "https://example.org")).pathFromHost("polls/") == "/polls/")
        #expect(SiteLinks(style: .files, baseURL: nil).pathFromHost("polls/") == "/polls/")
        let manifest = try JSONSerialization.jsonObject(with: tree["manifest.json"]!) as! [String: Any]
        let unlisted = manifest["unlisted"] as! [String: Any]
        let pollFiles = tree.keys.filter { $0.hasPrefix("polls/") }
        #expect(unlisted["files"] as? Int == pollFiles.count)
        let expected = pollFiles.sorted().map { "\($0) \(sha256Hex(tree[$0]!))\n" }.joined()
        #expect(unlisted["sha256"] as? String == sha256Hex(Array(expected.utf8)))
    }
}
