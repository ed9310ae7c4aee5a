import Foundation
import SitegenCore

/// The keys one kind of export object may have (docs/exports.md lists them for people):
/// what must be there, what may be, and what is read only to be dropped (private values,
/// app bookkeeping). A key outside all of them is a warning, so a renamed or misspelt field
/// can never quietly turn into a wrong page.
public struct RecordSchema: Sendable {
    public let name: String
    /// Each entry is one field: its name, then the other names the app writes it under.
    public let required: [[String]]
    public let known: Set<String>
    /// The members that hold records of their own, so a record's every missing field can be
    /// named at once, however deep (`ExportDecoder.missingFields`).
    package let nested: [(key: String, record: Nested)]

    package indirect enum Nested: Sendable {
        case object(RecordSchema)
        case array(RecordSchema)
    }

    package init(_ name: String, required: [[String]], optional: [String] = [], ignored: [String] = [],
                 nested: [(key: String, record: Nested)] = []) {
        self.name = name
        self.required = required
        known = Set(required.joined()).union(optional).union(ignored)
        self.nested = nested
    }
}

extension RecordSchema {
    /// The schema of one record of an input folder's files, given the record.
    public typealias OfRecord = @Sendable (JSONField) -> RecordSchema

    /// A record of an itinerary file: a bare trip, or `{trip, games, customItems}`.
    public static let itineraryFile: OfRecord = { field in
        if case .object(let object) = field.node.value, object["trip"] != nil { return .itinerary }
        return .trip
    }

    package static let poll = RecordSchema("poll",
        required: [["id", "pollId"], ["title"], ["shareCode"], ["tripSnapshots"], ["createdAt"], ["modifiedAt"]],
        optional: ["description"],
        ignored: ["ownerId", "tripVersions"],
        nested: [("tripSnapshots", .array(trip))])
    package static let vote = RecordSchema("vote",
        required: [["id", "voteId"], ["pollId"], ["odg", "voterId"], ["rankings"], ["votedAt"], ["modifiedAt"]])
    package static let trip = RecordSchema("trip",
        required: [["id"], ["name"], ["preferences"], ["stops"]],
        optional: ["travelSegments", "totalGames", "totalDistanceMeters", "totalDrivingSeconds", "notes"],
        nested: [("preferences", .object(preferences)), ("stops", .array(stop)), ("travelSegments", .array(segment))])
    package static let preferences = RecordSchema("trip preferences",
        required: [["startDate"], ["endDate"]],
        optional: ["sports"])
    package static let stop = RecordSchema("stop",
        required: [["city"], ["latitude"], ["longitude"], ["arrivalDate"], ["departureDate"]],
        optional: ["state", "games"])
    package static let segment = RecordSchema("travel segment",
        required: [["id"], ["fromCity"], ["toCity"], ["distanceMeters"], ["durationSeconds"]],
        optional: ["departureDate"])
    package static let game = RecordSchema("game",
        required: [["id"], ["awayTeam"], ["homeTeam"], ["startTime"]],
        optional: ["sport", "venue", "city", "timeZone"])
    package static let customItem = RecordSchema("custom item",
        required: [["id", "itemId"], ["tripId"], ["category"], ["title"], ["anchorType"], ["anchorDay"], ["createdAt"], ["modifiedAt"]],
        optional: ["anchorId", "notes"])
    package static let itinerary = RecordSchema("itinerary",
        required: [["trip"]],
        optional: ["games", "customItems"],
        nested: [("trip", .object(trip)), ("games", .array(game)), ("customItems", .array(customItem))])
    package static let optionSet = RecordSchema("trip-option set",
        required: [["title"], ["options"]],
        optional: ["id", "generatedAt"],
        nested: [("options", .array(trip))])
    package static let convoy = RecordSchema("convoy",
        required: [["id"], ["title"], ["status"], ["origin"], ["createdAt"], ["modifiedAt"]],
        optional: ["notes", "destination", "checkpoints", "route", "vehicles", "visibility", "leaderVehicleId", "participants"],
        ignored: ["invitations", "ownerId"],
        nested: [("origin", .object(place)), ("destination", .object(place)), ("checkpoints", .array(checkpoint)),
                 ("route", .object(route)), ("vehicles", .array(vehicle)), ("participants", .array(participant))])
    package static let place = RecordSchema("place",
        required: [["name"]],
        optional: ["address", "latitude", "longitude", "coordinate"],
        nested: [("coordinate", .object(coordinate))])
    // Each optional, as flat: one without the other is a warning (ExportDecoder.convoyPlace).
    package static let coordinate = RecordSchema("coordinate", required: [], optional: ["latitude", "longitude"])
    package static let checkpoint = RecordSchema("checkpoint",
        required: [["place"], ["order"]],
        optional: ["notes"],
        ignored: ["id"],
        nested: [("place", .object(place))])
    package static let route = RecordSchema("route",
        required: [["distanceMeters", "distance"], ["durationSeconds", "duration"]])
    package static let vehicle = RecordSchema("vehicle",
        required: [["id"], ["label"], ["capacity"]],
        optional: ["driverId", "driver", "passengerIds", "passengers", "notes"])
    package static let participant = RecordSchema("participant",
        required: [["id"], ["displayName"], ["role"], ["status"]])
    /// A tip of a site's `tips.file` (docs/site-config.md).
    package static let tip = RecordSchema("tip",
        required: [["category"], ["title"], ["subtitle"], ["icon"]],
        optional: ["id"])
}

