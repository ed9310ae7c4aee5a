import Foundation
import SitegenCore
import SitegenModel

extension Convoy {
    public var path: String { "convoys/\(id.value)/" }

    /// "Chicago Union Station → Mars Cheese Castle → American Family Field"
    public var routeLine: String {
        let names = [origin.name] + checkpoints.map(\.place.name) + [destination?.name ?? "destination not set yet"]
        return names.joined(separator: " → ")
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
enum ConvoyPages {
    static let templates = ["convoy"]

    /// Convoys in the order the home page lists them: by title, then id.
    static func sorted(_ convoys: [Convoy]) -> [Convoy] {
        convoys.sorted { ($0.title.lowercased(), $0.id.value) < ($1.title.lowercased(), $1.id.value) }
    }

    /// The page, and its GPX route when the convoy has one.
    static func files(for convoy: Convoy) -> [PlannedFile] {
        var files = [PlannedFile(path: SiteLinks.file(for: convoy.path)) { kit in page(convoy, kit: kit) }]
        if let route = convoy.routeFilePath {
            // routeFilePath exists only for two points or more, which make a route.
            files.append(PlannedFile(path: route) { _ in Array(GPXFile.route(name: convoy.title, points: convoy.routePoints)!.utf8) })
        }
        return files
    }

    /// One row of the home page's convoy list.
    static func homeRow(_ convoy: Convoy, kit: RenderKit) -> [String: Any] {
        [
            "title": convoy.title,
            "href": kit.href(convoy.path, from: ""),
            "status": convoy.status.label,
            "statusClass": convoy.status.rawValue,
            "vehicles": Formatting.count(convoy.vehicles.count, "vehicle"),
            "route": convoy.routeLine,
        ]
    }

    static func page(_ convoy: Convoy, kit: RenderKit) -> [UInt8] {
        let description = "\(convoy.status.label) convoy: \(convoy.routeLine). \(Formatting.count(convoy.vehicles.count, "vehicle")), \(Formatting.count(convoy.participants.filter { $0.status != .declined }.count, "person", "people"))."
        let meta = PageMeta(path: convoy.path, title: convoy.title, description: description)

        // Keys differ between nesting levels on purpose: Mustache looks a missing key up in
        // the enclosing context, so a stop without notes must not find the convoy's notes.
        var context: [String: Any] = [
            "title": convoy.title,
            "status": convoy.status.label,
            "statusClass": convoy.status.rawValue,
            "routeLine": convoy.routeLine,
            "stops": stops(convoy),
            "vehicles": convoy.vehicles.map { vehicleCard($0, in: convoy) },
            "vehicleCount": Formatting.count(convoy.vehicles.count, "vehicle"),
            "roleGroups": roleGroups(convoy),
            "updatedText": kit.format.dateTime(convoy.modifiedAt),
            "updatedISO": Formatting.iso8601(convoy.modifiedAt),
        ]
        if let notes = convoy.notes { context["notesHTML"] = MarkdownRenderer.html(notes) }
        if let routeMap = routeMap(convoy) { context["routeMap"] = routeMap }
        if let directions = HandoffLinks.directions(convoy.routePoints, label: "Directions") { context["directions"] = directions }
        if let route = convoy.routeFilePath { context["routeFileHref"] = kit.href(route, from: convoy.path) }
        if let route = convoy.route {
            context["route"] = [
                "distance": Formatting.miles(meters: route.distanceMeters),
                "duration": Formatting.duration(seconds: route.durationSeconds),
            ]
        }
        let needingSeats = convoy.peopleNeedingSeats
        if !needingSeats.isEmpty {
            context["needsSeat"] = [
                "heading": "Still needs a seat (\(needingSeats.count))",
                "people": needingSeats.map(personRow),
            ] as [String: Any]
        }
        let items = convoy.readiness
        let done = items.filter(\.isDone).count
        // A draft shows its checklist; a ready or active convoy only when it fails it.
        if convoy.status == .draft || (convoy.isExpectedReady && done < items.count) {
            let summary: String
            if done == items.count {
                summary = "Everything is in place: this draft is ready to go."
            } else if convoy.status == .draft {
                summary = "\(done) of \(items.count) done."
            } else {
                summary = "This convoy is marked \(convoy.status.rawValue), but only \(done) of \(items.count) are done."
            }
            context["checklist"] = [
                "summary": summary,
                "items": items.map { ["requirement": $0.requirement, "done": $0.isDone] as [String: Any] },
            ] as [String: Any]
        }
        let doubleSeated = convoy.peopleInSeveralSeats
        if !doubleSeated.isEmpty {
            context["doubleSeated"] = doubleSeated.map { person, seats in
                "\(convoy.participants[person].displayName) is listed in more than one seat: \(listJoined(seats.map { convoy.vehicles[$0.vehicle].label }))."
            }
        }
        return kit.page("convoy", meta: meta, context: context)
    }

    /// The route drawn like an itinerary's; places without coordinates are named under it.
    /// A lone start (a draft without a destination) is no route: nothing is drawn.
    static func routeMap(_ convoy: Convoy) -> [String: Any]? {
        let (places, withoutCoordinates) = convoy.routePlaces
        guard places.count >= 2, let picture = RoutePicture.make(places: places) else { return nil }
        var description = "Start, stops and destination in order: \(places.map(\.name).joined(separator: " → "))."
        if !withoutCoordinates.isEmpty { description += " Not drawn (no coordinates): \(listJoined(withoutCoordinates))." }
        return RouteMap.context(picture, title: "Route map of \(convoy.title)", description: description)
    }

    /// Origin, checkpoints by `order`, destination.
    static func stops(_ convoy: Convoy) -> [[String: Any]] {
        func stop(_ kind: String, _ place: ConvoyPlace?, notes: String? = nil, missing: String? = nil) -> [String: Any] {
            var row: [String: Any] = ["kind": kind]
            if let place {
                row["name"] = place.name
                if let address = place.address { row["address"] = address }
            } else if let missing {
                row["missing"] = missing
            }
            if let notes { row["stopNotesHTML"] = MarkdownRenderer.html(notes) }
            return row
        }
        var rows = [stop("Start", convoy.origin)]
        for (index, checkpoint) in convoy.checkpoints.enumerated() {
            rows.append(stop("Stop \(index + 1)", checkpoint.place, notes: checkpoint.notes))
        }
        rows.append(stop("Destination", convoy.destination, missing: "Not set yet"))
        return rows
    }

    static func vehicleCard(_ vehicle: ConvoyVehicle, in convoy: Convoy) -> [String: Any] {
        let used = vehicle.seatsUsed, capacity = vehicle.capacity
        var seats = "\(used) of \(Formatting.count(capacity, "seat"))"
        if vehicle.isOverCapacity { seats += " — over capacity" }
        var card: [String: Any] = [
            "label": vehicle.label,
            "isLeader": vehicle.isLeader,
            "isFull": vehicle.isFull,
            "isOver": vehicle.isOverCapacity,
            "seats": seats,
            // A number we compute, never text from an export: safe in a style attribute.
            "barWidth": Formatting.oneDecimal(min(Double(used) / Double(capacity), 1) * 100) + "%",
            "driver": vehicle.driver.map { convoy.name(of: $0, unknown: "Unknown driver") } ?? "No driver yet",
            "hasDriver": vehicle.driver != nil,
            "passengers": vehicle.passengers.map { convoy.name(of: $0, unknown: "Unknown passenger") },
        ]
        let free = capacity - used
        if free > 0 { card["freeSeats"] = "\(Formatting.count(free, "seat")) free" }
        if let notes = vehicle.notes { card["vehicleNotesHTML"] = MarkdownRenderer.html(notes) }
        return card
    }

    /// Owners, drivers, passengers, viewers — each group in the export's order.
    static func roleGroups(_ convoy: Convoy) -> [[String: Any]] {
        ConvoyParticipant.Role.allCases.compactMap { role in
            let people = convoy.participants.filter { $0.role == role }
            guard !people.isEmpty else { return nil }
            let heading = role.rawValue.prefix(1).uppercased() + role.rawValue.dropFirst() + (people.count == 1 ? "" : "s")
            return ["heading": "\(heading) (\(people.count))", "people": people.map(personRow)] as [String: Any]
        }
    }

    static func personRow(_ person: ConvoyParticipant) -> [String: Any] {
        ["name": person.displayName, "status": person.status.label, "statusClass": person.status.rawValue]
    }
}
