import Foundation
import SitegenCore
import SitegenModel

// MARK: Convoys (docs/exports.md)

extension ExportDecoder {
    /// More seats than this is a corrupt export, not a vehicle.
    package static let maxSeats = 100

    /// `visibility` values a convoy is published with (any letter case, spaces around
    /// ignored); absent or null is published too.
    package static let publishedVisibilities: Set<String> = ["public", "shared", "group", "friends"]

    /// A convoy to publish, or nil for one whose `visibility` is `private` (its owner keeps
    /// it to the group; it is not read further). Any other value not known to be published
    /// ("privte", "hidden") keeps it unpublished too, with a warning: a typo must not
    /// publish a convoy its owner meant to keep private.
    public func publishedConvoy(_ field: JSONField, source: SourceRef) throws(FieldError) -> Convoy? {
        if case .object(let object) = field.node.value, let visibility = object["visibility"] {
            let visibilityField = JSONField(visibility, path: field.path.appending("visibility"))
            if !visibilityField.isNull {
                let value = try visibilityField.string()
                let word = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                if word == "private" { return nil }
                if !Self.publishedVisibilities.contains(word) {
                    let known = (["private"] + Self.publishedVisibilities.sorted()).map { "\"\($0)\"" }
                    notes?.warning(at: visibilityField,
                        "\(visibilityField.describeValue()) is not one of \(known.joined(separator: ", ")); the convoy is not published, as if private",
                        summary: "convoys with an unknown visibility are not published")
                    return nil
                }
            }
        }
        return try convoy(field, source: source)
    }

