import Foundation
import SitegenCore
import SitegenModel

extension Convoy {
    public var path: String { "convoys/\(id.value)/" }

    /// "Chicago Union Station → Mars Cheese Castle → American Family Field", each name
    /// isolated (`BidiIsolation`) so the arrows point the way the convoy drives.
    public var routeLine: String {
        let names = [origin.name] + checkpoints.map(\.place.name) + [destination?.name ?? "destination not set yet"]
        return BidiIsolation.isolated(names).joined(separator: " → ")
    }

    /// The route as places to draw: start "S", checkpoints 1, 2, …, destination "D", those
    /// with coordinates; and the names of those without, which cannot be drawn.
    public var routePlaces: (drawn: [RoutePicture.Place], withoutCoordinates: [String]) {
        let marked = [(origin, "S")] + checkpoints.enumerated().map { ($1.place, String($0 + 1)) }
            + (destination.map { [($0, "D")] } ?? [])
        var drawn: [RoutePicture.Place] = [], withoutCoordinates: [String] = []
        for (place, marker) in marked {
            if let latitude = place.latitude, let longitude = place.longitude {
                drawn.append(RoutePicture.Place(name: place.name, marker: marker, latitude: latitude, longitude: longitude))
            } else {
                withoutCoordinates.append(place.name)
            }
        }
        return (drawn, withoutCoordinates)
    }

