import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
import Testing

@Suite("Trip-option sets (docs/exports.md)")
struct OptionSetTests {
    let decoder = ExportDecoder(dates: ExportDateReader(timeZone: TimeZone(identifier: "America/Chicago")!, numericDates: .reference))

    func field(_ json: String) throws -> JSONField {
        JSONField(try JSONParser.parse(Array(json.utf8)))
    }

    func optionSetJSON(id: String? = "\"july-2026\"", title: String = "\"July 2026\"",
                       options: String = "[\(ExportDecodingTests.tripJSON), \(ExportDecodingTests.tripJSON)]") -> String {
        let idMember = id.map { "\"id\": \($0), " } ?? ""
        return "{\(idMember)\"title\": \(title), \"generatedAt\": \"2026-07-01T12:00:03.517Z\", \"options\": \(options)}"
    }

    @Test("An option set: id, title, generatedAt and its trips in recommended order")
    func decodes() throws {
        let set = try decoder.optionSet(try field(optionSetJSON()), source: Sample.source)
        #expect(set.id == "july-2026")
        #expect(set.title == "July 2026")
        #expect(set.slug == "july-2026")
        #expect(set.path == "options/july-2026/")
        #expect(abs(set.generatedAt!.timeIntervalSince1970 - 1_782_907_203.517) < 0.0005)
        #expect(set.trips.map(\.name) == ["Loop", "Loop"])
        #expect(set.trips[0].stops.map(\.city) == ["Chicago", "Milwaukee"])
    }

    @Test("Without an id, or with a blank one, the slug comes from the title; generatedAt is optional")
    func slugFromTitle() throws {
        let noId = try decoder.optionSet(try field("{\"title\": \"Fall — Détroit & Co.\", \"options\": []}"), source: Sample.source)
        #expect(noId.id == nil)
        #expect(noId.slug == "fall-detroit-and-co")
        #expect(noId.generatedAt == nil)
        #expect(noId.trips == [])
        let blank = try decoder.optionSet(try field(optionSetJSON(id: "\"  \"")), source: Sample.source)
        #expect(blank.id == nil)
        #expect(blank.slug == "july-2026")
        // An id that leaves nothing falls back to the title, and a title that leaves nothing
        // to a hash of the title.
        #expect(try decoder.optionSet(try field(optionSetJSON(id: "\"日本\"")), source: Sample.source).slug == "july-2026")
        #expect(try decoder.optionSet(try field(optionSetJSON(id: nil, title: "\"夏\"")), source: Sample.source).slug == "set-8482432c")
    }

    @Test("The address: the id's slug, else the title's, else set- and 8 hex digits of the title's SHA-256 (NFC)", arguments: [
        ("July-2026_Chicago", "Other", "july-2026-chicago", OptionSetSlug.Origin.id),
        ("東京", "July 2026", "july-2026", .title),
        (nil, "Café in Montréal", "cafe-in-montreal", .title),
        (nil, "🏟️⚾", "set-18e2cf3e", .titleHash),
        (nil, "رحلات الصيف", "set-873e436d", .titleHash),
        // Spaces around and between the words do not move the address.
        (nil, " رحلات  الصيف \n", "set-873e436d", .titleHash),
        ("---", "夏", "set-8482432c", .titleHash),
        (nil, "Ελλάδα", "set-e6f7401e", .titleHash),
        // "한국 여행" as syllables and as the jamo they decompose into: one address.
        (nil, "한국 여행", "set-da440c2b", .titleHash),
        (nil, "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8} \u{110B}\u{1167}\u{1112}\u{1162}\u{11BC}", "set-da440c2b", .titleHash),
    ] as [(String?, String, String, OptionSetSlug.Origin)])
    func address(id: String?, title: String, slug: String, origin: OptionSetSlug.Origin) {
        #expect(OptionSetSlug.address(id: id, title: title) == (slug, origin))
    }

