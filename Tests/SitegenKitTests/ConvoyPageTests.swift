import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenModel
import Testing

/// A site holding only convoy exports, built with the repository's templates.
struct ConvoySite {
    let site: TemporarySite
    let log: DiagnosticLog
    let failure: BuildFailure?

    init(convoys: [String: String]) throws {
        site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: Convoy Test\ntimeZone: America/Chicago\n")
        for (name, json) in convoys { try site.write("Data/convoys/\(name)", json) }
        log = DiagnosticLog()
        do {
            _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
            failure = nil
        } catch {
            failure = error
        }
    }

    /// Where ConvoyExample's page is written.
    static let examplePage = "convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/index.html"

    init(example: ConvoyExample) throws {
        try self.init(convoys: ["convoy.json": example.json])
    }

    func page(_ path: String) throws -> String {
        try site.read("Output/\(path)")
    }

    /// The diagnostics as printed, with the temporary folder shown as `SITE`.
    var diagnostics: [String] {
        log.all.map { $0.description.replacingOccurrences(of: site.root.path, with: "SITE") }
    }
}

@Suite("Convoy pages (docs/rules.md, docs/pages.md)")
struct ConvoyPageTests {
    static let privateFixture = Repository.fixtures.appendingPathComponent("convoys/private-ids.json")

