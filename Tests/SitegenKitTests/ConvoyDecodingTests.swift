import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
import Testing

/// A convoy export as a dictionary, changed per test and decoded from its JSON text.
struct ConvoyExample {
    var record: [String: Any] = [
        "id": "b5ca4696-6bf2-40bf-a868-b5c5b2ae78d0",
        "title": "Cubs at Brewers",
        "notes": "Wheels up at *2 PM*.",
        "status": "draft",
        "origin": ["name": "Union Station", "address": "225 S Canal St", "latitude": 41.8787, "longitude": -87.6403],
        "destination": ["name": "American Family Field", "latitude": 43.028, "longitude": -87.9712],
        "checkpoints": [
            ["id": "c2", "place": ["name": "Cheese Castle"], "order": 2, "notes": "Twenty minutes."],
            ["id": "c1", "place": ["name": "Wrigley Field"], "order": 1],
        ],
        "route": ["distanceMeters": 170_251, "durationSeconds": 6251],
        "vehicles": [
            ["id": "1156e2da-cb03-4138-becd-2a0498b157e7", "label": "Maya's Odyssey", "driverId": "p-maya", "capacity": 4,
             "passengerIds": ["p-alex", "p-bea"], "notes": "Roof box only."],
        ],
        "leaderVehicleId": "1156E2DA-CB03-4138-BECD-2A0498B157E7",
        "participants": [
            ["id": "p-maya", "displayName": "Maya R.", "role": "owner", "status": "joined"],
            ["id": "p-alex", "displayName": "Alex K.", "role": "passenger", "status": "joined"],
            ["id": "p-bea", "displayName": "Bea L.", "role": "passenger", "status": "invited"],
        ],
        "invitations": [["code": "_priv_inv_CODE", "email": "bea@example.com", "participantId": "p-bea"]],
        "createdAt": "2026-07-01T14:55:12.034Z",
        "modifiedAt": 806_267_140,
    ]

    subscript(key: String) -> Any? {
        get { record[key] }
        set { record[key] = newValue }
    }

    /// Changes the one vehicle of the example.
    mutating func changeVehicle(_ change: (inout [String: Any]) -> Void) {
        var vehicles = record["vehicles"] as! [[String: Any]]
        change(&vehicles[0])
        record["vehicles"] = vehicles
    }

