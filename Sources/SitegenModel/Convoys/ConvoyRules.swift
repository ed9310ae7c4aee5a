import Foundation
import SitegenCore

// The rules of docs/rules.md, "Convoys", as pure functions of a decoded convoy: seats, who still needs a
// seat, the readiness checklist and the warnings a convoy deserves.

extension ConvoyVehicle {
    /// Everyone aboard, the driver included (a driver whose id matched nobody still sits there),
    /// each person once: one listed as driver and passenger, or twice as a passenger, takes
    /// one seat (and is warned about: `Convoy.peopleInSeveralSeats`).
    public var seatsUsed: Int { (driver == nil ? 0 : 1) + distinctPassengers.count }

    /// The passengers in the export's order, without the driver and without a person listed
    /// again. Ids that matched nobody are kept: two of them may be two people.
    public var distinctPassengers: [SeatHolder] {
        var seen = Set<Int>()
        if case .participant(let person) = driver { seen.insert(person) }
        return passengers.filter { holder in
            guard case .participant(let person) = holder else { return true }
            return seen.insert(person).inserted
        }
    }
    /// Participants who declined the convoy but hold a seat in this vehicle, each once, the
    /// driver first.
    func seatedDecliners(in participants: [ConvoyParticipant]) -> [(participant: Int, isDriver: Bool)] {
        var found: [(participant: Int, isDriver: Bool)] = []
        if case .participant(let person) = driver, participants[person].status == .declined { found.append((person, true)) }
        for case .participant(let person) in distinctPassengers where participants[person].status == .declined {
            found.append((person, false))
        }
        return found
    }
    public var isFull: Bool { seatsUsed == capacity }
    public var isOverCapacity: Bool { seatsUsed > capacity }
}

/// One item of a draft's readiness checklist.
public struct ReadinessItem: Sendable, Equatable {
    public let requirement: String
    public let isDone: Bool
}

extension Convoy {
    /// Participants sitting in some vehicle, as driver or passenger.
    public var seatedParticipants: Set<Int> {
        var seated = Set<Int>()
        for vehicle in vehicles {
            for holder in [vehicle.driver].compactMap({ $0 }) + vehicle.passengers {
                if case .participant(let index) = holder { seated.insert(index) }
            }
        }
        return seated
    }

    /// People who are coming but are in no vehicle: neither declined nor viewers, in the
    /// export's order. None once the convoy is completed or cancelled: nobody can still
    /// find them a seat ("Still needs a seat: Kim" on a cancelled trip).
    public var peopleNeedingSeats: [ConvoyParticipant] {
        guard status != .completed && status != .cancelled else { return [] }
        let seated = seatedParticipants
        return participants.enumerated().filter { index, person in
            !seated.contains(index) && person.status != .declined && person.role != .viewer
        }.map(\.element)
    }

    /// A seat taken by a participant: the vehicle's index, and whether they drive it.
    public struct Seat: Sendable, Equatable {
        public let vehicle: Int
        public let isDriver: Bool
    }

    /// Participants holding more than one seat (in two vehicles, or twice in one), with
    /// their seats in vehicle order: nobody can ride in two cars.
    public var peopleInSeveralSeats: [(participant: Int, seats: [Seat])] {
        var seats: [Int: [Seat]] = [:]
        for (index, vehicle) in vehicles.enumerated() {
            if case .participant(let person) = vehicle.driver { seats[person, default: []].append(Seat(vehicle: index, isDriver: true)) }
            for case .participant(let person) in vehicle.passengers {
                seats[person, default: []].append(Seat(vehicle: index, isDriver: false))
            }
        }
        return seats.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { (participant: $0.key, seats: $0.value) }
    }

    /// Ready and active convoys are meant to pass the draft's checklist.
    public var isExpectedReady: Bool { status == .ready || status == .active }

    /// The checklist a draft shows (docs/rules.md, "Convoys"), in its order.
    public var readiness: [ReadinessItem] {
        // A driver who declined, or who only follows the plan (a viewer), drives nobody.
        let hasDriver = vehicles.contains { vehicle in
            if case .participant(let person) = vehicle.driver { return isDriving(participants[person]) }
            return false
        }
        return [
            ReadinessItem(requirement: "Destination set", isDone: destination != nil),
            ReadinessItem(requirement: "At least one checkpoint", isDone: !checkpoints.isEmpty),
            ReadinessItem(requirement: "Route computed", isDone: route != nil),
            ReadinessItem(requirement: "At least one vehicle with a driver", isDone: hasDriver),
        ]
    }

    /// Whether a participant listed as a vehicle's driver counts as one for the checklist.
    func isDriving(_ person: ConvoyParticipant) -> Bool {
        person.status != .declined && person.role != .viewer
    }

    /// The participant's name, or the placeholder for an id that matched nobody.
    public func name(of holder: SeatHolder, unknown: String) -> String {
        switch holder {
        case .participant(let index): return participants[index].displayName
        case .unknown: return unknown
        }
    }

