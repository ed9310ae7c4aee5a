import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenOutput
@testable import SitegenRender
import Testing

/// Rebuilds that cost what changed (issue #16): after each kind of change, a rebuild gives
/// the tree a cold build of the same inputs gives, byte for byte; only files whose bytes
/// changed get a new modification time; and the polls whose key did not change are linked
/// from the last build, not rendered.
@Suite("Dependency-aware rebuilds")
struct DependencyRebuildTests {
    static let x7 = "polls/X7K9M2/"
    static let twb = "polls/TWB2AA/"

    /// The golden site with its two polls in two files, a.json (X7K9M2) and b.json (TWB2AA).
    func site() throws -> TemporarySite {
        let site = try CommandLineTests().goldenSite()
        let text = try site.read("Data/polls/polls.json")
        let parts = text.components(separatedBy: "\n  },\n  {\n")
        #expect(parts.count == 2)
        try site.write("Data/polls/a.json", parts[0] + "\n  }\n]\n")
        try site.write("Data/polls/b.json", "[\n  {\n" + parts[1])
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/polls/polls.json"))
        return site
    }

    func build(_ site: TemporarySite, into output: MemoryOutput, date: String? = nil) throws -> BuildReport {
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.siteOutput = output
        options.date = date.flatMap { ExportDateReader(timeZone: .gmt, numericDates: .reference).parse($0) }
        return try SiteBuilder(options: options, log: DiagnosticLog()).run()
    }

    func edit(_ site: TemporarySite, _ path: String, _ change: (String) -> String) throws {
        let before = try site.read(path)
        let after = change(before)
        #expect(after != before, "the edit of \(path) changed nothing")
        try site.write(path, after)
    }

    func remove(_ site: TemporarySite, _ path: String) throws {
        try FileManager.default.removeItem(at: site.root.appendingPathComponent(path))
    }

    /// Builds, applies `change`, rebuilds; checks the tree against a cold build, the new
    /// modification times against the changed bytes, and which files were linked.
    static let trip = "trips/11111111-1111-1111-1111-111111111111/"
    /// The itinerary's keyed files (PlannedFile.key), its calendar included while the build time is the same.
    static let itineraryKept: Set<String> = [trip + "index.html", trip + "calendar.ics", trip + "route.gpx", trip + "preview.png"]

    /// `itinerary`: the itinerary's files the change leaves as they were.
    /// `prepare`: what the site has before the first build, besides the golden site.
    func check(reused expected: (Set<String>) -> Set<String>, date: String? = nil, itinerary: Set<String> = itineraryKept,
               prepare: (TemporarySite) throws -> Void = { _ in },
               sourceLocation: SourceLocation = #_sourceLocation, _ change: (TemporarySite) throws -> Void) throws {
        let site = try site()
        try prepare(site)
        let output = MemoryOutput()
        _ = try build(site, into: output)
        let first = output.files
        #expect(output.reused.isEmpty, sourceLocation: sourceLocation)
        try change(site)
        let report = try build(site, into: output, date: date)
        #expect(!report.upToDate, sourceLocation: sourceLocation)

        let cold = MemoryOutput()
        _ = try build(site, into: cold, date: date)
        #expect(output.files == cold.files, sourceLocation: sourceLocation)
        for path in Set(output.files.keys).union(cold.files.keys).sorted() where output.files[path] != cold.files[path] {
            Issue.record("\(path) differs from a cold build", sourceLocation: sourceLocation)
        }
        let renewed = Set(output.modificationTimes.filter { $0.value == 2 }.keys)
        let changed = Set(output.files.filter { first[$0.key] != $0.value }.keys)
        #expect(renewed == changed, sourceLocation: sourceLocation)
        let pollFiles = Set(first.keys.filter { $0.hasPrefix("polls/") })
        #expect(output.reused.filter { $0.hasPrefix("polls/") } == expected(pollFiles), sourceLocation: sourceLocation)
        #expect(output.reused.filter { $0.hasPrefix("trips/") } == itinerary, sourceLocation: sourceLocation)
    }

    static func of(_ prefix: String) -> (Set<String>) -> Set<String> {
        { files in files.filter { $0.hasPrefix(prefix) } }
    }
    static func none(_ files: Set<String>) -> Set<String> { [] }
    static func all(_ files: Set<String>) -> Set<String> { files }