    @Test("Wrong or missing fields name the JSON path", arguments: [
        (#"{"options": []}"#, "title", "required field is missing"),
        (#"{"title": "  ", "options": []}"#, "title", "must not be empty"),
        // Zero-width space, joiner and word joiner: drawn as nothing, an empty-looking title.
        (#"{"title": "\u200b\u200d\u2060", "options": []}"#, "title", "must not be empty"),
        (#"{"title": "T"}"#, "options", "required field is missing"),
        (#"{"title": "T", "options": "none"}"#, "options", "expected an array, found a string"),
        (#"{"id": 7, "title": "T", "options": []}"#, "id", "expected a string, found a number"),
        (#"{"title": "T", "generatedAt": "July", "options": []}"#, "generatedAt", nil),
        (#"{"title": "T", "options": [{"name": "x"}]}"#, "options[0]",
         #"3 required fields of the trip are missing: "id", "preferences", "stops""#),
    ] as [(String, String, String?)])
    func errors(json: String, path: String, message: String?) throws {
        let error = #expect(throws: FieldError.self) { try decoder.optionSet(try field(json), source: Sample.source) }
        #expect(error?.path.description == path)
        if let message { #expect(error?.message == message) }
    }

    @Test("Slugs: lower-case ASCII letters, digits and single hyphens, at most 60 characters", arguments: [
        ("july-2026-from-chicago", "july-2026-from-chicago"),
        ("July 2026 from Chicago", "july-2026-from-chicago"),
        ("  --Hello__World--  ", "hello-world"),
        ("Café Crème — Été", "cafe-creme-ete"),
        ("Cubs & Sox", "cubs-and-sox"),
        ("Wrigley's Best", "wrigleys-best"),
        ("Ærø Straße Łódź", "aero-strasse-lodz"),
        ("ＡＢＣ １２３", "abc-123"),
        ("<script>alert(1)</script>", "script-alert-1-script"),
        ("../../etc/passwd", "etc-passwd"),
        ("日本の旅", ""),
        // Accents and compatibility forms are decomposed and their marks dropped; no letter is lost.
        ("Café in Montréal", "cafe-in-montreal"),
        ("Cafe\u{301} in Montre\u{301}al", "cafe-in-montreal"),
        ("Việt Nam: Đà Nẵng", "viet-nam-da-nang"),
        ("İstanbul Kadıköy", "istanbul-kadikoy"),
        ("ﬁnal ﬂight", "final-flight"),
        ("Ǆemal Ĳssel", "dzemal-ijssel"),
        ("Top 10²", "top-102"),
        ("Tour™ № 5", "tour-5"),
        ("---", ""),
        (String(repeating: "a", count: 59) + " b", String(repeating: "a", count: 59)),
        (String(repeating: "ab ", count: 30), String(repeating: "ab-", count: 19) + "ab"),
    ])
    func slugs(text: String, slug: String) {
        #expect(OptionSetSlug.slug(text) == slug)
        #expect(OptionSetSlug.slug(text).count <= 60)
    }

    /// The option sets of the site's Data/options, loaded and reported as a build does.
    func loadSets(_ site: TemporarySite, log: DiagnosticLog) -> [TripOptionSet] {
        let loader = ExportLoader(siteFolder: site.root, decoder: decoder, log: log)
        let sets = loader.load(site.root.appendingPathComponent("Data/options")) { (decoder, field, source) throws(FieldError) in
            try decoder.optionSet(field, source: source)
        }.records
        OptionSetSlug.report(sets, log: log)
        return sets
    }

    @Test("A set's address depends on it alone: a set added before it moves nothing")
    func stableAddresses() throws {
        let site = try TemporarySite()
        try site.write("Data/options/b-emoji.json", optionSetJSON(id: nil, title: "\"🏟️⚾\""))
        try site.write("Data/options/c-arabic.json", optionSetJSON(id: nil, title: "\"رحلات الصيف\""))
        let before = loadSets(site, log: DiagnosticLog())
        #expect(before.map(\.path) == ["options/set-18e2cf3e/", "options/set-873e436d/"])
        try site.write("Data/options/a-july.json", optionSetJSON(id: nil, title: "\"July from Chicago\""))
        try site.write("Data/options/a-arabic.json", optionSetJSON(id: nil, title: "\"رحلة\""))
        let log = DiagnosticLog()
        let after = loadSets(site, log: log)
        #expect(after.map(\.title) == ["رحلة", "July from Chicago", "🏟️⚾", "رحلات الصيف"])
        #expect(after.map(\.path) == ["options/set-\(sha256Hex(Array("رحلة".utf8)).prefix(8))/", "options/july-from-chicago/",
                                      "options/set-18e2cf3e/", "options/set-873e436d/"])
        #expect(log.all.isEmpty)
    }

    @Test("An id published at another address than itself in lower case is a warning at the id, naming the address")
    func rewrittenIds() throws {
        let site = try TemporarySite()
        func write(_ name: String, id: String) throws {
            try site.write("Data/options/\(name).json", "{\n  \"id\": \(id),\n  \"title\": \"July 2026\",\n  \"options\": []\n}")
        }
        try write("a", id: "\"July-2026_Chicago\"")
        try write("b", id: "\"../../etc\"")
        try write("c", id: "\"東京\"")
        try write("d", id: "\"" + String(repeating: "x", count: 61) + "\"")
        try write("e", id: "\"" + String(repeating: "x_", count: 31) + "\"")
        // Only letter case differs, or the id is a UUID: no warning.
        try write("f", id: "\"Boundary-Set\"")
        try write("g", id: "\"6F9619FF-8B86-D011-B42D-00CF4FC964FF\"")
        try site.write("Data/options/h.json", "[{\"title\": \"T\", \"options\": []},\n {\"id\": \"a b\", \"title\": \"U\", \"options\": []}]")
        let log = DiagnosticLog(keepsEvery: true)
        let sets = loadSets(site, log: log)
        #expect(sets.map(\.slug) == ["july-2026-chicago", "etc", "july-2026", String(repeating: "x", count: 60),
                                     String(String(repeating: "x-", count: 30).dropLast()), "boundary-set",
                                     "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "t", "a-b"])
        let shown = displayPath(site.root.appendingPathComponent("Data/options"))
        #expect(log.all.map(\.description) == [
            "\(shown)/a.json:2:9: warning: id: id \"July-2026_Chicago\" is published at options/july-2026-chicago/: an address holds only a-z, 0-9 and single hyphens",
            "\(shown)/b.json:2:9: warning: id: id \"../../etc\" is published at options/etc/: an address holds only a-z, 0-9 and single hyphens",
            "\(shown)/c.json:2:9: warning: id: id \"東京\" is published at options/july-2026/, made from the title: an address holds only a-z, 0-9 and single hyphens",
            "\(shown)/d.json:2:9: warning: id: id \"\(String(repeating: "x", count: 40))…\" is published at options/\(String(repeating: "x", count: 60))/: an address holds at most 60 characters",
            "\(shown)/e.json:2:9: warning: id: id \"\(String(repeating: "x_", count: 20))…\" is published at options/\(String(repeating: "x-", count: 30).dropLast())/: an address holds only a-z, 0-9 and single hyphens, at most 60 characters",
            "\(shown)/h.json:2:9: warning: [1].id: id \"a b\" is published at options/a-b/: an address holds only a-z, 0-9 and single hyphens",
        ])
    }

    @Test("Two sets at one address are an error at the second's id or title value, naming the first's file and line")
    func clashingAddresses() throws {
        let site = try TemporarySite()
        try site.write("Data/options/a.json", "{\n  \"id\": \"Same\",\n  \"title\": \"First\",\n  \"options\": []\n}")
        try site.write("Data/options/b.json", "[\n" + optionSetJSON(id: nil, title: "\"日本\"", options: "[]") + ",\n  "
            + optionSetJSON(id: "\"same\"", title: "\"Second\"", options: "[]") + "\n]")
        try site.write("Data/options/c.json", "{\n  \"title\": \"日本\",\n  \"options\": []\n}")
        try site.write("Data/options/d.json", "{\n  \"title\": \"July from Chicago\",\n  \"options\": []\n}")
        try site.write("Data/options/e.json", "{\n  \"title\": \"July from Chicago\",\n  \"options\": []\n}")
        let log = DiagnosticLog()
        let sets = loadSets(site, log: log)
        #expect(sets.map(\.slug) == ["same", "set-cf2abf0c", "same", "set-cf2abf0c", "july-from-chicago", "july-from-chicago"])
        let shown = displayPath(site.root.appendingPathComponent("Data/options"))
        #expect(log.all.map(\.description) == [
            "\(shown)/b.json:3:10: error: [1].id: option set address options/same/ is also used by \"First\" (\(shown)/a.json:2); give one of them a different id",
            "\(shown)/c.json:2:12: error: title: option set address options/set-cf2abf0c/ is also used by \"日本\" (\(shown)/b.json:2); give one of them a different id",
            "\(shown)/e.json:2:12: error: title: option set address options/july-from-chicago/ is also used by \"July from Chicago\" (\(shown)/d.json:2); give one of them a different id",
        ])
    }

    @Test("A game id an option lists and no catalog holds is warned about at the id, as an itinerary's is")
    func unknownGameInAnOption() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n")
        // Loop lists g1 and g2; the catalog holds g1 only.
        try site.write("Data/options/o.json", optionSetJSON())
        try site.write("Data/games/mlb.json", CalendarSubscriptionTests.catalog)
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        let shown = displayPath(site.root) + "/"
        // Each copy of the trip at its own id ("g2" on the second line of each).
        #expect(log.all.map { $0.description.replacingOccurrences(of: shown, with: "") } == [(0, 2), (1, 5)].map { option, line in
            "Data/options/o.json:\(line):148: warning: options[\(option)].stops[0].games[1]: option \"Loop\" of \"July 2026\": no game catalog holds game g2; it still counts among the option's games"
        })
    }
}