extension ExportDecoder {
    /// The object's members, once every required field is known to be there (all missing
    /// ones are named in one error) and every unknown key has been noted as a warning.
    package func record(_ field: JSONField, _ schema: RecordSchema) throws(FieldError) -> JSONFields {
        let fields = try field.object()
        for member in fields.object.members where !schema.known.contains(member.key) {
            notes?.unknownField(member.key, at: JSONField(member.value, path: field.path.appending(member.key)),
                                schema: schema)
        }
        if let error = Self.missingError(field, fields.object, schema) { throw error }
        // A field under two of its names (`id` and `pollId`) with different values: the
        // first name is read, and the other must not be dropped without a word.
        for names in schema.required where names.count > 1 {
            let present = names.compactMap { name in fields.object[name].map { (name: name, node: $0) } }
            guard let used = present.first else { continue }
            for other in present.dropFirst() where !Self.sameValue(used.node.value, other.node.value) {
                notes?.conflict(used: used.name, ignored: other.name,
                                at: JSONField(other.node, path: field.path.appending(other.name)), schema: schema)
            }
        }
        return JSONFields(object: fields.object, field: field, schema: schema)
    }

    /// Whether two spellings of one field hold the same value: ids in either case.
    static func sameValue(_ a: JSONNode.Value, _ b: JSONNode.Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)):
            return x == y || (UUID(uuidString: x) != nil && UUID(uuidString: x) == UUID(uuidString: y))
        default: return false
        }
    }

    /// The error naming the required fields `object` (at `field`) lacks, nil when it has them.
    private static func missingError(_ field: JSONField, _ object: JSONObject, _ schema: RecordSchema) -> FieldError? {
        let missing = schema.required.filter { names in !names.contains { object[$0] != nil } }
        if missing.count == 1, let names = missing.first {
            return FieldError(path: field.path.appending(names[0]), offset: field.node.offset,
                              message: "required field is missing\(alternatives(names))", isMissingField: true)
        }
        if missing.count > 1 {
            let list = missing.map { "\"\($0[0])\"\(alternatives($0))" }.joined(separator: ", ")
            var error = field.error("\(missing.count) required fields of the \(schema.name) are missing: \(list)")
            error.isMissingField = true
            return error
        }
        return nil
    }

    /// Every missing required field of the record at `field` and of the records inside it
    /// (a trip's preferences, stops and segments; a poll's trips; …), one error per object
    /// that lacks any, in the order of the file. Decoding stops at the first error; this
    /// is asked only then, so a file with many gaps is fixed in one go, not one per build.
    package static func missingFields(in field: JSONField, _ schema: RecordSchema) -> [FieldError] {
        guard case .object(let object) = field.node.value else { return [] }
        var errors = missingError(field, object, schema).map { [$0] } ?? []
        for (key, nested) in schema.nested {
            guard let node = object[key] else { continue }
            let member = JSONField(node, path: field.path.appending(key))
            switch (nested, node.value) {
            case (.object(let inner), .object):
                errors += missingFields(in: member, inner)
            case (.array(let inner), .array(let elements)):
                for (index, element) in elements.enumerated() {
                    errors += missingFields(in: JSONField(element, path: member.path.appending(index: index)), inner)
                }
            default:
                // Another kind of value (a tripSnapshots string of base64, a null) is checked
                // when it is decoded.
                continue
            }
        }
        return errors
    }

    package static func alternatives(_ names: [String]) -> String {
        let others = names.dropFirst().map { "\"\($0)\"" }.joined(separator: " or ")
        return others.isEmpty ? "" : " (or \(others))"
    }
}