    @Test("A changed template, partial, stylesheet or site.yml value renders every poll again")
    func globalChanges() throws {
        try check(reused: Self.none, itinerary: []) { try edit($0, "Templates/poll.mustache") { $0 + "<!-- poll -->\n" } }
        try check(reused: Self.none, itinerary: []) { try edit($0, "Templates/partials/trip-card.mustache") { $0 + "<!-- card -->\n" } }
        try check(reused: Self.none, itinerary: []) { try edit($0, "Templates/assets/site.css") { $0 + "\nbody { margin: 0 }\n" } }
        try check(reused: Self.none, itinerary: []) { try edit($0, "site.yml") { $0.replacingOccurrences(of: "title: Golden Trips", with: "title: Silver Trips") } }
    }

    @Test("An edited custom item, convoy, tips file or page text renders no poll again, which shows none of them; a page's title renders them all")
    func inputsNoPollShows() throws {
        // Items show only on their itinerary, which is rendered again.
        try check(reused: Self.all, itinerary: []) {
            try edit($0, "Data/items/items.json") { $0.replacingOccurrences(of: "Hot dogs at Superdawg", with: "Hot dogs at Portillo's") }
        }
        try check(reused: Self.all, itinerary: [], prepare: { try $0.write("Data/convoys/convoy.json", ConvoyExample().json) }) {
            try edit($0, "Data/convoys/convoy.json") { $0.replacingOccurrences(of: "Cubs at Brewers", with: "Cubs at Brewers, take two") }
        }
        let tips = #"[{"category": "budget", "icon": "💸", "title": "Split the gas", "subtitle": "Settle up after each day."}]"#
        try check(reused: Self.all, itinerary: [], prepare: {
            try $0.write("tips.json", tips)
            try edit($0, "site.yml") { $0 + "tips:\n  file: tips.json\n" }
        }) {
            try edit($0, "tips.json") { $0.replacingOccurrences(of: "after each day", with: "every evening") }
        }
        let withPage: (TemporarySite) throws -> Void = {
            try $0.write("Pages/about.md", "---\ntitle: About\nmenu: 1\n---\nWe drive to ballparks.\n")
            try edit($0, "site.yml") { $0 + "pages: Pages\n" }
        }
        try check(reused: Self.all, itinerary: [], prepare: withPage) {
            try edit($0, "Pages/about.md") { $0.replacingOccurrences(of: "We drive to ballparks.", with: "We drive to ballparks, mostly.") }
        }
        // Its title is in every page's navigation.
        try check(reused: Self.none, itinerary: [], prepare: withPage) {
            try edit($0, "Pages/about.md") { $0.replacingOccurrences(of: "title: About", with: "title: About us") }
        }
    }

    @Test("An edited itinerary renders no poll again; a poll whose trip lists an edited game, or loses its itinerary link, renders again, the other is linked")
    func itinerariesAndGames() throws {
        // X7K9M2's first trip is the itinerary's (it links to /trips/1111…/); its second lists
        // g3 and g4. TWB2AA's trips list no game.
        try check(reused: Self.all, itinerary: []) {
            try edit($0, "Data/trips/chicago-milwaukee.json") { $0.replacingOccurrences(of: "\"A: Chicago & Milwaukee\"", with: "\"A: Chicago & Milwaukee, again\"") }
        }
        try check(reused: Self.of(Self.twb), itinerary: []) {
            try edit($0, "Data/games/games.json") { $0.replacingOccurrences(of: "\"startTime\": \"2026-08-08T18:15:00Z\"", with: "\"startTime\": \"2026-08-08T19:15:00Z\"") }
        }
        // A game no poll lists, added to the catalog: the itinerary's calendar and pages are
        // rendered again (they are keyed by every input but polls and votes), no poll.
        try check(reused: Self.all, itinerary: []) {
            try edit($0, "Data/games/games.json") {
                $0.replacingOccurrences(of: "\n]", with: ",\n  {\"id\": \"g9\", \"sport\": \"mlb\", \"awayTeam\": \"KC\", \"homeTeam\": \"DET\", \"startTime\": \"2026-08-20T23:10:00Z\"}\n]")
            }
        }
        try check(reused: Self.of(Self.twb), itinerary: []) { try remove($0, "Data/trips/chicago-milwaukee.json") }
    }

    @Test("Another --date renders the tips again and links every poll")
    func tipsDate() throws {
        try check(reused: Self.all, date: "2026-09-01T00:00:00Z") { _ in }
    }

