import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Planning tips (docs/rules.md)")
struct TipsTests {
    let catalog = TipCatalog.builtIn()

    @Test("The built-in catalog: at least 105 tips, at least 15 in each of the 7 categories, no duplicates")
    func catalogShape() {
        #expect(catalog.tips.count >= 105)
        for category in TipCategory.allCases {
            #expect(catalog.tips(in: category).count >= 15, "\(category.rawValue)")
        }
        let titles = catalog.tips.map { $0.title.lowercased() }
        #expect(Set(titles).count == titles.count)
        #expect(Set(catalog.tips.map(\.id)).count == catalog.tips.count)
        #expect(catalog.tips.allSatisfy { !$0.icon.isEmpty && !$0.subtitle.isEmpty })
    }

    @Test("The tips page's description names the topics its catalog has")
    func pageDescription() {
        #expect(TipsPages.description(catalog) == "112 tips for planning a multi-city sports road trip: schedules, driving, stadiums, budget, multi-sport trips, regions and game day.")
        let budget = Tip(id: "b1", category: .budget, icon: "💵", title: "Split fuel", subtitle: "By the mile.")
        #expect(TipsPages.description(TipCatalog(tips: [budget])) == "1 tip for planning a multi-city sports road trip: budget.")
        let stadium = Tip(id: "s1", category: .stadiums, icon: "🏟️", title: "Tour it", subtitle: "Book ahead.")
        #expect(TipsPages.description(TipCatalog(tips: [budget, stadium, budget])) == "3 tips for planning a multi-city sports road trip: stadiums and budget.")
        #expect(TipsPages.description(TipCatalog(tips: [])) == "0 tips for planning a multi-city sports road trip.")
    }

    @Test("The permutation is pinned: the same on every machine and Swift version")
    func pinnedPermutation() {
        #expect(TipRotation.permutation(count: 10, seed: 0) == TipRotation.permutation(count: 10, seed: 0))
        #expect(TipRotation.permutation(count: 10, seed: 0) == [6, 3, 2, 9, 8, 1, 4, 7, 0, 5])  // cross-checked with a Python SplitMix64
        #expect(TipRotation.permutation(count: 10, seed: 1) != TipRotation.permutation(count: 10, seed: 0))
        #expect(Set(TipRotation.permutation(count: 112, seed: 99)) == Set(0..<112))
    }