/// What one export file's decoding noticed besides errors: unknown fields (reported once
/// per name and file, with a count) and its numeric dates (for `DatePlausibility`).
/// One per file; its records may be decoded on several threads.
package final class ExportNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var unknown: [String: (field: JSONField, schema: RecordSchema, count: Int)] = [:]
    private var conflicts: [(used: String, ignored: String, field: JSONField, schema: RecordSchema)] = []
    private var warnings: [(field: JSONField, message: String, summary: String?)] = []

    /// A warning about one value of a record, reported at it with the file's other notes.
    package func warning(at field: JSONField, _ message: String, summary: String? = nil) {
        lock.withLock { warnings.append((field, message, summary)) }
    }

    package func conflict(used: String, ignored: String, at field: JSONField, schema: RecordSchema) {
        lock.withLock { conflicts.append((used, ignored, field, schema)) }
    }

    package func unknownField(_ key: String, at field: JSONField, schema: RecordSchema) {
        lock.withLock {
            if let seen = unknown[key] {
                // Keep the first in the file, whichever thread saw it first.
                let first = field.node.offset < seen.field.node.offset ? field : seen.field
                unknown[key] = (first, field.node.offset < seen.field.node.offset ? schema : seen.schema, seen.count + 1)
            } else {
                // The closest known name is looked for only for names that are reported.
                unknown[key] = (field, schema, 1)
            }
        }
    }

    /// Unknown field names reported one by one per file; past them, one line counts the rest
    /// (`--verbose` lists every one). A file of 100,000 made-up names printed 100,000 lines.
    package static let namesPerFile = 20

    /// One warning per unknown field name, at its first place in the file, for the first
    /// `namesPerFile` names in the file; then one for the rest.
    package func report(to log: DiagnosticLog, source: (Int) -> SourceRef) {
        // In file order, whichever thread decoded the record.
        for warning in lock.withLock({ warnings }).sorted(by: { $0.field.node.offset < $1.field.node.offset }) {
            log.add(source(warning.field.node.offset).diagnostic(.warning, field: warning.field.path.description,
                                                                 warning.message, summary: warning.summary))
        }
        for conflict in lock.withLock({ conflicts }) {
            log.add(source(conflict.field.node.offset).diagnostic(.warning, field: Self.quoted(conflict.field.path.description),
                "the \(conflict.schema.name) has both \"\(conflict.used)\" and \"\(conflict.ignored)\", with different values; \"\(conflict.used)\" is read and \"\(conflict.ignored)\" ignored",
                summary: "fields written under two names with different values: the first name is read"))
        }
        let found = lock.withLock { unknown }.sorted { $0.value.field.node.offset < $1.value.field.node.offset }
        let shown = log.keepsEvery ? found.count : min(found.count, Self.namesPerFile)
        for (key, entry) in found.prefix(shown) {
            let times = entry.count > 1 ? " (\(Formatting.count(entry.count, "time")) in this file)" : ""
            let summary = "unknown field \"\(Self.quoted(key))\" in \(entry.schema.name)s; it is ignored"
            let suggestion = key.count <= 64 ? didYouMean(key, among: entry.schema.known) : nil
            log.add(source(entry.field.node.offset).diagnostic(.warning, field: Self.quoted(entry.field.path.description),
                "sitegen does not know the field \"\(Self.quoted(key))\" of a \(entry.schema.name)\(suggestion ?? ""); it is ignored\(times)",
                summary: summary))
        }
        guard shown < found.count, let next = found.dropFirst(shown).first else { return }
        let rest = found.count - shown
        log.add(source(next.value.field.node.offset).diagnostic(.warning,
            "and \(Formatting.count(rest, "more field name", "more field names")) sitegen does not know in this file; they are ignored (--verbose lists every one)"))
    }

    /// A field name as a warning quotes it: at most 64 characters (a 1 MB name was printed
    /// whole, twice).
    static func quoted(_ key: String) -> String {
        key.count <= 64 ? key : String(key.prefix(63)) + "…"
    }
}

/// " (did you mean "x"?)" for a key within two edits of a known one, else nil.
package func didYouMean(_ key: String, among known: some Collection<String>) -> String? {
    known.sorted().min { editDistance($0, key) < editDistance($1, key) }
        .flatMap { isCloseSpelling($0, key) ? " (did you mean \"\($0)\"?)" : nil }
}
