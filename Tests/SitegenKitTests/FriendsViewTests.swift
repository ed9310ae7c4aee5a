import Foundation
@testable import SitegenCore
@testable import SitegenKit
import Testing

/// The golden site as friends read it: itineraries reachable from the home page, a poll's
/// trip that is also a saved itinerary, and a poll nobody has voted in (docs/rules.md).
@Suite("What friends see: itineraries, poll trips, the empty poll")
struct FriendsViewTests {
    static let savedTrip = "trips/11111111-1111-1111-1111-111111111111/"

    /// Builds the golden site, after `change` edits its inputs; returns the output as text.
    func build(_ change: (TemporarySite) throws -> Void = { _ in }) throws -> (tree: [String: String], log: DiagnosticLog) {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        try change(site)
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        let tree = try fileTree(site.root.appendingPathComponent("Output"))
        return (tree.mapValues { String(decoding: $0, as: UTF8.self) }, log)
    }

    @Test("The home page lists each itinerary with its name, dates, cities and games")
    func homeItineraries() throws {
        let home = try #require(try build().tree["index.html"])
        #expect(home.contains("""
        <section aria-labelledby="itineraries-heading">
          <h2 id="itineraries-heading">Itineraries</h2>
          <ul class="card-list">
            <li class="card">
              <h3 class="card-title" dir="auto"><a href="\(Self.savedTrip)">A: Chicago &amp; Milwaukee</a></h3>
              <p class="meta">Aug 1 – 3, 2026 · 2 cities · 2 games</p>
              <p class="route">Chicago → Milwaukee</p>
            </li>
          </ul>
        </section>
        """))
    }

    @Test("A poll trip with a saved itinerary's id: no custom items on the poll page, a link to the itinerary, which has them")
    func pollTripSharingAnItinerarysId() throws {
        let (tree, log) = try build()
        #expect(log.all.isEmpty)
        let pollTrip = try #require(tree["polls/X7K9M2/trips/1/index.html"])
        for item in ["Superdawg", "Pfister", "entry-item", "Restaurant", "Hotel"] {
            #expect(!pollTrip.contains(item), "the poll's trip page shows \(item)")
        }
        #expect(pollTrip.contains("<a href=\"../../../../\(Self.savedTrip)\">see the saved itinerary</a>"))
        #expect(pollTrip.contains("<a class=\"button\" href=\"../../../../\(Self.savedTrip)calendar.ics\">"))
        let saved = try #require(tree[Self.savedTrip + "index.html"])
        #expect(saved.contains("<p class=\"entry-title\">Hot dogs at Superdawg</p>"))
        #expect(saved.contains("<p class=\"entry-title\">Check in: The Pfister</p>"))
        #expect(!saved.contains("see the saved itinerary"))
        // A poll's trip without a saved itinerary links to none.
        #expect(!(try #require(tree["polls/X7K9M2/trips/2/index.html"])).contains("saved itinerary"))
    }

    @Test("Items of a trip exported only in a poll are published nowhere, with a warning that says why")
    func itemsOfAPollOnlyTrip() throws {
        let (tree, log) = try build { site in
            try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/trips"))
        }
        #expect(log.all.map(\.message) == [
            "item \"Hot dogs at Superdawg\" (item-1) belongs to trip 11111111-1111-1111-1111-111111111111, which is exported only in a poll, and poll pages do not show custom items; export the trip as an itinerary to publish it; it is ignored",
            "item \"Check in: The Pfister\" (item-2) belongs to trip 11111111-1111-1111-1111-111111111111, which is exported only in a poll, and poll pages do not show custom items; export the trip as an itinerary to publish it; it is ignored",
        ])
        #expect(tree.values.allSatisfy { !$0.contains("Superdawg") })
    }

    @Test("A poll with no counted ballot: no rank badges, no bars, no \"1st\"; it says nobody has voted yet")
    func emptyPoll() throws {
        let (tree, _) = try build { site in
            try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/votes"))
        }
        let page = try #require(tree["polls/X7K9M2/index.html"])
        #expect(page.contains("<p class=\"voters\"><strong>Nobody has voted yet.</strong></p>"))
        #expect(page.contains("<p class=\"callout\">No trip is ahead yet: until a ballot is counted, the trips are listed in the poll's order.</p>"))
        for absent in ["class=\"badge", "class=\"bar\"", "1st", "2nd", "Tied", "points", "is-first", "<ol class=\"results\">", "tie for first"] {
            #expect(!page.contains(absent), "the empty poll's page shows \(absent)")
        }
        let names = page.components(separatedBy: "<p class=\"result-name\" dir=\"auto\"><a href=\"").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(names == ["../../polls/X7K9M2/trips/1/\">A: Chicago &amp; Milwaukee", "../../polls/X7K9M2/trips/2/\">B: St. Louis",
                          "../../polls/X7K9M2/trips/3/\">C: Kansas City"])
        #expect(page.contains("<ul class=\"results\">"))
        // results.json keeps its usual shape: every trip at 0 points is rank 1 and tied
        // (competition ranking), share 0, no breakdown; voters 0 says nobody voted.
        let json = try JSONSerialization.jsonObject(with: Data(try #require(tree["polls/X7K9M2/results.json"]).utf8)) as! [String: Any]
        #expect(json["voters"] as? Int == 0)
        #expect(json["headToHeadWinner"] is NSNull)
        let results = json["results"] as! [[String: Any]]
        #expect(results.map { $0["trip"] as! Int } == [1, 2, 3])
        #expect(results.map { $0["rank"] as! Int } == [1, 1, 1])
        #expect(results.map { $0["tied"] as! Bool } == [true, true, true])
        #expect(results.map { $0["points"] as! Int } == [0, 0, 0])
        #expect(results.map { $0["share"] as! Double } == [0, 0, 0])
        #expect(results.allSatisfy { $0["rankCounts"] is NSNull })
        #expect(tree["index.html"]!.contains("<p class=\"leader\">No votes yet</p>"))
    }

    @Test("A poll whose every ballot was set aside says so wherever it says nobody has voted")
    func everyBallotSetAside() throws {
        // Friends ranked two trips, then the organiser added a third: "Nobody has voted
        // yet." told the friends who voted that nobody had.
        let (tree, _) = try build { site in
            try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/votes"))
            try site.write("Data/votes/before-the-third-trip.json", """
                [{"id": "a0000000-0000-0000-0000-000000000001", "pollId": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "v1", "rankings": [0, 1], "votedAt": "2026-05-03T10:00:00Z", "modifiedAt": "2026-05-03T10:00:00Z"},
                 {"id": "a0000000-0000-0000-0000-000000000002", "pollId": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "v2", "rankings": [1, 0], "votedAt": "2026-05-03T11:00:00Z", "modifiedAt": "2026-05-03T11:00:00Z"}]
                """)
        }
        let page = try #require(tree["polls/X7K9M2/index.html"])
        #expect(page.contains("<p class=\"voters\"><strong>Nobody has voted yet on all 3 trips: 2 ballots were set aside because they did not rank every trip exactly once.</strong></p>"))
        // Said once: not again under the list.
        // The sentence, three descriptions (meta, og, twitter) and two image alts (og, twitter).
        #expect(page.components(separatedBy: "set aside").count == 1 + 6)
        #expect(page.contains("<meta name=\"description\" content=\"3 trip options; 2 ballots set aside, none counted yet.\">"))
        #expect(page.contains("<meta property=\"og:image:alt\" content=\"Spec example &lt;3 trips&gt;. Poll standings: 2 ballots set aside, none counted yet.\">"))
        #expect(tree["index.html"]!.contains("<p class=\"leader\">2 ballots set aside, none counted yet</p>"))
    }
}
