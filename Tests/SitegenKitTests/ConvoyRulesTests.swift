import Foundation
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Convoy rules: seats, who needs a seat, readiness, warnings (docs/rules.md)")
struct ConvoyRulesTests {
    static var people: [[String: Any]] { [
        ["id": "p-owner", "displayName": "Olive", "role": "owner", "status": "joined"],
        ["id": "p-driver", "displayName": "Dan", "role": "driver", "status": "joined"],
        ["id": "p-rider", "displayName": "Rosa", "role": "passenger", "status": "invited"],
        ["id": "p-walker", "displayName": "Wes", "role": "passenger", "status": "joined"],
        ["id": "p-watcher", "displayName": "Vi", "role": "viewer", "status": "joined"],
        ["id": "p-declined", "displayName": "Del", "role": "passenger", "status": "declined"],
    ] }

    func convoy(vehicles: [[String: Any]], status: String = "active") throws -> Convoy {
        var example = ConvoyExample()
        example["status"] = status
        example["participants"] = Self.people
        example["vehicles"] = vehicles
        example["leaderVehicleId"] = nil
        return try example.decoded()
    }

    struct SeatCase: Sendable, CustomTestStringConvertible {
        let driver: String?
        let passengers: Int
        let capacity: Int
        let full: Bool
        let over: Bool
        var testDescription: String { "\(driver == nil ? "no driver" : "driver") + \(passengers) in \(capacity) seats" }
    }

    @Test("Seats used count the driver; full is exactly at capacity; over capacity is above it", arguments: [
        SeatCase(driver: nil, passengers: 0, capacity: 2, full: false, over: false),
        SeatCase(driver: "p-driver", passengers: 1, capacity: 3, full: false, over: false),
        SeatCase(driver: "p-driver", passengers: 2, capacity: 3, full: true, over: false),
        SeatCase(driver: "p-driver", passengers: 3, capacity: 3, full: false, over: true),
        SeatCase(driver: nil, passengers: 2, capacity: 2, full: true, over: false),
    ])
    func seats(example: SeatCase) throws {
        var vehicle: [String: Any] = ["id": "v", "label": "Car", "capacity": example.capacity,
                                      "passengerIds": Array(["p-owner", "p-rider", "p-walker"].prefix(example.passengers))]
        if let driver = example.driver { vehicle["driverId"] = driver }
        let decoded = try convoy(vehicles: [vehicle]).vehicles[0]
        #expect(decoded.seatsUsed == example.passengers + (example.driver == nil ? 0 : 1))
        #expect(decoded.isFull == example.full)
        #expect(decoded.isOverCapacity == example.over)
    }

    @Test("Still needs a seat: in no vehicle, not declined, not a viewer")
    func peopleNeedingSeats() throws {
        let convoy = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-driver", "capacity": 4, "passengerIds": ["p-rider"]]])
        #expect(convoy.peopleNeedingSeats.map(\.displayName) == ["Olive", "Wes"])
        // Once the trip is over or called off, nobody can still find them a seat.
        for status in [ConvoyStatus.completed, .cancelled] {
            var done = convoy
            done.status = status
            #expect(done.peopleNeedingSeats.isEmpty)
        }
        var active = convoy
        active.status = .active
        #expect(active.peopleNeedingSeats.map(\.displayName) == ["Olive", "Wes"])
    }