    /// Over-capacity vehicles, ids that match no participant or vehicle, and a missing
    /// destination outside a draft. Seat problems point at the vehicle and name it; no
    /// message names a private id.
    public var warnings: [Diagnostic] {
        var warnings: [Diagnostic] = []
        let unmet = readiness.filter { !$0.isDone }.map { $0.requirement.prefix(1).lowercased() + $0.requirement.dropFirst() }
        if isExpectedReady && !unmet.isEmpty {
            warnings.append(source.diagnostic(.warning, field: fieldPath("status"),
                "a convoy that is \(status.rawValue) fails the readiness checklist (not done: \(unmet.joined(separator: ", "))); the page shows the checklist"))
        }
        // Ready and active convoys are warned about through the checklist.
        if destination == nil && status != .draft && !isExpectedReady {
            warnings.append(source.diagnostic(.warning, field: fieldPath("destination"),
                "a convoy that is \(status.rawValue) has no destination; the page shows \"Destination not set yet\""))
        }
        for vehicle in vehicles {
            let at = vehicle.location.source
            if vehicle.isOverCapacity {
                warnings.append(at.diagnostic(.warning, field: vehicle.location.path,
                    "vehicle \(quoted(vehicle.label)) is over capacity: \(vehicle.seatsUsed) people for \(Formatting.count(vehicle.capacity, "seat"))"))
            }
            if case .unknown(let field) = vehicle.driver {
                warnings.append(at.diagnostic(.warning, field: field,
                    "vehicle \(quoted(vehicle.label)): the driver matches no participant; the page shows \"Unknown driver\""))
            }
            for case .unknown(let field) in vehicle.passengers {
                warnings.append(at.diagnostic(.warning, field: field,
                    "vehicle \(quoted(vehicle.label)): a passenger matches no participant; the page shows \"Unknown passenger\""))
            }
            // A viewer follows the plan without travelling (they need no seat), so one listed
            // as a driver is not counted as one by the checklist: say why.
            if case .participant(let person) = vehicle.driver, participants[person].role == .viewer,
               participants[person].status != .declined, status != .completed && status != .cancelled {
                warnings.append(at.diagnostic(.warning, field: vehicle.location.path,
                    "vehicle \(quoted(vehicle.label)): \(quoted(participants[person].displayName)) is a viewer of the convoy but is listed as its driver; the readiness checklist does not count them as a driver"))
            }
            // Someone who said they are not coming still holds a seat: the roster would show
            // them riding, and the seat count would leave someone else without one.
            if status != .completed && status != .cancelled {
                for (person, isDriver) in vehicle.seatedDecliners(in: participants) {
                    warnings.append(at.diagnostic(.warning, field: vehicle.location.path,
                        "vehicle \(quoted(vehicle.label)): \(quoted(participants[person].displayName)) declined the convoy but is listed as its \(isDriver ? "driver" : "passenger"); the page shows them there, marked \"(declined)\", and counts their seat"))
                }
            }
        }
        for (person, seats) in peopleInSeveralSeats {
            let last = vehicles[seats.last!.vehicle].location
            // Each vehicle named once, with the person's roles in it ("Bike" (driver and passenger)).
            var roles: [(vehicle: Int, roles: [String], seats: Int)] = []
            for seat in seats {
                let role = seat.isDriver ? "driver" : "passenger"
                if let at = roles.firstIndex(where: { $0.vehicle == seat.vehicle }) {
                    if !roles[at].roles.contains(role) { roles[at].roles.append(role) }
                    roles[at].seats += 1
                } else {
                    roles.append((seat.vehicle, [role], 1))
                }
            }
            // A second listing in one of the vehicles is named too ("Red Van" (passenger,
            // listed twice)): the two-car warning alone left it to be found after the fix.
            let places = roles.map { place in
                let repeated = place.seats > place.roles.count && roles.count > 1
                    ? ", listed \(place.seats == 2 ? "twice" : "\(place.seats) times")" : ""
                return "\(quoted(vehicles[place.vehicle].label)) (\(listJoined(place.roles))\(repeated))"
            }
            let name = quoted(participants[person].displayName)
            let message = roles.count == 1
                ? "\(name) is listed \(seats.count == 2 ? "twice" : "\(seats.count) times") in \(places[0]); one seat is counted"
                : "\(name) is seated in more than one vehicle: \(listJoined(places, atMost: 5)); a person rides in one vehicle"
            warnings.append(last.source.diagnostic(.warning, field: last.path, message))
        }
        if let leader = unmatchedLeader {
            warnings.append(leader.source.diagnostic(.warning, field: leader.path,
                "leaderVehicleId matches no vehicle; no vehicle is marked as the leader"))
        }
        return warnings
    }

    /// `name` under this record's path ("destination", or "[1].destination" in an array file).
    package func fieldPath(_ name: String) -> String {
        recordPath.isEmpty ? name : "\(recordPath).\(name)"
    }
}