    @Test("Same date and seed give the same tips; consecutive dates give different ones")
    func sameAndConsecutiveDays() {
        let rotation = TipRotation(seed: 0, featured: 3)
        let today = TipRotation.dayNumber(1_781_291_100)
        #expect(rotation.featuredIndices(count: catalog.tips.count, step: today)
                == rotation.featuredIndices(count: catalog.tips.count, step: today))
        for day in today..<(today + 60) {
            let a = Set(rotation.featuredIndices(count: catalog.tips.count, step: day))
            let b = Set(rotation.featuredIndices(count: catalog.tips.count, step: day + 1))
            #expect(a.isDisjoint(with: b))
        }
    }

    @Test("No tip repeats until the whole catalog has been featured, from any starting day",
          arguments: [(112, 3), (105, 3), (10, 4), (7, 7), (5, 9)])
    func noRepeats(count: Int, featured: Int) {
        let rotation = TipRotation(seed: 12345, featured: featured)
        let perDay = min(featured, count)
        for start in [0, 1, 20_616, -3] {
            var seen: [Int] = []
            var day = start
            while seen.count + perDay <= count {
                seen += rotation.featuredIndices(count: count, step: day)
                day += 1
            }
            #expect(Set(seen).count == seen.count, "a tip repeated before all were featured")
            // One more day completes the cycle: every tip has then been featured.
            seen += rotation.featuredIndices(count: count, step: day)
            #expect(Set(seen) == Set(0..<count))
        }
    }

    func site(_ yaml: String) throws -> SiteConfig {
        try SiteConfigLoader.parse("title: T\n" + yaml, file: URL(fileURLWithPath: "/site/site.yml"))
    }

    func featuredTitles(_ config: SiteConfig, date: String?, seed: UInt64? = nil, buildTime: Double = 1_781_291_100) -> [String] {
        var options = BuildOptions(configFile: config.file)
        options.date = date.flatMap { ExportDateReader(timeZone: .gmt, numericDates: .reference).parse($0) }
        options.seed = seed
        let tips = ComputeStage.publishedTips(catalog: ReadStage.tipCatalog(config, log: DiagnosticLog()), config: config, options: options,
                                              buildTime: Date(timeIntervalSince1970: buildTime))
        return tips.featured.map(\.title)
    }

    @Test("--date picks the day; without it the build time's UTC day is used")
    func dateOption() throws {
        let config = try site("")
        #expect(featuredTitles(config, date: "2026-06-12") == featuredTitles(config, date: nil, buildTime: 1_781_291_100))
        #expect(featuredTitles(config, date: "2026-06-12") != featuredTitles(config, date: "2026-06-13"))
        #expect(featuredTitles(config, date: "2026-06-12").count == 3)
    }

    @Test("--seed overrides tips.seed; rotation: fixed ignores the date")
    func seedAndFixed() throws {
        let daily = try site("tips:\n  seed: 5\n")
        #expect(featuredTitles(daily, date: "2026-06-12") != featuredTitles(daily, date: "2026-06-12", seed: 6))
        #expect(featuredTitles(daily, date: "2026-06-12", seed: 5) == featuredTitles(daily, date: "2026-06-12"))
        let fixed = try site("tips:\n  rotation: fixed\n  seed: 5\n  featured: 4\n")
        #expect(featuredTitles(fixed, date: "2026-06-12") == featuredTitles(fixed, date: "2027-01-01"))
        #expect(featuredTitles(fixed, date: "2026-06-12").count == 4)
        #expect(featuredTitles(fixed, date: "2026-06-12") != featuredTitles(fixed, date: "2026-06-12", seed: 6))
    }

    @Test("A bad replacement file reports every bad tip with line and column")
    func badReplacement() {
        let log = DiagnosticLog()
        let text = """
        [
          {"category": "budget", "icon": "💵", "title": "Split the gas", "subtitle": "Use an app."},
          {"category": "snacks", "icon": "🍿", "title": "Popcorn", "subtitle": "Eat it."},
          {"category": "budget", "icon": "💵", "title": "  ", "subtitle": "Nothing."},
          {"category": "budget", "icon": "💵", "title": "Split the Gas!", "subtitle": "Again."}
        ]
        """
        let catalog = TipCatalog.parse(Array(text.utf8), file: "tips.json", log: log)
        #expect(catalog?.tips.map(\.title) == ["Split the gas"])
        #expect(log.all.map(\.description) == [
            "tips.json:3:16: error: [1].category: unknown category \"snacks\"; expected one of: schedule-timing, driving-routes, stadiums, budget, multi-sport, regional, game-day",
            "tips.json:4:48: error: [2].title: must not be empty",
            "tips.json:5:48: error: [3].title: duplicate tip: the same title as tip [0]",
        ])
    }

    @Test("A tip names every field it lacks at once, and a field sitegen does not know is a warning")
    func missingAndUnknownFields() {
        let log = DiagnosticLog()
        let text = """
        [
          {"category": "budget", "title": "Split the gas"},
          {"category": "budget", "icon": "💵", "title": "Park once", "subtitel": "Walk.", "Id": "park"},
          {"category": "budget", "icon": "💵", "title": "Eat early", "subtitle": "Cheaper.", "subtitel": "x"}
        ]
        """
        let catalog = TipCatalog.parse(Array(text.utf8), file: "tips.json", log: log)
        #expect(catalog?.tips.map(\.title) == ["Eat early"])
        #expect(log.all.map(\.description) == [
            "tips.json:2:3: error: [0]: 2 required fields of the tip are missing: \"subtitle\", \"icon\"",
            "tips.json:3:3: error: [1].subtitle: required field is missing",
            "tips.json:3:73: warning: [1].subtitel: sitegen does not know the field \"subtitel\" of a tip (did you mean \"subtitle\"?); it is ignored (2 times in this file)",
            "tips.json:3:88: warning: [1].Id: sitegen does not know the field \"Id\" of a tip (did you mean \"id\"?); it is ignored",
        ])
    }

    @Test("Every problem of a tip is reported in one run, each at its field, and a bad tip's title still counts for duplicates (audit 2, item 8)")
    func everyProblemOfATip() {
        let log = DiagnosticLog()
        let text = """
        [
          {"category": "budgte", "icon": "x", "title": "", "subtitle": ""},
          {"category": "budget", "icon": "💵", "title": "Fine", "subtitle": ""},
          {"category": 3, "title": "Fine!"},
          {"id": " ", "category": "budget", "icon": "💵", "title": "Park once", "subtitle": "Walk."},
          {"category": "budget", "icon": "💵", "title": "Eat early", "subtitle": "Cheaper."}
        ]
        """
        let catalog = TipCatalog.parse(Array(text.utf8), file: "tips.json", log: log)
        #expect(catalog?.tips.map(\.title) == ["Eat early"])
        // Each of these took a run of its own before: the first error of a tip stopped it.
        #expect(log.all.map(\.description) == [
            "tips.json:2:16: error: [0].category: unknown category \"budgte\"; expected one of: schedule-timing, driving-routes, stadiums, budget, multi-sport, regional, game-day",
            "tips.json:2:48: error: [0].title: must not be empty",
            "tips.json:2:64: error: [0].subtitle: must not be empty",
            "tips.json:3:68: error: [1].subtitle: must not be empty",
            "tips.json:4:3: error: [2]: 2 required fields of the tip are missing: \"subtitle\", \"icon\"",
            "tips.json:4:16: error: [2].category: expected a string, found a number",
            "tips.json:4:28: error: [2].title: duplicate tip: the same title as tip [1]",
            "tips.json:5:10: error: [3].id: must not be empty",
        ])
        #expect(log.errorCount == 8)
    }

    @Test("Past the first 100 failing tips, each reports its first problem only, as the exports do")
    func failingTipsAreBounded() {
        let log = DiagnosticLog(keepsEvery: true)
        let bad = (0..<102).map { #"{"category": "nope", "icon": "x", "title": "", "subtitle": "Tip \#($0)"}"# }
        let catalog = TipCatalog.parse(Array(("[" + bad.joined(separator: ",\n") + "]").utf8), file: "tips.json", log: log)
        #expect(catalog?.tips.isEmpty == true)
        #expect(log.errorCount == 100 * 2 + 2)
        #expect(log.all.suffix(3).map(\.description) == [
            "tips.json:100:44: error: [99].title: must not be empty",
            "tips.json:101:14: error: [100].category: unknown category \"nope\"; expected one of: schedule-timing, driving-routes, stadiums, budget, multi-sport, regional, game-day",
            "tips.json:102:14: error: [101].category: unknown category \"nope\"; expected one of: schedule-timing, driving-routes, stadiums, budget, multi-sport, regional, game-day",
        ])
    }

    @Test("tips.file replaces the built-in catalog in a real build")
    func replacementInBuild() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\ntips:\n  file: my-tips.json\n  featured: 1\n")
        try site.write("my-tips.json", #"[{"category": "regional", "icon": "🌵", "title": "Bring water to Phoenix", "subtitle": "It is hot."}]"#)
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let page = try site.read("Output/tips/index.html")
        #expect(page.contains("Bring water to Phoenix"))
        #expect(page.contains("All 1 tip"))
        #expect(try site.read("Output/index.html").contains("Bring water to Phoenix"))
    }
}
