import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

/// One page of every kind, rendered in memory through the page models and RenderKit (no
/// build, no output folder) from the small input in Fixtures/pages/input, and compared
/// with Fixtures/pages/expected. `SITEGEN_UPDATE_GOLDEN=1` rewrites the expected pages;
/// read the diff before committing it. (`sitegen build --date 2026-06-15` of the same
/// input, with `pages` and `tips.file` set, writes the same bytes.)
@Suite("Every page kind, rendered in memory")
struct PageGoldenTests {
    static let folder = Repository.fixtures.appendingPathComponent("pages")
    static let input = folder.appendingPathComponent("input")
    static let convoy = "convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/"

    /// The pages compared: each kind once, an option set with all of its views.
    static let pages = [
        "index.html", "404.html", "tips/index.html", "about/index.html",
        "polls/X7K9M2/index.html", "polls/X7K9M2/most-miles/index.html", "polls/X7K9M2/trips/1/index.html",
        "trips/11111111-1111-1111-1111-111111111111/index.html",
        "options/august-2026/index.html",
    ] + TripView.allCases.map { "options/august-2026/\($0.rawValue)/index.html" } + [convoy + "index.html"]

    /// The records of an input file (an array of them, or one).
    func records<Record>(_ name: String, _ decode: (JSONField, SourceRef) throws -> Record) throws -> [Record] {
        let root = JSONField(try JSONParser.parse([UInt8](try Data(contentsOf: Self.input.appendingPathComponent(name)))))
        let source = SourceRef(file: name, line: 1, column: 1)
        return try ((try? root.elements()) ?? [root]).map { try decode($0, source) }
    }

    func markdownPage(_ name: String) throws -> MarkdownPage {
        let text = try String(contentsOf: Self.input.appendingPathComponent(name), encoding: .utf8)
        return try MarkdownPages.page(fileName: name, text: text, file: name, source: InputFile(path: name, sha256: sha256Hex(Array(text.utf8))))
    }

    /// Every planned file of the input site that `pages` names, rendered.
    func render() throws -> [String: [UInt8]] {
        let config = try SiteConfigLoader.load(Self.input.appendingPathComponent("site.yml"))
        let decoder = ExportDecoder(dates: ExportDateReader(timeZone: config.timeZone, numericDates: config.numericDates))
        var exports = ExportSet()
        exports.games = try records("games.json") { try decoder.game($0, source: $1) }
        exports.customItems = try records("items.json") { try decoder.customItem($0, source: $1) }
        exports.itineraries = try records("itinerary.json") { try decoder.itinerary($0, source: $1) }
        exports.optionSets = try records("options.json") { try decoder.optionSet($0, source: $1) }
        exports.convoys = try records("convoy.json") { try decoder.convoy($0, source: $1) }
        let log = DiagnosticLog()
        let layout = ItineraryLayout(exports: exports, timeZone: config.timeZone, log: log)

        // The poll's files, as PollStream plans them.
        let poll = try #require(try records("polls.json") { try decoder.poll($0, source: $1) }.first)
        let votes = try records("votes.json") { try decoder.vote($0, source: $1) }
        let published = PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, votes: votes, minBallotsForBreakdown: config.minBallotsForBreakdown))
        var files = PollPages.files(for: published, unlisted: false, tripPages: true)
        files += layout.trips(of: published).flatMap { ItineraryPages.files(for: $0, previews: false) }
        files += OptionPages.files(for: published, unlisted: false, plannedPaths: Set(files.map(\.path)))

        let day = ExportDateReader(timeZone: .gmt, numericDates: .reference).parse("2026-06-15")!
        let catalog = try #require(TipCatalog.load(Self.input.appendingPathComponent("tips.json"), log: log))
        let rotation = TipRotation(seed: config.tips.seed, featured: config.tips.featured)
        let featured = rotation.featuredIndices(count: catalog.tips.count, step: TipRotation.dayNumber(day.timeIntervalSince1970))
        let tips = PublishedTips(catalog: catalog, featured: featured.map { catalog.tips[$0] }, date: day, rotation: .daily)
        var site = SiteModel(config: config, tips: tips, polls: [PollSummary(published)], convoys: exports.convoys,
                             optionSets: exports.optionSets, itineraries: layout.itineraries(exports.itineraries))
        site.pages = [try markdownPage("about.md"), try markdownPage("faq.md")]
        files += SitePlan.files(for: site)
        #expect(log.all.map(\.description) == [])

        let kit = RenderKit(config: config,
                            templates: try TemplateSet.load(from: Repository.root.appendingPathComponent("Templates"), required: SitePlan.requiredTemplates),
                            links: SiteLinks(style: config.urls, baseURL: config.baseURL), format: Formatting(timeZone: config.timeZone),
                            buildTime: day, navigation: SitePlan.navigation(pages: site.pages))
        let wanted = Set(Self.pages)
        return Dictionary(uniqueKeysWithValues: files.filter { wanted.contains($0.path) }.map { ($0.path, $0.make(kit)) })
    }

    @Test("Each page kind renders exactly as its golden copy: no missing, unexpected or different page")
    func goldenPages() throws {
        let actual = try render().mapValues { Data($0) }
        #expect(actual.keys.sorted() == Self.pages.sorted(), "a page of the list was not planned")
        try expectGolden(actual, in: Self.folder.appendingPathComponent("expected"))
    }

    @Test("The ballots table is marked wide, its names taking half a phone's screen, only with more than five trips")
    func wideBreakdown() throws {
        let config = try SiteConfigLoader.parse("title: T\n", file: URL(fileURLWithPath: "/site/site.yml"))
        let kit = RenderKit(config: config, templates: try TemplateSet.load(from: Repository.root.appendingPathComponent("Templates"), required: []),
                            links: SiteLinks(style: config.urls, baseURL: nil), format: Formatting(timeZone: .gmt), buildTime: nil, navigation: [])
        for (trips, wide) in [(2, false), (5, false), (6, true), (10, true)] {
            let names = (1...trips).map { "Trip \($0)" }
            let published = PreviewTests.published(names, Array(repeating: Array(0..<trips), count: 3))
            let page = String(decoding: PollPages.page(published, unlisted: false, tripPages: false, kit: kit), as: UTF8.self)
            let classes = wide ? "table-scroll breakdown-scroll is-wide" : "table-scroll breakdown-scroll"
            #expect(page.contains("<div class=\"\(classes)\" role=\"region\" aria-labelledby=\"breakdown-caption\" tabindex=\"0\">"), "\(trips) trips")
        }
    }
}