    @Test("One new ballot renders its poll again and links the other")
    func newBallot() throws {
        try check(reused: Self.of(Self.twb)) {
            try $0.write("Data/votes/new.json", #"[{"id": "a0000000-0000-0000-0000-000000000099", "pollId": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_voter_9", "rankings": [2, 0, 1], "votedAt": "2026-05-06T10:00:00Z", "modifiedAt": "2026-05-06T10:00:00Z"}]"#)
        }
    }

    @Test("An itinerary's page, route and picture are kept, not drawn again, while only ballots change; a template edit redraws them")
    func itineraryKeys() throws {
        let kept = Self.itineraryKept
        let site = try site()
        let output = MemoryOutput()
        _ = try build(site, into: output)
        try newBallot(site)
        _ = try build(site, into: output)
        #expect(output.reused.filter { $0.hasPrefix("trips/") } == kept)
        for (path, change) in [("Templates/itinerary.mustache", { (text: String) in text + "<!-- edited -->\n" }),
                               ("Data/trips/chicago-milwaukee.json", { (text: String) in text.replacingOccurrences(of: "Chicago", with: "Chicagoland") })] {
            try edit(site, path, change)
            _ = try build(site, into: output)
            #expect(output.reused.filter { $0.hasPrefix("trips/") } == [], "\(path)")
            let cold = MemoryOutput()
            _ = try build(site, into: cold)
            #expect(output.files == cold.files, "\(path)")
        }
    }

    @Test("An option set's pages are kept while only ballots change; an edit of the set renders them again")
    func optionSetKeys() throws {
        let site = try site()
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("Data/options"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Repository.fixtures.appendingPathComponent("options/site/Data/options/boundary.json"),
                                         to: site.root.appendingPathComponent("Data/options/boundary.json"))
        let output = MemoryOutput()
        _ = try build(site, into: output)
        let optionPages = Set(output.files.keys.filter { $0.hasPrefix("options/") })
        #expect(optionPages.count == 8)
        try newBallot(site)
        _ = try build(site, into: output)
        #expect(output.reused.filter { $0.hasPrefix("options/") } == optionPages)
        try edit(site, "Data/options/boundary.json") { $0.replacingOccurrences(of: "Boundary <b>trips</b>", with: "Edge <b>trips</b>") }
        _ = try build(site, into: output)
        #expect(output.reused.filter { $0.hasPrefix("options/") } == [])
        let cold = MemoryOutput()
        _ = try build(site, into: cold)
        #expect(output.files == cold.files)
    }

    @Test("The sitemap is kept while the pages are the same; a new page or another baseURL writes it again")
    func sitemap() throws {
        let ballot = #"[{"id": "a0000000-0000-0000-0000-000000000099", "pollId": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_voter_9", "rankings": [2, 0, 1], "votedAt": "2026-05-06T10:00:00Z", "modifiedAt": "2026-05-06T10:00:00Z"}]"#
        let changes: [(String, Bool, (TemporarySite) throws -> Void)] = [
            ("a new ballot", true, { try $0.write("Data/votes/new.json", ballot) }),
            ("a renamed share code", false, { site in
                try edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\"") }
            }),
            ("another baseURL", false, { site in
                try edit(site, "site.yml") { $0.replacingOccurrences(of: "https://example.org/trips/", with: "https://example.net/") }
            }),
        ]
        for (name, kept, change) in changes {
            let site = try site()
            let output = MemoryOutput()
            _ = try build(site, into: output)
            func sitemap(_ output: MemoryOutput) -> String? { output.files[Sitemap.path].map { String(decoding: $0, as: UTF8.self) } }
            let before = try #require(sitemap(output))
            try change(site)
            _ = try build(site, into: output)
            let cold = MemoryOutput()
            _ = try build(site, into: cold)
            #expect(output.reused.contains(Sitemap.path) == kept, "\(name)")
            #expect(sitemap(output) == sitemap(cold), "\(name)")
            #expect((sitemap(output) == before) == kept, "\(name)")
        }
    }

    @Test("An edited poll renders again; the other is linked")
    func editedPoll() throws {
        try check(reused: Self.of(Self.twb)) { try edit($0, "Data/polls/a.json") { $0.replacingOccurrences(of: "Spec example <3 trips>", with: "Spec example <three trips>") } }
    }

    @Test("A deleted poll's files go; the other poll is linked")
    func deletedPoll() throws {
        // b.json held the newest date: the build time, and so the calendar's DTSTAMP, changes.
        try check(reused: Self.of(Self.x7), itinerary: Self.itineraryKept.subtracting([Self.trip + "calendar.ics"])) {
            try remove($0, "Data/polls/b.json")
        }
    }

    @Test("A poll moved to another file, or a ballot moved to another vote file, renders nothing again")
    func moves() throws {
        try check(reused: Self.all) { site in
            let b = try site.read("Data/polls/b.json")
            try edit(site, "Data/polls/a.json") { String($0.dropLast(3)) + ",\n" + String(b.dropFirst(2)) }
            try remove(site, "Data/polls/b.json")
        }
        try check(reused: Self.all) { site in
            let tie = try site.read("Data/votes/tie.json")
            let lines = tie.components(separatedBy: "\n")
            let moved = lines[2]
            try site.write("Data/votes/tie.json", [lines[0], String(lines[1].dropLast())] .joined(separator: "\n") + "\n]\n")
            try edit(site, "Data/votes/spec-example.json") { $0.replacingOccurrences(of: "\n]", with: ",\n" + moved + "\n]") }
        }
    }

    @Test("A renamed share code publishes the poll under its new code and removes the old")
    func renamedShareCode() throws {
        try check(reused: Self.of(Self.twb)) { try edit($0, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\"") } }
    }

    // MARK: On disk

    func buildOnDisk(_ site: TemporarySite, into folder: String = "Output") throws {
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.output = site.root.appendingPathComponent(folder)
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
    }

    func newBallot(_ site: TemporarySite) throws {
        try site.write("Data/votes/new.json", #"[{"id": "a0000000-0000-0000-0000-000000000099", "pollId": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_voter_9", "rankings": [2, 0, 1], "votedAt": "2026-05-06T10:00:00Z", "modifiedAt": "2026-05-06T10:00:00Z"}]"#)
    }

    /// Builds on disk, lets `tamper` touch the output or its state, adds a ballot, rebuilds;
    /// returns the files whose inode changed, after checking the tree against a cold build.
    func relinkedOnDisk(sourceLocation: SourceLocation = #_sourceLocation, _ tamper: (TemporarySite) throws -> Void) throws -> Set<String> {
        let site = try site()
        try buildOnDisk(site)
        let before = try IncrementalTests().identities(site.root.appendingPathComponent("Output"))
        try tamper(site)
        try newBallot(site)
        try buildOnDisk(site)
        try buildOnDisk(site, into: "Cold")
        let after = try IncrementalTests().identities(site.root.appendingPathComponent("Output"))
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == fileTree(site.root.appendingPathComponent("Cold")),
                sourceLocation: sourceLocation)
        return Set(after.filter { before[$0.key]?.inode != $0.value.inode }.keys)
    }

    @Test("On disk, one new ballot links the other poll's files: same inode, same mtime")
    func newBallotOnDisk() throws {
        let renewed = try relinkedOnDisk { _ in }
        // What the ballot changes: its poll's page, results and picture (the voter count), the home page, the manifest.
        #expect(renewed == ["index.html", "manifest.json", "polls/X7K9M2/index.html", "polls/X7K9M2/preview.png", "polls/X7K9M2/results.json"])
    }

    @Test("A published file touched since the last build, or a state with other poll keys, is rendered again, not linked blindly")
    func tamperedOnDisk() throws {
        let touched = try relinkedOnDisk { site in
            let page = site.root.appendingPathComponent("Output/polls/TWB2AA/index.html")
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: page.path)
        }
        #expect(touched.contains("polls/TWB2AA/index.html"))
        // A file deeper in the poll's folder (the files of a poll are looked up from its
        // folder, OutputFolder.SharedFolder), and one deleted.
        let deep = try relinkedOnDisk { site in
            let page = site.root.appendingPathComponent("Output/polls/TWB2AA/trips/2/index.html")
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: page.path)
        }
        #expect(deep.contains("polls/TWB2AA/trips/2/index.html"))
        let deleted = try relinkedOnDisk { site in
            try FileManager.default.removeItem(at: site.root.appendingPathComponent("Output/polls/TWB2AA/least-miles/index.html"))
        }
        #expect(deleted.contains("polls/TWB2AA/least-miles/index.html"))
        let foreign = try relinkedOnDisk { site in
            let state = BuildState.url(for: site.root.appendingPathComponent("Output"))
            var lines = try String(contentsOf: state, encoding: .utf8).components(separatedBy: "\n")
            let keys = try #require(lines[0].range(of: #""pollKeys": \[[^\]]*\]"#, options: .regularExpression))
            lines[0].replaceSubrange(keys, with: #""pollKeys": ["from another sitegen"]"#)
            try Data(lines.joined(separator: "\n").utf8).write(to: state)
        }
        // Rendered again, each file is still linked when its bytes are the recorded ones.
        #expect(foreign == ["index.html", "manifest.json", "polls/X7K9M2/index.html", "polls/X7K9M2/preview.png", "polls/X7K9M2/results.json"])
    }

    // MARK: --changes

    @Test("--changes lists added, changed and removed paths in path order, and is empty when nothing changed")
    func changesFile() throws {
        let site = try site()
        let changes = site.root.appendingPathComponent("changes.txt")
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.changesFile = changes
        func build() throws -> [String] {
            _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
            return try String(contentsOf: changes, encoding: .utf8).components(separatedBy: "\n")
        }
        let first = try build()
        let tree = try fileTree(site.root.appendingPathComponent("Output"))
        #expect(first == tree.keys.sorted().map { "A " + $0 } + [""])
        #expect(try build() == [""])
        try edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\"") }
        let renamed = try build()
        let old = tree.keys.filter { $0.hasPrefix(Self.x7) }.sorted()
        #expect(renamed.filter { $0.hasPrefix("D ") } == old.map { "D " + $0 })
        #expect(renamed.filter { $0.hasPrefix("A ") } == old.map { "A " + $0.replacingOccurrences(of: "X7K9M2", with: "X7K9M3") })
        #expect(renamed.filter { $0.hasPrefix("M ") } == ["M index.html", "M manifest.json", "M sitemap.xml"])
        let paths = renamed.dropLast().map { String($0.dropFirst(2)) }
        #expect(renamed.last == "")
        #expect(paths == paths.sorted())
    }

    @Test("--changes never writes over a published page, sitegen's record, an export, a template or site.yml")
    func changesFileRefused() throws {
        let site = try site()
        try buildOnDisk(site)
        let before = try fileTree(site.root)
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("linked.txt"),
                                                   withDestinationURL: site.root.appendingPathComponent("Output/index.html"))
        for (target, why) in [
            ("Output/index.html", "it is in the output folder Output, or one of sitegen's files beside it"),
            ("Output/new.txt", "it is in the output folder Output, or one of sitegen's files beside it"),
            (".Output.sitegen-state.json", "it is in the output folder Output, or one of sitegen's files beside it"),
            ("linked.txt", "it is in the output folder Output, or one of sitegen's files beside it"),
            ("Data/polls/a.json", "it is in Data/polls, which sitegen reads"),
            ("Templates/home.mustache", "it is in Templates, which sitegen reads"),
            ("site.yml", "it is the site configuration"),
            // Said before the build, not as Foundation's "The file doesn't exist." after it.
            ("nodir/changes.txt", "its folder nodir does not exist"),
        ] {
            var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
            options.changesFile = site.root.appendingPathComponent(target)
            do {
                _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
                Issue.record("--changes \(target) was written")
            } catch let failure as BuildFailure {
                #expect(failure.exitStatus == 2)
                guard case .configuration(let problems) = failure, let diagnostic = problems.first else { Issue.record("\(failure)"); continue }
                let shown = diagnostic.message.replacingOccurrences(of: displayPath(site.root) + "/", with: "")
                #expect(shown == "--changes cannot write here: \(why)", "\(target)")
            }
        }
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("linked.txt"))
        #expect(try fileTree(site.root) == before)
    }

    @Test("A build that finishes a killed rebuild's moves lists that rebuild's changes, even when nothing else changed")
    func changesOfAKilledBuild() throws {
        let site = try site()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.changesFile = site.root.appendingPathComponent("changes.txt")
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        // What a rebuild killed after moving its files in leaves: its journal, with its list.
        try site.write(".Output.sitegen-journal", "sitegen-journal 2\nC \"M polls/X7K9M2/index.html\"\nC \"A polls/X7K9M2/new.json\"\n")
        let report = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        #expect(report.upToDate)
        #expect(try String(contentsOf: options.changesFile!, encoding: .utf8) == "M polls/X7K9M2/index.html\nA polls/X7K9M2/new.json\n")
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        #expect(try String(contentsOf: options.changesFile!, encoding: .utf8) == "", "listed once")
    }

    @Test("A --changes file that cannot be written stops the build before it publishes: the site is as it was, and the next build lists the change")
    func changesFileUnwritable() throws {
        let site = try site()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        let before = try fileTree(site.root.appendingPathComponent("Output"))
        try edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\"") }
        options.changesFile = site.root.appendingPathComponent("no-such-folder/changes.txt")
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options, log: DiagnosticLog()).run() }
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == before, "nothing was published")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("sitegen-tmp") } == [])
        options.changesFile = site.root.appendingPathComponent("changes.txt")
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        let lines = try String(contentsOf: options.changesFile!, encoding: .utf8).components(separatedBy: "\n")
        #expect(lines.contains("A polls/X7K9M3/index.html") && lines.contains("D polls/X7K9M2/index.html"))
    }
}