    /// Reads a convoy. Participant, driver and passenger ids are resolved here and then
    /// dropped, and `invitations` is never read, so no private value reaches the model.
    public func convoy(_ field: JSONField, source: SourceRef) throws(FieldError) -> Convoy {
        let fields = try record(field, .convoy)
        let idField = try fields.required("id")
        let idText = try idField.string()
        guard let id = ConvoyID(idText) else {
            throw idField.error("convoy id \(idField.describeValue()) must be a UUID or 1 to \(ConvoyID.maxLength) characters from A-Z, a-z, 0-9, _ and - (it becomes a URL path segment)")
        }
        let statusField = try fields.required("status")
        let status = try oneOf(ConvoyStatus.self, statusField)

        let participantFields = try fields.optional("participants")?.elements() ?? []
        var participants: [ConvoyParticipant] = []
        var participantIndex: [String: Int] = [:]
        for participantField in participantFields {
            let (participantId, participant) = try convoyParticipant(participantField)
            // A repeated id keeps its first person: seats name people by id, so the second was
            // shown both riding (as the first) and under "Still needs a seat".
            if let first = participantIndex[participantId] {
                if let idField = try? participantField.object().required("id") {
                    notes?.warning(at: idField, "this participant (\(quoted(participant.displayName))) has the id of \(quoted(participants[first].displayName)), listed before; only the first is shown",
                                   summary: "participants listed twice with one id; only the first is shown")
                }
                continue
            }
            participantIndex[participantId] = participants.count
            participants.append(participant)
        }
        let seatHolder: (JSONField) throws(FieldError) -> SeatHolder = { idField in
            let personId = ExportDecoder.normalisedId(try idField.string())
            return participantIndex[personId].map { .participant($0) } ?? .unknown(field: idField.path.description)
        }

        let vehicleFields = try fields.optional("vehicles")?.elements() ?? []
        var vehicleIds: [String] = []
        var vehicles: [ConvoyVehicle] = []
        for vehicleField in vehicleFields {
            let vehicleFields = try record(vehicleField, .vehicle)
            vehicleIds.append(ExportDecoder.normalisedId(try vehicleFields.required("id").string()))
            let capacityField = try vehicleFields.required("capacity")
            let capacity = try capacityField.int()
            guard (1...Self.maxSeats).contains(capacity) else {
                throw capacityField.error("a vehicle has 1 seat (the driver's) to \(Self.maxSeats), found \(capacity)")
            }
            vehicles.append(ConvoyVehicle(
                label: try plainText(try vehicleFields.required("label")),
                // The app's seed models name these `driver` and `passengers`.
                driver: try vehicleFields.optional("driverId", "driver").map(seatHolder),
                passengers: try vehicleFields.optional("passengerIds", "passengers")?.array(seatHolder) ?? [],
                capacity: capacity,
                notes: try vehicleFields.optional("notes").map { (f) throws(FieldError) in try markdown(f) },
                isLeader: false,
                location: location(of: vehicleField, within: source)
            ))
        }
        var unmatchedLeader: ExportLocation?
        if let leaderField = fields.optional("leaderVehicleId") {
            let leaderId = ExportDecoder.normalisedId(try leaderField.string())
            if let index = vehicleIds.firstIndex(of: leaderId) {
                vehicles[index].isLeader = true
            } else {
                unmatchedLeader = location(of: leaderField, within: source)
            }
        }

        let checkpoints = try fields.optional("checkpoints")?.array { (f) throws(FieldError) in try convoyCheckpoint(f) } ?? []
        return Convoy(
            id: id,
            title: try plainText(try fields.required("title")),
            notes: try fields.optional("notes").map { (f) throws(FieldError) in try markdown(f) },
            status: status,
            origin: try convoyPlace(try fields.required("origin")),
            destination: try fields.optional("destination").map { (f) throws(FieldError) in try convoyPlace(f) },
            // Stable: checkpoints with the same order stay as the app listed them.
            checkpoints: checkpoints.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element),
            route: try fields.optional("route").map { (f) throws(FieldError) in try convoyRoute(f) },
            vehicles: vehicles,
            participants: participants,
            createdAt: try recordTime(try fields.required("createdAt")),
            modifiedAt: try recordTime(try fields.required("modifiedAt")),
            source: source,
            recordPath: field.path.description,
            unmatchedLeader: unmatchedLeader
        )
    }

    package func location(of field: JSONField, within record: SourceRef) -> ExportLocation {
        ExportLocation(source: self.source(of: field, within: record), path: field.path.description)
    }

    /// The participant's id (for resolving seats only) and what may be published of them.
    package func convoyParticipant(_ field: JSONField) throws(FieldError) -> (String, ConvoyParticipant) {
        let fields = try record(field, .participant)
        let participantId = ExportDecoder.normalisedId(try fields.required("id").string())
        let participant = ConvoyParticipant(
            displayName: try plainText(try fields.required("displayName")),
            role: try oneOf(ConvoyParticipant.Role.self, try fields.required("role")),
            status: try oneOf(ConvoyParticipant.Status.self, try fields.required("status"))
        )
        return (participantId, participant)
    }

    /// A place, with its coordinates flat or nested as `coordinate {latitude, longitude}`
    /// (the app's seed models).
    package func convoyPlace(_ field: JSONField) throws(FieldError) -> ConvoyPlace {
        let fields = try record(field, .place)
        let coordinates = try fields.optional("coordinate").map { (f) throws(FieldError) in try record(f, .coordinate) } ?? fields
        let latitudeField = coordinates.optional("latitude")
        let longitudeField = coordinates.optional("longitude")
        var latitude = try latitudeField?.double()
        var longitude = try longitudeField?.double()
        if let latitudeField, let latitude, !(-90...90).contains(latitude) {
            throw latitudeField.error("latitude must be between -90 and 90")
        }
        if let longitudeField, let longitude, !(-180...180).contains(longitude) {
            throw longitudeField.error("longitude must be between -180 and 180")
        }
        // One without the other places nothing: the place was left off the map and the
        // directions without a word.
        if (latitude == nil) != (longitude == nil), let present = latitude == nil ? longitudeField : latitudeField {
            notes?.warning(at: present, "\(latitude == nil ? "longitude without latitude" : "latitude without longitude"); the place is left off the map and the directions",
                           summary: "places with only one of latitude and longitude are left off the map")
        }
        // 0, 0 is in the sea off West Africa: where a place the app could not locate comes
        // out. Directions there would send the convoy to the Gulf of Guinea.
        if latitude == 0 && longitude == 0, let latitudeField {
            notes?.warning(at: latitudeField, "latitude 0, longitude 0 is in the sea off West Africa, most likely a place that was not located; the place is left off the map and the directions",
                           summary: "places at latitude 0, longitude 0 are left off the map")
            latitude = nil
            longitude = nil
        }
        return ConvoyPlace(
            name: try plainText(try fields.required("name")),
            address: try fields.optional("address").map { (f) throws(FieldError) in try plainText(f) },
            latitude: latitude,
            longitude: longitude
        )
    }

    package func convoyCheckpoint(_ field: JSONField) throws(FieldError) -> ConvoyCheckpoint {
        let fields = try record(field, .checkpoint)
        return ConvoyCheckpoint(
            place: try convoyPlace(try fields.required("place")),
            order: try fields.required("order").int(),
            notes: try fields.optional("notes").map { (f) throws(FieldError) in try markdown(f) }
        )
    }

    /// The route's totals, under our names or the seed's `distance` (meters) and
    /// `duration` (seconds).
    package func convoyRoute(_ field: JSONField) throws(FieldError) -> ConvoyRoute {
        let fields = try record(field, .route)
        return ConvoyRoute(distanceMeters: try distance(try fields.required("distanceMeters", "distance")),
                           durationSeconds: try duration(try fields.required("durationSeconds", "duration")))
    }

    /// One of an enumeration's raw values, with the accepted values in the message.
    package func oneOf<Value: RawRepresentable & CaseIterable>(_ type: Value.Type, _ field: JSONField) throws(FieldError) -> Value
    where Value.RawValue == String {
        let text = try field.string()
        guard let value = Value(rawValue: text) else {
            let accepted = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw field.error("\(field.describeValue()) is not one of \(accepted)")
        }
        return value
    }
}