    @Test("The checklist of a complete draft is all done")
    func readyDraft() throws {
        let convoy = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-driver", "capacity": 4]], status: "draft")
        #expect(convoy.readiness == [
            ReadinessItem(requirement: "Destination set", isDone: true),
            ReadinessItem(requirement: "At least one checkpoint", isDone: true),
            ReadinessItem(requirement: "Route computed", isDone: true),
            ReadinessItem(requirement: "At least one vehicle with a driver", isDone: true),
        ])
    }

    @Test("Each checklist item is ticked off only by its own requirement", arguments: [
        ("destination", "Destination set"),
        ("checkpoints", "At least one checkpoint"),
        ("route", "Route computed"),
        ("driver", "At least one vehicle with a driver"),
    ])
    func checklistItem(missing: String, requirement: String) throws {
        var example = ConvoyExample()
        example["participants"] = Self.people
        example["leaderVehicleId"] = nil
        example["vehicles"] = [["id": "v", "label": "Car", "driverId": "p-driver", "capacity": 4]]
        switch missing {
        case "destination": example["destination"] = NSNull()
        case "checkpoints": example["checkpoints"] = [Any]()
        case "route": example["route"] = NSNull()
        default: example["vehicles"] = [["id": "v", "label": "Car", "capacity": 4, "passengerIds": ["p-rider"]]]
        }
        let items = try example.decoded().readiness
        #expect(items.filter { !$0.isDone }.map(\.requirement) == [requirement])
    }

    @Test("A driver id that matches nobody does not count as a driver for readiness")
    func unknownDriverIsNoDriver() throws {
        let convoy = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-ghost", "capacity": 4]], status: "draft")
        #expect(convoy.readiness.last == ReadinessItem(requirement: "At least one vehicle with a driver", isDone: false))
        #expect(convoy.vehicles[0].seatsUsed == 1)
    }

    @Test("A driver who declined, or a viewer listed as driver, does not count for readiness; the viewer is warned about")
    func declinedOrViewerDriverIsNoDriver() throws {
        let declined = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-declined", "capacity": 4]], status: "draft")
        #expect(declined.readiness.last == ReadinessItem(requirement: "At least one vehicle with a driver", isDone: false))
        #expect(declined.warnings.map(\.message) == [
            "vehicle \"Car\": \"Del\" declined the convoy but is listed as its driver; the page shows them there, marked \"(declined)\", and counts their seat",
        ])
        let viewer = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-watcher", "capacity": 4]], status: "draft")
        #expect(viewer.readiness.last == ReadinessItem(requirement: "At least one vehicle with a driver", isDone: false))
        #expect(viewer.warnings.map(\.message) == [
            "vehicle \"Car\": \"Vi\" is a viewer of the convoy but is listed as its driver; the readiness checklist does not count them as a driver",
        ])
        // Beside a driver who drives, the checklist is done.
        let both = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-declined", "capacity": 4],
                                         ["id": "w", "label": "Van", "driverId": "p-driver", "capacity": 4]], status: "draft")
        #expect(both.readiness.last == ReadinessItem(requirement: "At least one vehicle with a driver", isDone: true))
    }

    @Test("Warnings: a ready convoy failing the checklist, over capacity, unknown driver and passenger (at the vehicle, naming it), unmatched leader")
    func warnings() throws {
        var example = ConvoyExample()
        example["status"] = "ready"
        example["destination"] = NSNull()
        example["participants"] = Self.people
        example["vehicles"] = [
            ["id": "v1", "label": "Tiny", "driverId": "p-driver", "capacity": 2, "passengerIds": ["p-rider", "p-walker"]],
            ["id": "v2", "label": "Van", "driverId": "p-ghost", "capacity": 5, "passengerIds": ["p-owner", "p-spook"]],
        ]
        example["leaderVehicleId"] = "v9"
        // Each vehicle's "{" is on the line before its first key, "capacity".
        let tiny = example.line(of: "\"capacity\" : 2") - 1, van = example.line(of: "\"capacity\" : 5") - 1
        let leader = example.line(of: "\"leaderVehicleId\"")
        #expect(try example.decoded().warnings.map(\.description) == [
            "Data/convoys/c.json:1:1: warning: status: a convoy that is ready fails the readiness checklist (not done: destination set); the page shows the checklist",
            "Data/convoys/c.json:\(tiny):5: warning: vehicles[0]: vehicle \"Tiny\" is over capacity: 3 people for 2 seats",
            "Data/convoys/c.json:\(van):5: warning: vehicles[1].driverId: vehicle \"Van\": the driver matches no participant; the page shows \"Unknown driver\"",
            "Data/convoys/c.json:\(van):5: warning: vehicles[1].passengerIds[1]: vehicle \"Van\": a passenger matches no participant; the page shows \"Unknown passenger\"",
            "Data/convoys/c.json:\(leader):23: warning: leaderVehicleId: leaderVehicleId matches no vehicle; no vehicle is marked as the leader",
        ])
    }

    @Test("Someone who declined but holds a seat is a warning at the vehicle, naming them and their seat; not once the convoy is over")
    func declinedButSeated() throws {
        let vehicles: [[String: Any]] = [
            ["id": "v1", "label": "Van", "driverId": "p-driver", "capacity": 4, "passengerIds": ["p-declined", "p-rider", "p-declined"]],
            ["id": "v2", "label": "Coupe", "driverId": "p-declined", "capacity": 2, "passengerIds": []],
        ]
        let active = try convoy(vehicles: vehicles)
        let declined = active.warnings.filter { $0.message.contains("declined") }
        #expect(declined.map(\.message) == [
            "vehicle \"Van\": \"Del\" declined the convoy but is listed as its passenger; the page shows them there, marked \"(declined)\", and counts their seat",
            "vehicle \"Coupe\": \"Del\" declined the convoy but is listed as its driver; the page shows them there, marked \"(declined)\", and counts their seat",
        ])
        #expect(declined.map(\.field) == ["vehicles[0]", "vehicles[1]"])
        for status in ["completed", "cancelled"] {
            #expect(try convoy(vehicles: vehicles, status: status).warnings.allSatisfy { !$0.message.contains("declined") })
        }
        // Nobody who declined holds a seat: no such warning.
        let seatedWell = try convoy(vehicles: [["id": "v", "label": "Car", "driverId": "p-driver", "capacity": 4, "passengerIds": ["p-rider"]]])
        #expect(seatedWell.warnings.allSatisfy { !$0.message.contains("declined") })
    }

    @Test("A person seated in two cars is a warning at the second car, naming both; so is a second seat in one car")
    func twoCars() throws {
        let convoy = try convoy(vehicles: [
            ["id": "v1", "label": "Red Van", "driverId": "p-driver", "capacity": 4, "passengerIds": ["p-rider", "p-walker"]],
            ["id": "v2", "label": "Blue Car", "driverId": "p-owner", "capacity": 4, "passengerIds": ["p-rider"]],
            ["id": "v3", "label": "Bike", "driverId": "p-walker", "capacity": 2, "passengerIds": ["p-walker"]],
            ["id": "v4", "label": "Coupe", "driverId": "p-driver", "capacity": 2, "passengerIds": []],
            ["id": "v5", "label": "Tandem", "driverId": "p-watcher", "capacity": 2, "passengerIds": ["p-watcher"]],
            ["id": "v6", "label": "Minibus", "driverId": "p-owner", "capacity": 9, "passengerIds": ["p-owner", "p-owner"]],
        ])
        #expect(convoy.peopleInSeveralSeats.map { $0.participant } == [0, 1, 2, 3, 4])
        #expect(convoy.peopleInSeveralSeats[2].seats == [Convoy.Seat(vehicle: 0, isDriver: false), Convoy.Seat(vehicle: 1, isDriver: false)])
        // Each vehicle is named once, with the person's roles in it.
        #expect(convoy.warnings.map(\.message) == [
            "vehicle \"Tandem\": \"Vi\" is a viewer of the convoy but is listed as its driver; the readiness checklist does not count them as a driver",
            "\"Olive\" is seated in more than one vehicle: \"Blue Car\" (driver) and \"Minibus\" (driver and passenger, listed 3 times); a person rides in one vehicle",
            "\"Dan\" is seated in more than one vehicle: \"Red Van\" (driver) and \"Coupe\" (driver); a person rides in one vehicle",
            "\"Rosa\" is seated in more than one vehicle: \"Red Van\" (passenger) and \"Blue Car\" (passenger); a person rides in one vehicle",
            "\"Wes\" is seated in more than one vehicle: \"Red Van\" (passenger) and \"Bike\" (driver and passenger); a person rides in one vehicle",
            "\"Vi\" is listed twice in \"Tandem\" (driver and passenger); one seat is counted",
        ])
        #expect(convoy.warnings.map(\.field) == ["vehicles[4]", "vehicles[5]", "vehicles[3]", "vehicles[1]", "vehicles[2]", "vehicles[4]"])
    }

    @Test("Someone driving 1,000 vehicles: the warning and the page name five and count the rest")
    func manyVehicles() throws {
        let convoy = try convoy(vehicles: (1...1000).map { ["id": "v\($0)", "label": "Car \($0)", "driverId": "p-driver", "capacity": 2, "passengerIds": []] })
        #expect(convoy.warnings.map(\.message) == [
            "\"Dan\" is seated in more than one vehicle: \"Car 1\" (driver), \"Car 2\" (driver), \"Car 3\" (driver), \"Car 4\" (driver), \"Car 5\" (driver) and 995 more; a person rides in one vehicle",
        ])
        let person = convoy.peopleInSeveralSeats[0]
        #expect(ConvoyPages.doubleSeatedNote(person.participant, person.seats, in: convoy)
            == "Dan is listed in more than one vehicle: Car 1, Car 2, Car 3, Car 4, Car 5 and 995 more.")
    }

    @Test("A ready or active convoy with no driver fails the checklist: a warning naming what is missing", arguments: ["ready", "active"])
    func readyWithoutDriver(status: String) throws {
        let convoy = try convoy(vehicles: [["id": "v", "label": "Car", "capacity": 4, "passengerIds": ["p-rider"]]], status: status)
        #expect(convoy.warnings.map(\.description) == [
            "Data/convoys/c.json:1:1: warning: status: a convoy that is \(status) fails the readiness checklist (not done: at least one vehicle with a driver); the page shows the checklist",
        ])
    }

    @Test("Drafts, completed and cancelled convoys are not held to the checklist", arguments: ["draft", "completed", "cancelled"])
    func checklistNotExpected(status: String) throws {
        let convoy = try convoy(vehicles: [["id": "v", "label": "Car", "capacity": 4, "passengerIds": ["p-rider"]]], status: status)
        #expect(convoy.warnings == [])
    }

    @Test("A draft without a destination is not warned about: that is what drafts are for")
    func draftWithoutDestination() throws {
        var example = ConvoyExample()
        example["destination"] = NSNull()
        #expect(try example.decoded().warnings == [])
    }
}