    var json: String {
        let data = try! JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    static let decoder = ExportDecoder(dates: ExportDateReader(timeZone: TimeZone(identifier: "America/Chicago")!, numericDates: .reference))
    static let source = SourceRef(file: "Data/convoys/c.json", line: 1, column: 1)

    /// Decodes with positions, as the loader does.
    func decoded() throws -> Convoy {
        let bytes = Array(json.utf8)
        let lines = LineIndex(bytes)
        var decoder = Self.decoder
        decoder.locator = { offset in
            let position = lines.position(of: offset)
            return SourceRef(file: Self.source.file, line: position.line, column: position.column)
        }
        return try decoder.convoy(JSONField(try JSONParser.parse(bytes)), source: Self.source)
    }

    /// The 1-based line of the JSON text holding `text`.
    func line(of text: String) -> Int {
        json[..<json.range(of: text)!.lowerBound].filter { $0 == "\n" }.count + 1
    }

    /// The FieldError decoding raises (nil when it decodes).
    func decodingError() throws -> FieldError? {
        do {
            _ = try decoded()
            return nil
        } catch let error as FieldError {
            return error
        }
    }
}

@Suite("Reading convoy exports (docs/exports.md)")
struct ConvoyDecodingTests {
    @Test("A convoy: upper-cased UUID id, checkpoints by order, seats resolved to people, leader, route, dates")
    func convoy() throws {
        let convoy = try ConvoyExample().decoded()
        #expect(convoy.id.value == "B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0")
        #expect(convoy.title == "Cubs at Brewers")
        #expect(convoy.status == .draft)
        #expect(convoy.origin == ConvoyPlace(name: "Union Station", address: "225 S Canal St", latitude: 41.8787, longitude: -87.6403))
        #expect(convoy.destination?.name == "American Family Field")
        #expect(convoy.checkpoints.map(\.place.name) == ["Wrigley Field", "Cheese Castle"])
        #expect(convoy.checkpoints.map(\.notes) == [nil, "Twenty minutes."])
        #expect(convoy.route == ConvoyRoute(distanceMeters: 170_251, durationSeconds: 6251))
        #expect(convoy.participants == [
            ConvoyParticipant(displayName: "Maya R.", role: .owner, status: .joined),
            ConvoyParticipant(displayName: "Alex K.", role: .passenger, status: .joined),
            ConvoyParticipant(displayName: "Bea L.", role: .passenger, status: .invited),
        ])
        let vehicle = try #require(convoy.vehicles.first)
        #expect(vehicle.label == "Maya's Odyssey")
        #expect(vehicle.driver == .participant(0))
        #expect(vehicle.passengers == [.participant(1), .participant(2)])
        #expect(vehicle.capacity == 4)
        #expect(vehicle.isLeader)
        #expect(vehicle.notes == "Roof box only.")
        #expect(Formatting.iso8601(convoy.createdAt) == "2026-07-01T14:55:12Z")
        #expect(Formatting.iso8601(convoy.modifiedAt) == "2026-07-20T19:05:40Z")
    }

    @Test("No participant id, driver id, passenger id or invitation is kept in the model")
    func modelHoldsNoPrivateValues() throws {
        let described = String(describing: try ConvoyExample().decoded())
        for secret in ["p-maya", "p-alex", "p-bea", "_priv_inv_CODE", "bea@example.com"] {
            #expect(!described.contains(secret), "the model keeps \(secret)")
        }
    }

    @Test("Every status is read", arguments: ConvoyStatus.allCases)
    func statuses(status: ConvoyStatus) throws {
        var example = ConvoyExample()
        example["status"] = status.rawValue
        #expect(try example.decoded().status == status)
    }

    @Test("Ids that are not UUIDs are kept as written when they are safe path segments",
          arguments: ["summer-2026_convoy", "A", String(repeating: "x", count: 64)])
    func slugIds(id: String) throws {
        var example = ConvoyExample()
        example["id"] = id
        #expect(try example.decoded().id.value == id)
    }

    @Test("Any other id is an error at the id, since it becomes a path segment",
          arguments: ["", "../../etc", "a b", "a/b", "café", ".hidden", String(repeating: "x", count: 65)])
    func unsafeIds(id: String) throws {
        var example = ConvoyExample()
        example["id"] = id
        let error = try #require(try example.decodingError())
        #expect(error.path.description == "id")
        let shown = id.count > 40 ? String(id.prefix(40)) + "…" : id
        #expect(error.message == "convoy id \"\(shown)\" must be a UUID or 1 to 64 characters from A-Z, a-z, 0-9, _ and - (it becomes a URL path segment)")
    }

    @Test("An unknown status, role or participant status names the accepted values")
    func unknownEnumerations() throws {
        var example = ConvoyExample()
        example["status"] = "paused"
        #expect(try example.decodingError() == FieldError(path: JSONPath.root.appending("status"), offset: try offset(of: "\"paused\"", in: example.json),
            message: "\"paused\" is not one of \"draft\", \"ready\", \"active\", \"completed\", \"cancelled\""))

        example = ConvoyExample()
        var people = example["participants"] as! [[String: Any]]
        people[1]["role"] = "navigator"
        example["participants"] = people
        #expect(try example.decodingError()?.message == "\"navigator\" is not one of \"owner\", \"driver\", \"passenger\", \"viewer\"")
        #expect(try example.decodingError()?.path.description == "participants[1].role")

        people[1]["role"] = "passenger"
        people[1]["status"] = "maybe"
        example["participants"] = people
        #expect(try example.decodingError()?.message == "\"maybe\" is not one of \"invited\", \"joined\", \"declined\"")
    }

    @Test("A destination may be null or absent; a route may be null")
    func missingDestinationAndRoute() throws {
        var example = ConvoyExample()
        example["destination"] = NSNull()
        example["route"] = NSNull()
        let convoy = try example.decoded()
        #expect(convoy.destination == nil)
        #expect(convoy.route == nil)
        example["destination"] = nil
        #expect(try example.decoded().destination == nil)
    }

    @Test("A vehicle without seats, and a negative route, are errors naming the field")
    func badNumbers() throws {
        var example = ConvoyExample()
        example.changeVehicle { $0["capacity"] = 0 }
        let error = try #require(try example.decodingError())
        #expect(error.path.description == "vehicles[0].capacity")
        #expect(error.message == "a vehicle has 1 seat (the driver's) to 100, found 0")

        example = ConvoyExample()
        example["route"] = ["distanceMeters": -5, "durationSeconds": 60]
        #expect(try example.decodingError()?.path.description == "route.distanceMeters")
        #expect(try example.decodingError()?.message == "must not be negative, found -5")
    }

    @Test("Ids that match nobody are kept as unknown seats with the field they came from, never the id")
    func unknownPeople() throws {
        var example = ConvoyExample()
        example["vehicles"] = [["id": "v1", "label": "Van", "driverId": "p-nobody", "capacity": 3, "passengerIds": ["p-alex", "p-ghost"]]]
        example["leaderVehicleId"] = "v-missing"
        let convoy = try example.decoded()
        #expect(convoy.vehicles[0].driver == .unknown(field: "vehicles[0].driverId"))
        #expect(convoy.vehicles[0].passengers == [.participant(1), .unknown(field: "vehicles[0].passengerIds[1]")])
        #expect(convoy.vehicles[0].isLeader == false)
        #expect(convoy.unmatchedLeader?.path == "leaderVehicleId")
    }

    func offset(of text: String, in json: String) throws -> Int {
        let range = try #require(json.range(of: text))
        return json.utf8.distance(from: json.utf8.startIndex, to: range.lowerBound)
    }

    // The seed models write these names; read any other way, the convoy would publish
    // "No driver yet" and "0 of 4 seats" (issue #14).
    @Test("The seed's vehicle fields driver and passengers, route distance and duration, and a nested coordinate")
    func seedAliases() throws {
        var example = ConvoyExample()
        example.changeVehicle { vehicle in
            vehicle["driver"] = vehicle.removeValue(forKey: "driverId")
            vehicle["passengers"] = vehicle.removeValue(forKey: "passengerIds")
        }
        example["route"] = ["distance": 170_251, "duration": 6251]
        example["destination"] = ["name": "American Family Field", "coordinate": ["latitude": 43.028, "longitude": -87.9712]]
        let convoy = try example.decoded()
        #expect(convoy.vehicles[0].driver == .participant(0))
        #expect(convoy.vehicles[0].passengers == [.participant(1), .participant(2)])
        #expect(convoy.route == ConvoyRoute(distanceMeters: 170_251, durationSeconds: 6251))
        #expect(convoy.destination?.latitude == 43.028)
        #expect(convoy.destination?.longitude == -87.9712)
    }

    @Test("A participant id listed twice keeps the first person, with a warning at the second's id")
    func repeatedParticipantId() throws {
        var example = ConvoyExample()
        example["visibility"] = "friends"
        example["participants"] = [
            ["id": "dup", "displayName": "First Dup", "role": "passenger", "status": "joined"],
            ["id": "other", "displayName": "Other", "role": "driver", "status": "joined"],
            ["id": "dup", "displayName": "Second Dup", "role": "passenger", "status": "invited"],
        ]
        example["vehicles"] = [["id": "v", "label": "Car", "driverId": "other", "capacity": 4, "passengerIds": ["dup"]]]
        example["leaderVehicleId"] = nil
        let convoy = try example.decoded()
        #expect(convoy.participants.map(\.displayName) == ["First Dup", "Other"])
        #expect(convoy.peopleNeedingSeats.isEmpty)
        let built = try ConvoySite(example: example)
        #expect(built.diagnostics.contains { $0.hasSuffix("warning: participants[2].id: this participant (\"Second Dup\") has the id of \"First Dup\", listed before; only the first is shown") })
    }

    @Test("A nested coordinate out of range is an error at the coordinate")
    func badCoordinate() throws {
        var example = ConvoyExample()
        example["origin"] = ["name": "Union Station", "coordinate": ["latitude": 141.9, "longitude": -87.6]]
        let error = try #require(try example.decodingError())
        #expect(error.path.description == "origin.coordinate.latitude")
        #expect(error.message == "latitude must be between -90 and 90")
    }

    @Test("A place with a latitude and no longitude is left off the map with a warning at the value, not in silence")
    func halfCoordinate() throws {
        var example = ConvoyExample()
        example["visibility"] = "friends"
        example["origin"] = ["name": "Union Station", "latitude": 41.8787]
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        #expect(built.diagnostics.contains { $0.hasSuffix("warning: origin.latitude: latitude without longitude; the place is left off the map and the directions") })
        // Nested the same (docs/exports.md, "Convoys"): it was an error, "required field is missing".
        example["origin"] = ["name": "Union Station", "coordinate": ["longitude": -87.6403]]
        let nested = try ConvoySite(example: example)
        #expect(nested.failure == nil)
        #expect(nested.diagnostics.contains { $0.hasSuffix("warning: origin.coordinate.longitude: longitude without latitude; the place is left off the map and the directions") })
    }

    @Test("A place at latitude 0, longitude 0 (one the app did not locate) is left off the map and the directions, with a warning")
    func zeroZeroPlace() throws {
        var example = ConvoyExample()
        example["visibility"] = "friends"
        example["origin"] = ["name": "Union Station", "coordinate": ["latitude": 0.0, "longitude": 0]]
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        #expect(built.diagnostics.contains { $0.hasSuffix("warning: origin.coordinate.latitude: latitude 0, longitude 0 is in the sea off West Africa, most likely a place that was not located; the place is left off the map and the directions") })
        let convoy = try example.decoded()
        #expect(convoy.origin.latitude == nil && convoy.origin.longitude == nil)
        let page = try built.page(ConvoySite.examplePage)
        #expect(!page.contains("0%2C0"))
    }

    @Test("A private convoy is not published; nor is one whose visibility is not a known published value, with a warning")
    func visibility() throws {
        var example = ConvoyExample()
        let field = { (example: ConvoyExample) in JSONField(try JSONParser.parse(Array(example.json.utf8))) }
        for value in ["private", "Private", " PRIVATE "] {
            example["visibility"] = value
            #expect(try ConvoyExample.decoder.publishedConvoy(try field(example), source: ConvoyExample.source) == nil)
        }
        for value in ["friends", "Public", "shared ", "group"] {
            example["visibility"] = value
            #expect(try ConvoyExample.decoder.publishedConvoy(try field(example), source: ConvoyExample.source)?.title == "Cubs at Brewers")
        }
        example["visibility"] = NSNull()
        #expect(try ConvoyExample.decoder.publishedConvoy(try field(example), source: ConvoyExample.source) != nil)

        // A typo was published with every name in it, without a word.
        example["visibility"] = "privte"
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        let line = example.line(of: "\"visibility\"")
        #expect(built.diagnostics == [
            // At the value: `  "visibility" : "privte"`.
            "SITE/Data/convoys/convoy.json:\(line):18: warning: visibility: \"privte\" is not one of \"private\", \"friends\", \"group\", \"public\", \"shared\"; the convoy is not published, as if private",
            "SITE/site.yml: warning: no input holds a date, so the site is dated January 1, 2001 (the tips page, manifest.json); pass --date YYYY-MM-DD or set SOURCE_DATE_EPOCH",
        ])
        #expect(throws: (any Error).self) { try built.page(ConvoySite.examplePage) }
        #expect(try !built.site.read("Output/index.html").contains("Cubs at Brewers"))

        // Not a string: an error, as any wrong type is.
        example["visibility"] = 1
        #expect(throws: FieldError.self) { try ConvoyExample.decoder.publishedConvoy(try field(example), source: ConvoyExample.source) }
    }

    @Test("A convoy's ownerId, as the app's model writes it, is read past without a warning, like its invitations")
    func ownerIdReadPast() throws {
        var example = ConvoyExample()
        example["ownerId"] = "_owner_secret"
        example["visibility"] = "friends"
        let built = try ConvoySite(example: example)
        #expect(built.failure == nil)
        #expect(!built.diagnostics.contains { $0.contains("ownerId") })
        #expect(try !built.page(ConvoySite.examplePage).contains("_owner_secret"))
    }
}