    @Test("Each status gets its badge, in words", arguments: ConvoyStatus.allCases)
    func statusBadge(status: ConvoyStatus) throws {
        var example = ConvoyExample()
        example["status"] = status.rawValue
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<span class=\"status-badge status-\(status.rawValue)\">\(status.label)</span>"))
        // Only a draft shows the readiness checklist.
        #expect(page.contains("<h2 id=\"readiness-heading\">Ready to go?</h2>") == (status == .draft))
        let home = try built.page("index.html")
        #expect(home.contains("<a href=\"convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/\">Cubs at Brewers</a>"))
        #expect(home.contains("<span class=\"status-badge status-\(status.rawValue)\">\(status.label)</span> · 1 vehicle"))
    }

    @Test("The route: origin, checkpoints by order, destination, distance and duration")
    func route() throws {
        let page = try ConvoySite(example: ConvoyExample()).page(ConvoySite.examplePage)
        #expect(page.contains("<p class=\"convoy-route\">Union Station → Wrigley Field → Cheese Castle → American Family Field</p>"))
        #expect(page.contains("<li>105 mi</li><li>1 h 44 min driving</li>"))
        #expect(!page.contains("Route not computed yet."))
        let kinds = page.components(separatedBy: "<span class=\"stop-kind\">").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(kinds == ["Start", "Stop 1", "Stop 2", "Destination"])
        #expect(page.contains("<div class=\"prose small\"><p>Twenty minutes.</p>\n</div>"))
        #expect(page.contains("<div class=\"prose\"><p>Wheels up at <em>2 PM</em>.</p>\n</div>"))
    }

    @Test("A draft with no destination, checkpoint, route or driver: each item shows \"Not yet\" in words")
    func draftChecklist() throws {
        var example = ConvoyExample()
        example["destination"] = NSNull()
        example["checkpoints"] = [Any]()
        example["route"] = NSNull()
        example["vehicles"] = [["id": "v", "label": "Rental van", "capacity": 15, "passengerIds": ["p-alex"]]]
        example["leaderVehicleId"] = NSNull()
        let built = try ConvoySite(example: example)
        #expect(built.diagnostics == [])
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<p>0 of 4 done.</p>"))
        for requirement in ["Destination set", "At least one checkpoint", "Route computed", "At least one vehicle with a driver"] {
            #expect(page.contains("<li class=\"is-missing\"><span class=\"check-requirement\">\(requirement)</span> <span class=\"check-state\"><span aria-hidden=\"true\">✗ </span>Not yet</span></li>"))
        }
        #expect(page.contains("<p class=\"convoy-route\">Union Station → destination not set yet</p>"))
        #expect(page.contains("<span class=\"stop-name muted\">Not set yet</span>"))
        #expect(page.contains("<p class=\"callout\">Route not computed yet.</p>"))
        #expect(page.contains("<dd class=\"muted\">No driver yet</dd>"))
        #expect(page.contains("<p class=\"seats\">1 of 15 seats · 14 seats free</p>"))
    }

    @Test("Headings in notes sit below the heading of their part of the page: a # in a vehicle's notes is an h4")
    func headingsInNotes() throws {
        var example = ConvoyExample()
        example["notes"] = "# Plan\n\nMeet early."
        example.changeVehicle { $0["notes"] = "# Packing\n\n## Roof box\n\nSkis only." }
        let page = try ConvoySite(example: example).page(ConvoySite.examplePage)
        #expect(page.contains("<div class=\"prose\"><h2>Plan</h2>\n<p>Meet early.</p>\n</div>"))
        #expect(page.contains("<div class=\"prose small\"><h4>Packing</h4>\n<h5>Roof box</h5>\n<p>Skis only.</p>\n</div>"))
        #expect(page.components(separatedBy: "<h1").count == 2)
    }

    @Test("Names in the order people count: numbers as numbers, letters without case")
    func naturalOrder() {
        let names = ["Convoy 10", "convoy 2", "Convoy 1", "Convoy 02b", "Convoy", "Bus", "Convoy 2a", "Convoy 100"]
        #expect(names.sorted(by: NaturalOrder.precedes) == ["Bus", "Convoy", "Convoy 1", "convoy 2", "Convoy 2a", "Convoy 02b", "Convoy 10", "Convoy 100"])
        #expect(NaturalOrder.compare("Car 007", "car 7") == 0)
    }

    @Test("The home page lists convoys on the road first, cancelled last, each group by title as people count")
    func homeOrder() throws {
        var convoys: [String: String] = [:]
        for (index, (title, status)) in [("Convoy 10", "active"), ("Convoy 2", "active"), ("Ski run", "cancelled"),
                                         ("Convoy 1", "completed"), ("Airport", "draft"), ("Beach", "ready")].enumerated() {
            var example = ConvoyExample()
            example["id"] = "c\(index)"
            example["title"] = title
            example["status"] = status
            convoys["c\(index).json"] = example.json
        }
        let home = try ConvoySite(convoys: convoys).page("index.html")
        let order = ["Convoy 2", "Convoy 10", "Beach", "Airport", "Convoy 1", "Ski run"].map { home.range(of: ">\($0)</a></h3>")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
    }

    @Test("A convoy nobody has joined says so under People, not an empty heading")
    func nobodyJoined() throws {
        var example = ConvoyExample()
        example["participants"] = []
        example.changeVehicle { $0["driverId"] = nil; $0["passengerIds"] = [] }
        let page = try ConvoySite(example: example).page(ConvoySite.examplePage)
        #expect(page.contains("<h2 id=\"people-heading\">People</h2>\n    <p class=\"callout\">Nobody has joined yet.</p>"))
        #expect(!(try ConvoySite(example: ConvoyExample()).page(ConvoySite.examplePage)).contains("Nobody has joined yet."))
    }

    @Test("A complete draft ticks every item with \"Done\"")
    func completeDraft() throws {
        let page = try ConvoySite(example: ConvoyExample()).page(ConvoySite.examplePage)
        #expect(page.contains("<p>Everything is in place: this draft is ready to go.</p>"))
        #expect(page.contains("<li class=\"is-done\"><span class=\"check-requirement\">Route computed</span> <span class=\"check-state\"><span aria-hidden=\"true\">✓ </span>Done</span></li>"))
        #expect(!page.contains("Not yet"))
    }

    @Test("A missing destination outside a draft is a positioned warning, and the page says so")
    func missingDestination() throws {
        var example = ConvoyExample()
        example["status"] = "active"
        example["destination"] = NSNull()
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        #expect(built.diagnostics == [
            "SITE/Data/convoys/convoy.json:1:1: warning: status: a convoy that is active fails the readiness checklist (not done: destination set); the page shows the checklist",
        ])
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<span class=\"stop-kind\">Destination</span>\n        <span class=\"stop-name muted\">Not set yet</span>"))
        #expect(page.contains("<p>This convoy is marked active, but only 3 of 4 are done.</p>"))
    }

    @Test("A completed convoy without a destination keeps the destination warning, and shows no checklist")
    func completedWithoutDestination() throws {
        var example = ConvoyExample()
        example["status"] = "completed"
        example["destination"] = NSNull()
        let built = try ConvoySite(example: example)
        #expect(built.diagnostics == [
            "SITE/Data/convoys/convoy.json:1:1: warning: destination: a convoy that is completed has no destination; the page shows \"Destination not set yet\"",
        ])
        #expect(!(try built.page(ConvoySite.examplePage)).contains("readiness-heading"))
    }

    @Test("A ready convoy with no driver: a warning, and the page shows the checklist with the driver \"Not yet\"")
    func readyWithoutDriver() throws {
        var example = ConvoyExample()
        example["status"] = "ready"
        example.changeVehicle { $0["driverId"] = nil }
        let built = try ConvoySite(example: example)
        #expect(built.diagnostics == [
            "SITE/Data/convoys/convoy.json:1:1: warning: status: a convoy that is ready fails the readiness checklist (not done: at least one vehicle with a driver); the page shows the checklist",
        ])
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<h2 id=\"readiness-heading\">Ready to go?</h2>\n    <p>This convoy is marked ready, but only 3 of 4 are done.</p>"))
        #expect(page.contains("<li class=\"is-missing\"><span class=\"check-requirement\">At least one vehicle with a driver</span> <span class=\"check-state\"><span aria-hidden=\"true\">✗ </span>Not yet</span></li>"))
    }

    @Test("Someone in two cars: a warning at the second car, and the page says so in words")
    func twoCars() throws {
        var example = ConvoyExample()
        var vehicles = example["vehicles"] as! [[String: Any]]
        vehicles.append(["id": "v2", "label": "Bea's Jeep", "driverId": "p-bea", "capacity": 5, "passengerIds": ["p-alex"]])
        example["vehicles"] = vehicles
        let built = try ConvoySite(example: example)
        let line = example.line(of: "\"capacity\" : 5") - 1   // the vehicle's "{" is on the line before
        #expect(built.diagnostics == [
            "SITE/Data/convoys/convoy.json:\(line):5: warning: vehicles[1]: \"Alex K.\" is seated in more than one vehicle: \"Maya's Odyssey\" (passenger) and \"Bea's Jeep\" (passenger); a person rides in one vehicle",
            "SITE/Data/convoys/convoy.json:\(line):5: warning: vehicles[1]: \"Bea L.\" is seated in more than one vehicle: \"Maya's Odyssey\" (passenger) and \"Bea's Jeep\" (driver); a person rides in one vehicle",
        ])
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<p class=\"callout\">Alex K. is listed in more than one vehicle: Maya&#39;s Odyssey and Bea&#39;s Jeep.</p>"))
    }

    @Test("Someone listed twice in one car takes one seat: not \"Full\" while a seat is free, and the note names the car once")
    func twiceInOneCar() throws {
        var example = ConvoyExample()
        // The driver also among the passengers, and a passenger listed twice.
        example.changeVehicle { $0["passengerIds"] = ["p-maya", "p-alex", "p-alex"] }
        let built = try ConvoySite(example: example)
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<p class=\"seats\">2 of 4 seats · 2 seats free</p>"))
        #expect(!page.contains("chip-full"))
        #expect(page.contains("<dt>Driver</dt>\n          <dd>Maya R.</dd>"))
        #expect(page.components(separatedBy: "<dd>Alex K.</dd>").count == 2 && !page.contains("<dd>Maya R.</dd>\n          <dd>"))
        #expect(page.contains("<p class=\"callout\">Maya R. is listed twice in Maya&#39;s Odyssey; one seat is counted.</p>"))
        #expect(page.contains("<p class=\"callout\">Alex K. is listed twice in Maya&#39;s Odyssey; one seat is counted.</p>"))
        // On stderr too the car is named once ("Maya's Odyssey" (driver) and "Maya's Odyssey" (passenger) read as two cars).
        #expect(built.diagnostics.map { $0.components(separatedBy: "warning: ").last! } == [
            "vehicles[0]: \"Alex K.\" is listed twice in \"Maya's Odyssey\" (passenger); one seat is counted",
            "vehicles[0]: \"Maya R.\" is listed twice in \"Maya's Odyssey\" (driver and passenger); one seat is counted",
        ])
    }

    @Test("The route picture: start S, destination D, drawn like an itinerary's; places without coordinates are named")
    func routePicture() throws {
        let page = try ConvoySite(example: ConvoyExample()).page(ConvoySite.examplePage)
        #expect(page.contains("<svg viewBox=\"0 0 420 280\" role=\"img\" aria-labelledby=\"route-title route-desc\">"))
        #expect(page.contains("<title id=\"route-title\">Route map of Cubs at Brewers</title>"))
        let description = "Start, stops and destination in order: Union Station → American Family Field. Not drawn (no coordinates): Wrigley Field and Cheese Castle."
        #expect(page.contains("<desc id=\"route-desc\">\(description)</desc>"))
        #expect(page.contains("<figcaption>\(description)</figcaption>"))
        let markers = page.components(separatedBy: "<text class=\"route-number\"").dropFirst().map { $0.split(separator: ">")[1].prefix { $0 != "<" } }
        #expect(markers == ["S", "D"])
        let picture = try #require(RoutePicture.make(places: [
            RoutePicture.Place(name: "Union Station", marker: "S", latitude: 41.8787, longitude: -87.6403),
            RoutePicture.Place(name: "American Family Field", marker: "D", latitude: 43.028, longitude: -87.9712),
        ]))
        #expect(page.contains("<polyline class=\"route-line\" points=\"\(picture.polyline)\"/>"))
        // With one place or none that has coordinates there is no route to draw.
        var example = ConvoyExample()
        example["destination"] = ["name": "American Family Field"]
        #expect(!(try ConvoySite(example: example).page(ConvoySite.examplePage)).contains("<svg"))
    }

    @Test("A full vehicle says \"Full\" and shows the seats in words; the leader is marked")
    func fullVehicle() throws {
        var example = ConvoyExample()
        example.changeVehicle { $0["capacity"] = 3 }
        let page = try ConvoySite(example: example).page(ConvoySite.examplePage)
        #expect(page.contains("<li class=\"card vehicle is-full\">"))
        #expect(page.contains("<h3 class=\"card-title\" dir=\"auto\">Maya&#39;s Odyssey <span class=\"chip chip-leader\">Leader</span> <span class=\"chip chip-full\">Full</span></h3>"))
        #expect(page.contains("<div class=\"bar seat-bar\" aria-hidden=\"true\"><span style=\"width: 100.0%\"></span></div>"))
        #expect(page.contains("<p class=\"seats\">3 of 3 seats</p>"))
        #expect(page.contains("<dt>Driver</dt>\n          <dd>Maya R.</dd>"))
        #expect(page.contains("<dd>Alex K.</dd>") && page.contains("<dd>Bea L.</dd>"))
    }

    @Test("An over-capacity vehicle is shown as such and warned about at the vehicle, by label")
    func overCapacity() throws {
        var example = ConvoyExample()
        example.changeVehicle { $0["capacity"] = 2 }
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        let line = example.line(of: "\"capacity\" : 2") - 1   // the vehicle's "{" is on the line before
        #expect(built.diagnostics == [
            "SITE/Data/convoys/convoy.json:\(line):5: warning: vehicles[0]: vehicle \"Maya's Odyssey\" is over capacity: 3 people for 2 seats",
        ])
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<li class=\"card vehicle is-over\">"))
        #expect(page.contains("<p class=\"seats\">3 of 2 seats — over capacity</p>"))
        #expect(page.contains("<span style=\"width: 100.0%\"></span>"))
        #expect(!page.contains("chip-full"))
    }

    @Test("Participants by role with their status; the unseated who are coming still need a seat")
    func participants() throws {
        var example = ConvoyExample()
        var people = example["participants"] as! [[String: Any]]
        people.append(["id": "p-riley", "displayName": "Riley B.", "role": "passenger", "status": "joined"])
        people.append(["id": "p-joe", "displayName": "Grandpa Joe", "role": "viewer", "status": "joined"])
        people.append(["id": "p-chris", "displayName": "Chris N.", "role": "passenger", "status": "declined"])
        example["participants"] = people
        let page = try ConvoySite(example: example).page(ConvoySite.examplePage)
        let needsSeat = try #require(page.components(separatedBy: "<div class=\"callout needs-seat\">").dropFirst().first?
            .components(separatedBy: "</div>").first)
        #expect(needsSeat.contains("<h3>Still needs a seat (1)</h3>"))
        #expect(needsSeat.contains("<li><span class=\"person-name\">Riley B.</span> <span class=\"person-status status-joined\">Joined</span></li>"))
        #expect(!needsSeat.contains("Grandpa Joe") && !needsSeat.contains("Chris N."))
        let headings = page.components(separatedBy: "<div class=\"role-group\">\n        <h3>").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(headings == ["Owner (1)", "Passengers (4)", "Viewer (1)"])
        #expect(page.contains("<span class=\"person-name\">Bea L.</span> <span class=\"person-status status-invited\">Invited</span>"))
        #expect(page.contains("<span class=\"person-name\">Chris N.</span> <span class=\"person-status status-declined\">Declined</span>"))
    }

    @Test("Someone who declined but holds a seat is marked so in the vehicle; a car its driver fills has no seat to wait for")
    func declinedRiderMarked() throws {
        var example = ConvoyExample()
        var people = example["participants"] as! [[String: Any]]
        people[2]["status"] = "declined"
        people.append(["id": "p-solo", "displayName": "سامي", "role": "driver", "status": "declined"])
        example["participants"] = people
        var vehicles = example["vehicles"] as! [[String: Any]]
        vehicles.append(["id": "v2", "label": "Roadster", "driverId": "p-solo", "capacity": 1, "passengerIds": [String]()])
        example["vehicles"] = vehicles
        let page = try ConvoySite(example: example).page(ConvoySite.examplePage)
        // Bea declined: the Odyssey read as if she were coming.
        #expect(page.contains("<dd>Bea L. (declined)</dd>"))
        #expect(page.contains("<dd>Alex K.</dd>"))
        // A right-to-left name keeps its own direction, the mark after it.
        #expect(page.contains("<dd>\u{2068}سامي\u{2069} (declined)</dd>"))
        #expect(page.contains("<dd class=\"muted\">No seat for one</dd>"))
        #expect(!page.contains("None yet"))
    }

    @Test("An unknown driver id is a clear warning, not a crash; the page says \"Unknown driver\", never the id")
    func unknownDriver() throws {
        var example = ConvoyExample()
        example.changeVehicle { vehicle in
            vehicle["driverId"] = "p-nobody-7731"
            vehicle["passengerIds"] = ["p-alex", "p-ghost-4410"]
        }
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        let line = example.line(of: "\"capacity\" : 4") - 1
        #expect(built.diagnostics == [
            "SITE/Data/convoys/convoy.json:\(line):5: warning: vehicles[0].driverId: vehicle \"Maya's Odyssey\": the driver matches no participant; the page shows \"Unknown driver\"",
            "SITE/Data/convoys/convoy.json:\(line):5: warning: vehicles[0].passengerIds[1]: vehicle \"Maya's Odyssey\": a passenger matches no participant; the page shows \"Unknown passenger\"",
        ])
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("<dt>Driver</dt>\n          <dd>Unknown driver</dd>"))
        #expect(page.contains("<dd>Unknown passenger</dd>"))
        #expect(!page.contains("p-nobody-7731") && !page.contains("p-ghost-4410"))
        // Maya and Bea are in no vehicle now, so they still need a seat.
        #expect(page.contains("<h3>Still needs a seat (2)</h3>"))
    }

    @Test("An unsafe id is an error at its line and column, and nothing is built")
    func unsafeId() throws {
        let built = try ConvoySite(convoys: ["bad.json": "[\n  {\"id\": \"../escape\", \"title\": \"X\", \"status\": \"draft\", \"origin\": {\"name\": \"A\"}, \"createdAt\": 0, \"modifiedAt\": 0}\n]\n"])
        #expect(built.diagnostics == [
            "SITE/Data/convoys/bad.json:2:10: error: [0].id: convoy id \"../escape\" must be a UUID or 1 to 64 characters from A-Z, a-z, 0-9, _ and - (it becomes a URL path segment)",
        ])
        guard case .inputErrors(count: 1) = built.failure else {
            Issue.record("expected one input error, got \(String(describing: built.failure))")
            return
        }
    }

    @Test("Two convoys with the same id (ignoring case) are an error naming the first")
    func clashingIds() throws {
        var first = ConvoyExample(), second = ConvoyExample()
        first["id"] = "lake-trip"
        second["id"] = "LAKE-TRIP"
        second["title"] = "Second"
        let built = try ConvoySite(convoys: ["a.json": first.json, "b.json": second.json])
        #expect(built.diagnostics == [
            "SITE/Data/convoys/b.json:1:1: error: id: convoy id LAKE-TRIP is also used by \"Cubs at Brewers\" (SITE/Data/convoys/a.json:1)",
        ])
    }

    @Test("No participant, driver or passenger id, and nothing from the invitations, appears in any output file")
    func privacy() throws {
        let json = try String(contentsOf: Self.privateFixture, encoding: .utf8)
        let built = try ConvoySite(convoys: ["private-ids.json": json])
        #expect(built.failure == nil)
        #expect(built.diagnostics == [
            "SITE/Data/convoys/private-ids.json:14:7: warning: [0].vehicles[0].passengerIds[1]: vehicle \"Blue Wagon\": a passenger matches no participant; the page shows \"Unknown passenger\"",
            "SITE/Data/convoys/private-ids.json:22:7: warning: [0].vehicles[1].driverId: vehicle \"Red Coupe\": the driver matches no participant; the page shows \"Unknown driver\"",
        ])
        let secrets = try Self.privateValues(in: Data(json.utf8))
        #expect(secrets.count == 20)
        let tree = try fileTree(built.site.root.appendingPathComponent("Output"))
        #expect(tree.keys.contains("convoys/road-trip_2026/index.html"))
        for (path, data) in tree.sorted(by: { $0.key < $1.key }) {
            let text = String(decoding: data, as: UTF8.self)
            for secret in secrets {
                #expect(!text.localizedCaseInsensitiveContains(secret), "\(path) contains the private value \(secret)")
            }
        }
        // What may be published is: names, escaped, and the convoy's own text.
        let page = try built.page("convoys/road-trip_2026/index.html")
        #expect(page.contains("<h1 dir=\"auto\">Lakefront &lt;Convoy&gt; &amp; Friends</h1>"))
        #expect(page.contains("<dd>Ada &lt;b&gt;L.&lt;/b&gt;</dd>"))
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("javascript:"))
    }

    @Test("The sample convoys build: one warning for the over-full car, and no private value in any file")
    func sampleConvoys() throws {
        let folder = Repository.root.appendingPathComponent("Data/convoys")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            files[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        let built = try ConvoySite(convoys: files)
        #expect(built.failure == nil)
        #expect(built.diagnostics == [
            "SITE/Data/convoys/cubs-at-brewers.json:70:5: warning: vehicles[1]: vehicle \"Dev's Civic\" is over capacity: 6 people for 5 seats",
        ])
        let active = try built.page("convoys/8E3BA71E-1FA6-4F42-9555-FEFE2B681DF2/index.html")
        #expect(active.contains("<p class=\"convoy-route\">Chicago Union Station → Wrigley Field (pick-up) → Mars Cheese Castle → Milwaukee Public Market → American Family Field</p>"))
        #expect(active.contains("<p class=\"seats\">4 of 4 seats</p>"))
        #expect(active.contains("<p class=\"seats\">6 of 5 seats — over capacity</p>"))
        #expect(active.contains("<p class=\"seats\">2 of 5 seats · 3 seats free</p>"))
        #expect(active.contains("<h3>Still needs a seat (1)</h3>\n      <ul class=\"people-list\">\n        <li><span class=\"person-name\">Riley B.</span>"))
        let draft = try built.page(ConvoySite.examplePage)
        #expect(draft.contains("<p>0 of 4 done.</p>"))
        for (path, data) in try fileTree(built.site.root.appendingPathComponent("Output")) {
            #expect(!String(decoding: data, as: UTF8.self).contains("_priv_"), "\(path) leaks a private value")
        }
    }

    /// Every value the export marks as private: participant, driver and passenger ids, every
    /// string and number inside `invitations`, and the vehicle and checkpoint ids (published nowhere either).
    static func privateValues(in data: Data) throws -> [String] {
        var values: [String] = []
        func collect(_ value: Any) {
            switch value {
            case let text as String: values.append(text)
            case let number as NSNumber: values.append(number.stringValue)
            case let array as [Any]: array.forEach(collect)
            case let object as [String: Any]: object.keys.sorted().forEach { collect(object[$0]!) }
            default: break
            }
        }
        for convoy in try JSONSerialization.jsonObject(with: data) as! [[String: Any]] {
            collect(convoy["invitations"] ?? [])
            for person in convoy["participants"] as! [[String: Any]] { collect(person["id"]!) }
            for vehicle in convoy["vehicles"] as! [[String: Any]] {
                collect(vehicle["id"]!)
                collect(vehicle["driverId"] ?? [])
                collect(vehicle["passengerIds"] ?? [])
            }
            for checkpoint in convoy["checkpoints"] as! [[String: Any]] { collect(checkpoint["id"]!) }
        }
        return Array(Set(values)).sorted()
    }
}
