import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Trip-option pages (docs/pages.md)")
struct OptionPagesTests {
    static let fixture = Repository.fixtures.appendingPathComponent("options/site")
    static let views = TripView.allCases.map(\.rawValue)

    /// Builds the fixture site (two option sets and a poll) and returns its files as text.
    func build() throws -> (TemporarySite, [String: String]) {
        let site = try TemporarySite()
        try site.copy(from: Self.fixture)
        try site.copyTemplates()
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        #expect(log.all.filter { $0.severity == .error } == [])
        let tree = try fileTree(site.root.appendingPathComponent("Output"))
        return (site, tree.mapValues { String(decoding: $0, as: UTF8.self) })
    }

    /// What a reader sees in a view: section headers and card names, in page order.
    func shown(_ html: String) -> (sections: [String], trips: [String]) {
        (matches(#"<h2 class="group-heading" id="[a-z0-9-]+-heading">([^<]*)</h2>"#, in: html),
         matches(#"<span class="trip-number" dir="ltr">[^<]*</span> (?:<a href="[^"]*">)?([^<]*)"#, in: html))
    }

    /// The view tabs of a page.
    func tabs(in html: String) throws -> String {
        let nav = try #require(html.range(of: #"<nav class="view-tabs" aria-label="Order the trips">[\s\S]*?</nav>"#, options: .regularExpression))
        return String(html[nav])
    }

    func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    @Test("Every view of every option set and poll is published; the recommended view also at /options/SLUG/")
    func paths() throws {
        let (_, tree) = try build()
        let optionPages = tree.keys.filter { $0.hasPrefix("options/") }.sorted()
        let expected = ["boundary-set", "sin-titulo-unicode-trip"].flatMap { slug in
            ["options/\(slug)/index.html"] + Self.views.map { "options/\(slug)/\($0)/index.html" }
        }
        #expect(optionPages == expected.sorted())
        for view in Self.views {
            #expect(tree["polls/X7K9M2/\(view)/index.html"] != nil, "polls/X7K9M2/\(view)/")
        }
        // The same view at both addresses; only the depth of relative links differs.
        let atBase = try #require(tree["options/boundary-set/index.html"])
        let named = try #require(tree["options/boundary-set/recommended/index.html"])
        #expect(shown(atBase).trips == shown(named).trips)
        #expect(atBase.contains("<li><a href=\"../../options/boundary-set/\" aria-current=\"page\">Recommended</a></li>"))
    }

    @Test("Each view shows the exact sections and trip order of docs/rules.md on boundary data", arguments: [
        ("recommended", [], ["Zero", "Under", "Five", "Almost", "Two", "Idle", "Home &lt;Stand&gt;"]),
        ("most-cities", ["3 cities", "2 cities", "1 city"], ["Two", "Five", "Almost", "Zero", "Under", "Idle", "Home &lt;Stand&gt;"]),
        ("most-games", ["3 games", "2 games", "1 game", "0 games"], ["Almost", "Two", "Home &lt;Stand&gt;", "Under", "Five", "Zero", "Idle"]),
        ("least-games", ["0 games", "1 game", "2 games", "3 games"], ["Zero", "Idle", "Under", "Five", "Home &lt;Stand&gt;", "Almost", "Two"]),
        ("most-miles", ["2000+ mi", "1500-2000 mi", "1000-1500 mi", "500-1000 mi", "0-500 mi"],
         ["Two", "Almost", "Idle", "Five", "Under", "Zero", "Home &lt;Stand&gt;"]),
        ("least-miles", ["0-500 mi", "500-1000 mi", "1000-1500 mi", "1500-2000 mi", "2000+ mi"],
         ["Zero", "Home &lt;Stand&gt;", "Under", "Five", "Idle", "Almost", "Two"]),
        ("best-efficiency", [], ["Home &lt;Stand&gt;", "Under", "Five", "Almost", "Two", "Zero", "Idle"]),
    ])
    func views(view: String, sections: [String], trips: [String]) throws {
        let (_, tree) = try build()
        let html = try #require(tree["options/boundary-set/\(view)/index.html"])
        let seen = shown(html)
        #expect(seen.sections == sections)
        #expect(seen.trips == trips)
        // Sections are reachable by fragment, and listed at the top.
        #expect(matches(#"<section class="trip-group" id="([a-z0-9-]+)""#, in: html).count == sections.count)
        #expect(matches(##"<li><a href="#[a-z0-9-]+">([^<]*)</a></li>"##, in: html) == sections)
    }

    @Test("Tabs link every view's own page (so /options/SLUG/recommended/ is reachable), the current one marked aria-current", arguments: TripView.allCases)
    func tabs(view: TripView) throws {
        let (_, tree) = try build()
        let html = try #require(tree["options/boundary-set/\(view.rawValue)/index.html"])
        let tabs = try tabs(in: html)
        #expect(matches(#"<a href="([^"]*)""#, in: tabs) == Self.views.map { "../../../options/boundary-set/\($0)/" })
        let current = matches(#"<a href="[^"]*" aria-current="page">([^<]*)</a>"#, in: tabs)
        #expect(current == [view.label])
    }

    @Test("Cards show name, dates, route, games, miles, driving and miles per game; the ordering fact stands out")
    func cards() throws {
        let (_, tree) = try build()
        let html = try #require(tree["options/boundary-set/best-efficiency/index.html"])
        // The view marks its ordering fact on the list; CSS highlights that fact on every card.
        #expect(html.contains(#"<ol class="card-list key-efficiency">"#))
        #expect(html.contains("""
          <h3 class="card-title" dir="auto"><span class="trip-number" dir="ltr">Option 3</span> Five</h3>
          <p class="meta">Jul 17 – 20, 2026 · MLB</p>
          <p class="trip-route">Chicago → Milwaukee → chicago</p>
          <ul class="facts">
            <li class="fact-cities">2 cities</li>
            <li class="fact-games">1 game</li>
            <li class="fact-miles">500 mi</li>
            <li>8 h 20 min driving</li>
            <li class="fact-efficiency">500 mi per game</li>
          </ul>
        """))
        // Without games there is no miles-per-game fact.
        #expect(html.contains("""
            <li class="fact-games">0 games</li>
            <li class="fact-miles">1,000 mi</li>
            <li>16 h 40 min driving</li>
          </ul>
        """))
    }

    @Test("A 499.9 mi trip reads \"499 mi\" under \"0-500 mi\", a 1,999.99 mi one \"1,999 mi\" under \"1500-2000 mi\"")
    func milesAgreeWithGroups() throws {
        let (_, tree) = try build()
        let html = try #require(tree["options/boundary-set/most-miles/index.html"])
        func section(_ anchor: String) throws -> String {
            let start = try #require(html.range(of: "id=\"\(anchor)-heading\""))
            let rest = html[start.upperBound...]
            return String(rest[..<(rest.range(of: "</section>")?.lowerBound ?? rest.endIndex)])
        }
        #expect(try section("miles-0-500").contains("Under</h3>"))
        #expect(try section("miles-0-500").contains("<li class=\"fact-miles\">499 mi</li>"))
        #expect(try section("miles-1500-2000").contains("<li class=\"fact-miles\">1,999 mi</li>"))
        #expect(try section("miles-2000-plus").contains("<li class=\"fact-miles\">2,000 mi</li>"))
    }

    @Test("Export strings are escaped; the home page lists each option set after the polls")
    func homeAndEscaping() throws {
        let (_, tree) = try build()
        let view = try #require(tree["options/boundary-set/index.html"])
        #expect(view.contains("<h1 dir=\"auto\">Boundary &lt;b&gt;trips&lt;/b&gt; &amp; co</h1>"))
        #expect(!view.contains("<b>trips</b>"))
        let home = try #require(tree["index.html"])
        #expect(home.contains("<h3 class=\"card-title\" dir=\"auto\"><a href=\"options/boundary-set/\">Boundary &lt;b&gt;trips&lt;/b&gt; &amp; co</a></h3>"))
        #expect(home.contains("<p class=\"meta\">7 trips · generated July 1, 2026</p>"))
        #expect(home.contains("<a href=\"options/sin-titulo-unicode-trip/\">Sin título: Ünïcode Trip</a>"))
        let polls = try #require(home.range(of: "id=\"polls-heading\"")), options = try #require(home.range(of: "id=\"options-heading\""))
        #expect(polls.lowerBound < options.lowerBound)
    }

    @Test("Poll views: the poll page links to them, they link back, and list the poll's trips by number")
    func pollViews() throws {
        let (_, tree) = try build()
        let poll = try #require(tree["polls/X7K9M2/index.html"])
        #expect(poll.contains("<p>Browse these trips by:</p>"))
        #expect(matches(#"<li><a href="(\.\./\.\./polls/X7K9M2/[a-z-]+/)">"#, in: poll) == Self.views.map { "../../polls/X7K9M2/\($0)/" })
        let view = try #require(tree["polls/X7K9M2/most-miles/index.html"])
        #expect(shown(view).sections == ["2000+ mi", "500-1000 mi", "0-500 mi"])
        #expect(shown(view).trips == ["Far", "Middle", "Near"])
        #expect(matches(#"<span class="trip-number" dir="ltr">([^<]*)</span>"#, in: view) == ["Trip 3", "Trip 2", "Trip 1"])
        #expect(view.contains("<a href=\"../../../polls/X7K9M2/\">Back to the poll results</a>"))
        // A poll's own order is "Poll order": nobody recommended it.
        let tabs = try tabs(in: view)
        #expect(matches(#"<li><a href="[^"]*"(?: aria-current="page")?>([^<]*)</a></li>"#, in: tabs) == ["Poll order", "Most cities", "Most games", "Fewest games", "Most miles", "Fewest miles", "Fewest miles per game"])
        #expect(matches(#"<a href="[^"]*" aria-current="page">([^<]*)</a>"#, in: tabs) == ["Most miles"])
        #expect(!view.contains("_priv_"))
    }

    @Test("A poll trip links to its itinerary page /polls/CODE/trips/N/ only when that page is planned; unlisted polls' views are noindex")
    func itineraryLinks() throws {
        let site = try TemporarySite()
        try site.write("site.yml", "title: Links\n")
        let config = try SiteConfigLoader.load(site.root.appendingPathComponent("site.yml"))
        let kit = RenderKit(config: config, templates: try TemplateSet.load(from: Repository.root.appendingPathComponent("Templates"), required: SitePlan.requiredTemplates),
                            links: SiteLinks(style: .pretty, baseURL: nil), format: Formatting(timeZone: .gmt),
                            buildTime: Sample.day, navigation: [])
        let poll = Sample.poll(["A", "B"])
        let published = PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, votes: [], minBallotsForBreakdown: 3))
        func links(_ planned: Set<String>) -> [String] {
            let list = OptionPages.list(for: published, unlisted: false, plannedPaths: planned)
            let html = String(decoding: OptionPages.page(list, view: .recommended, path: "polls/X7K9M2/recommended/", kit: kit), as: UTF8.self)
            return matches(#"<span class="trip-number" dir="ltr">[^<]*</span> <a href="([^"]*)">"#, in: html)
        }
        #expect(links([]) == [])
        // Views of an unlisted poll are not indexed, like the poll itself.
        let unlisted = OptionPages.page(OptionPages.list(for: published, unlisted: true, plannedPaths: []),
                                        view: .mostGames, path: "polls/X7K9M2/most-games/", kit: kit)
        #expect(String(decoding: unlisted, as: UTF8.self).contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(links(["polls/X7K9M2/trips/2/index.html"]) == ["../../../polls/X7K9M2/trips/2/"])
        #expect(links(["polls/X7K9M2/trips/1/index.html", "polls/X7K9M2/trips/2/index.html"])
            == ["../../../polls/X7K9M2/trips/1/", "../../../polls/X7K9M2/trips/2/"])
    }

    @Test("Section headers stick while scrolling (CSS position: sticky)")
    func stickyHeaders() throws {
        let css = try String(contentsOf: Repository.root.appendingPathComponent("Templates/assets/site.css"), encoding: .utf8)
        #expect(css.contains(".group-heading { position: sticky; top: 0;"))
    }
}