    /// Start, checkpoints and destination that have coordinates, for directions and the GPX
    /// route; the others cannot be handed to a navigation app.
    public var routePoints: [RoutePoint] {
        routePlaces.drawn.map { RoutePoint(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// `/convoys/ID/route.gpx`, when at least two places have coordinates.
    public var routeFilePath: String? {
        routePoints.count >= 2 ? path + GPXFile.fileName : nil
    }
}

/// `/convoys/ID/`: who rides in which car, where the convoy stops, and whether it is ready (docs/rules.md, "Convoys").
package enum ConvoyPages {
    /// Convoys in the order the home page lists them: those on the road first, then ready,
    /// being planned, completed and cancelled; within each by title as people count
    /// ("Convoy 2" before "Convoy 10"), then id.
    package static func sorted(_ convoys: [Convoy]) -> [Convoy] {
        convoys.sorted { a, b in
            if a.status != b.status { return statusOrder.firstIndex(of: a.status)! < statusOrder.firstIndex(of: b.status)! }
            let titles = NaturalOrder.compare(a.title, b.title)
            return titles != 0 ? titles < 0 : a.id.value < b.id.value
        }
    }

    private static let statusOrder: [ConvoyStatus] = [.active, .ready, .draft, .completed, .cancelled]

    /// The page, and its GPX route when the convoy has one.
    package static func files(for convoy: Convoy) -> [PlannedFile] {
        var files = [PlannedFile(path: SiteLinks.file(for: convoy.path)) { kit in page(convoy, kit: kit) }]
        if let route = convoy.routeFilePath {
            // routeFilePath exists only for two points or more, which make a route.
            files.append(PlannedFile(path: route) { _ in Array(GPXFile.route(name: convoy.title, points: convoy.routePoints)!.utf8) })
        }
        return files
    }

    /// One row of the home page's convoy list.
    package static func homeRow(_ convoy: Convoy, kit: RenderKit) -> HomePageModel.Convoy {
        HomePageModel.Convoy(title: convoy.title, href: kit.href(convoy.path, from: ""), status: convoy.status.label,
                             statusClass: convoy.status.rawValue, vehicles: Formatting.count(convoy.vehicles.count, "vehicle"),
                             route: convoy.routeLine)
    }

    package static func page(_ convoy: Convoy, kit: RenderKit) -> [UInt8] {
        let description = "\(sentence("\(convoy.status.label) convoy: \(convoy.routeLine)")) \(Formatting.count(convoy.vehicles.count, "vehicle")), \(Formatting.count(convoy.participants.filter { $0.status != .declined }.count, "person", "people"))."
        let meta = PageMeta(path: convoy.path, title: convoy.title, description: description)
        let needingSeats = convoy.peopleNeedingSeats
        let model = ConvoyPageModel(
            title: convoy.title,
            status: convoy.status.label,
            statusClass: convoy.status.rawValue,
            notesHTML: convoy.notes.map { kit.markdown($0, below: 1) },
            checklist: checklist(convoy),
            routeLine: convoy.routeLine,
            routeMap: routeMap(convoy),
            route: convoy.route.map {
                ConvoyPageModel.Route(distance: Formatting.miles(meters: $0.distanceMeters), duration: Formatting.duration(seconds: $0.durationSeconds))
            },
            directions: HandoffLinks.directions(convoy.routePoints, label: "Directions", leftOut: convoy.routePlaces.withoutCoordinates),
            routeFileHref: convoy.routeFilePath.map { kit.href($0, from: convoy.path) },
            stops: stops(convoy, kit: kit),
            vehicleCount: Formatting.count(convoy.vehicles.count, "vehicle"),
            vehicles: convoy.vehicles.map { vehicleCard($0, in: convoy, kit: kit) },
            doubleSeated: convoy.peopleInSeveralSeats.map { person, seats in doubleSeatedNote(person, seats, in: convoy) },
            needsSeat: needingSeats.isEmpty ? nil
                : ConvoyPageModel.People(heading: "Still needs a seat (\(needingSeats.count))", people: needingSeats.map(personRow)),
            roleGroups: roleGroups(convoy),
            updatedText: kit.format.dateTime(convoy.modifiedAt),
            updatedISO: Formatting.iso8601(convoy.modifiedAt))
        return kit.page(model, meta: meta)
    }

    /// "X is listed in more than one vehicle: A and B", each vehicle named once; "X is listed
    /// twice in A; one seat is counted" when the seats are all in one vehicle ("A and A" read
    /// as a mistake of the page).
    package static func doubleSeatedNote(_ person: Int, _ seats: [Convoy.Seat], in convoy: Convoy) -> String {
        let name = BidiIsolation.isolated(convoy.participants[person].displayName)
        var vehicles: [Int] = []
        for seat in seats where !vehicles.contains(seat.vehicle) { vehicles.append(seat.vehicle) }
        let labels = vehicles.map { BidiIsolation.isolated(convoy.vehicles[$0].label) }
        if vehicles.count == 1 {
            let times = seats.count == 2 ? "twice" : "\(seats.count) times"
            return sentence("\(name) is listed \(times) in \(labels[0]); one seat is counted")
        }
        return sentence("\(name) is listed in more than one vehicle: \(listJoined(labels, atMost: 5))")
    }

    /// A draft shows its checklist; a ready or active convoy only when it fails it.
    package static func checklist(_ convoy: Convoy) -> ConvoyPageModel.Checklist? {
        let items = convoy.readiness
        let done = items.filter(\.isDone).count
        guard convoy.status == .draft || (convoy.isExpectedReady && done < items.count) else { return nil }
        let summary: String
        if done == items.count {
            summary = "Everything is in place: this draft is ready to go."
        } else if convoy.status == .draft {
            summary = "\(done) of \(items.count) done."
        } else {
            summary = "This convoy is marked \(convoy.status.rawValue), but only \(done) of \(items.count) are done."
        }
        return ConvoyPageModel.Checklist(summary: summary, items: items.map { .init(requirement: $0.requirement, done: $0.isDone) })
    }

    /// The route drawn like an itinerary's; places without coordinates are named under it.
    /// A lone start (a draft without a destination) is no route: nothing is drawn.
    package static func routeMap(_ convoy: Convoy) -> RouteMap? {
        let (places, withoutCoordinates) = convoy.routePlaces
        guard places.count >= 2, let picture = RoutePicture.make(places: places) else { return nil }
        var description = sentence("Start, stops and destination in order: \(BidiIsolation.isolated(places.map(\.name)).joined(separator: " → "))")
        if !withoutCoordinates.isEmpty { description += " " + sentence("Not drawn (no coordinates): \(listJoined(BidiIsolation.isolated(withoutCoordinates)))") }
        return RouteMap(picture, title: "Route map of \(BidiIsolation.isolated(convoy.title))", description: description)
    }

    /// Origin, checkpoints by `order`, destination.
    package static func stops(_ convoy: Convoy, kit: RenderKit) -> [ConvoyPageModel.Stop] {
        func stop(_ kind: String, _ place: ConvoyPlace?, notes: String? = nil, missing: String? = nil) -> ConvoyPageModel.Stop {
            ConvoyPageModel.Stop(kind: kind, name: place?.name, address: place?.address,
                                 missing: place == nil ? missing : nil, stopNotesHTML: notes.map { kit.markdown($0, below: 2) })
        }
        var rows = [stop("Start", convoy.origin)]
        for (index, checkpoint) in convoy.checkpoints.enumerated() {
            rows.append(stop("Stop \(index + 1)", checkpoint.place, notes: checkpoint.notes))
        }
        rows.append(stop("Destination", convoy.destination, missing: "Not set yet"))
        return rows
    }

    package static func vehicleCard(_ vehicle: ConvoyVehicle, in convoy: Convoy, kit: RenderKit) -> ConvoyPageModel.Vehicle {
        // Someone who declined but still holds a seat is marked where friends look for them:
        // the car read as if they were coming (the organiser is warned at the vehicle).
        func rider(_ holder: SeatHolder, unknown: String) -> String {
            let name = convoy.name(of: holder, unknown: unknown)
            guard case .participant(let index) = holder, convoy.participants[index].status == .declined else { return name }
            return BidiIsolation.isolated(name) + " (declined)"
        }
        let used = vehicle.seatsUsed, capacity = vehicle.capacity
        var seats = "\(used) of \(Formatting.count(capacity, "seat"))"
        if vehicle.isOverCapacity { seats += " — over capacity" }
        let free = capacity - used
        return ConvoyPageModel.Vehicle(
            label: vehicle.label,
            isLeader: vehicle.isLeader,
            isFull: vehicle.isFull,
            isOver: vehicle.isOverCapacity,
            seats: seats,
            freeSeats: free > 0 ? "\(Formatting.count(free, "seat")) free" : nil,
            barWidth: Formatting.oneDecimal(min(Double(used) / Double(capacity), 1) * 100) + "%",
            driver: vehicle.driver.map { rider($0, unknown: "Unknown driver") } ?? "No driver yet",
            hasDriver: vehicle.driver != nil,
            passengers: vehicle.distinctPassengers.map { rider($0, unknown: "Unknown passenger") },
            // A car its driver fills has no room to wait for.
            noPassengers: free > 0 ? "None yet" : "No seat for one",
            vehicleNotesHTML: vehicle.notes.map { kit.markdown($0, below: 3) })
    }

    /// Owners, drivers, passengers, viewers — each group in the export's order.
    package static func roleGroups(_ convoy: Convoy) -> [ConvoyPageModel.People] {
        ConvoyParticipant.Role.allCases.compactMap { role in
            let people = convoy.participants.filter { $0.role == role }
            guard !people.isEmpty else { return nil }
            let heading = role.rawValue.prefix(1).uppercased() + role.rawValue.dropFirst() + (people.count == 1 ? "" : "s")
            return ConvoyPageModel.People(heading: "\(heading) (\(people.count))", people: people.map(personRow))
        }
    }

    package static func personRow(_ person: ConvoyParticipant) -> ConvoyPageModel.People.Person {
        ConvoyPageModel.People.Person(name: person.displayName, status: person.status.label, statusClass: person.status.rawValue)
    }
}
