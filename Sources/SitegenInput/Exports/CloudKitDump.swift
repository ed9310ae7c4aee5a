import Foundation
import SitegenCore

/// A CloudKit Web Services records dump — `{"records": [{recordName, recordType, fields:
/// {NAME: {value, type}}, created, modified, …}]}`, as `records/query` returns it and
/// `cktool` saves it — turned into the plain records the decoders read (docs/exports.md).
///
/// Each record of the wanted type becomes an object of its field values, converted by
/// type (TIMESTAMP milliseconds to an ISO date, REFERENCE to its record name, lists to
/// arrays; BYTES stay base64, which Data fields accept). Values keep their offsets, so a
/// problem is still reported at its line and column in the dump.
public enum CloudKitDump {
    /// The record types the app saves, with the names its id field has in plain exports
    /// (`recordName` stands in when none is there) and the system dates that stand in for
    /// missing date fields (every CloudKit record has `created` and `modified`).
    public struct RecordType: Sendable {
        package let name: String
        package let idKeys: [String]
        package let systemDates: [(field: String, system: String)]
    }

    public static let poll = RecordType(name: "TripPoll", idKeys: ["id", "pollId"],
                                 systemDates: [("createdAt", "created"), ("modifiedAt", "modified")])
    public static let vote = RecordType(name: "PollVote", idKeys: ["id", "voteId"],
                                 systemDates: [("votedAt", "created"), ("modifiedAt", "modified")])
    public static let customItem = RecordType(name: "CustomItineraryItem", idKeys: ["id", "itemId"],
                                       systemDates: [("createdAt", "created"), ("modifiedAt", "modified")])

    /// The field types CloudKit Web Services writes.
    package static let scalarTypes: Set<String> = ["STRING", "INT64", "DOUBLE", "TIMESTAMP", "BYTES", "ASSET", "REFERENCE", "LOCATION"]

    package struct Reading {
        package var records: [JSONField] = []
        package var errors: [FieldError] = []
        /// Records of other types: the first of each and how many.
        package var skipped: [String: (first: JSONField, count: Int)] = [:]
        /// Records CloudKit could not return (`serverErrorCode`), to warn about.
        package var failed: [(field: JSONField, reason: String)] = []
        /// The last page's `continuationMarker`: the query had more pages than the file
        /// holds, so records are missing.
        package var continues: JSONField?
        /// TIMESTAMPs written in seconds, not milliseconds: the first and how many.
        package var secondsTimestamps: (first: JSONField, count: Int)?
    }

    /// 1990-01-01 to 2100-01-01 in seconds since 1970. As milliseconds these values name
    /// days of January and February 1970, which no record of the app can carry: a dump
    /// written with seconds where CloudKit writes milliseconds showed every date as
    /// January 1970, silently. Such values are read as seconds, with a warning.
    package static let secondsWindow: ClosedRange<Double> = 631_152_000...4_102_444_800

    /// `root` is a dump when it is an object with a `records` array (one response), or an
    /// array of such objects: the pages of a query that went on with `continuationMarker`,
    /// saved together (each page read as a vote, before, was six missing fields).
    package static func isDump(_ root: JSONNode) -> Bool {
        !pages(root).isEmpty
    }

    /// What CloudKit said when the whole request failed (`{"serverErrorCode":
    /// "AUTHENTICATION_FAILED", "reason": …}` saved in place of the records): read as a
    /// record, it was "6 required fields of the vote are missing".
    package static func failedRequest(_ root: JSONNode) -> String? {
        guard case .object(let object) = root.value, object["records"] == nil,
              let code = object["serverErrorCode"], case .string(let text) = code.value else { return nil }
        if let reason = object["reason"], case .string(let words) = reason.value, !words.isEmpty { return "\(text): \(words)" }
        return text
    }

    /// The last page's `continuationMarker`, when it has one: `records/query` returns one
    /// with a page that is not the last, and the next request passes it to get the rest.
    private static func continuationMarker(_ root: JSONNode) -> JSONField? {
        let last: (JSONNode, JSONPath)
        if case .array(let nodes) = root.value, let node = nodes.last {
            last = (node, JSONPath.root.appending(index: nodes.count - 1))
        } else {
            last = (root, .root)
        }
        guard case .object(let object) = last.0.value, let marker = object["continuationMarker"] else { return nil }
        if case .null = marker.value { return nil }
        if case .string(let text) = marker.value, text.isEmpty { return nil }
        return JSONField(marker, path: last.1.appending("continuationMarker"))
    }

    /// Each page's `records` array, with its path.
    private static func pages(_ root: JSONNode) -> [JSONField] {
        func records(_ node: JSONNode, _ path: JSONPath) -> JSONField? {
            guard case .object(let object) = node.value, let records = object["records"], case .array = records.value else { return nil }
            return JSONField(records, path: path.appending("records"))
        }
        if let one = records(root, .root) { return [one] }
        guard case .array(let nodes) = root.value, !nodes.isEmpty else { return [] }
        let pages = nodes.enumerated().compactMap { records($1, JSONPath.root.appending(index: $0)) }
        return pages.count == nodes.count ? pages : []
    }

    /// The records of `type` in a dump; `type` nil: this kind of export has no record type,
    /// and every record is skipped.
    package static func read(_ root: JSONNode, type: RecordType?) -> Reading {
        var reading = Reading()
        reading.continues = continuationMarker(root)
        for element in pages(root).flatMap({ (try? $0.elements()) ?? [] }) {
            do throws(FieldError) {
                let record = try element.object()
                if let deleted = record.optional("deleted"), case .bool(true) = deleted.node.value { continue }
                if let code = record.optional("serverErrorCode") {
                    let reason = (try? record.optional("reason")?.string()) ?? nil
                    reading.failed.append((element, [try code.string(), reason].compactMap { $0 }.joined(separator: ": ")))
                    continue
                }
                let typeName = try record.required("recordType").string()
                guard let type, typeName == type.name else {
                    let seen = reading.skipped[typeName]
                    reading.skipped[typeName] = (seen?.first ?? element, (seen?.count ?? 0) + 1)
                    continue
                }
                reading.records.append(try plainRecord(record, type: type, seconds: &reading.secondsTimestamps))
            } catch {
                reading.errors.append(error)
            }
        }
        return reading
    }

    /// The record's fields as a plain export object.
    /// `seconds` counts the TIMESTAMPs read as seconds (`timestamp(_:seconds:)`).
    package static func plainRecord(_ record: JSONFields, type: RecordType,
                                    seconds: inout (first: JSONField, count: Int)?) throws(FieldError) -> JSONField {
        let fieldsField = try record.required("fields")
        let fields = try fieldsField.object()
        var members: [(key: String, value: JSONNode)] = []
        for member in fields.object.members {
            let entry = try JSONField(member.value, path: fieldsField.path.appending(member.key)).object()
            let value = try entry.required("value")
            let typeName = try entry.optional("type")?.string()
            members.append((member.key, try converted(value, type: typeName, typeField: entry.optional("type"), seconds: &seconds)))
        }
        let present = Set(members.map(\.key))
        if !type.idKeys.contains(where: present.contains), let name = record.optional("recordName") {
            _ = try name.string()
            members.append((type.idKeys[0], name.node))
        }
        for (key, system) in type.systemDates where !present.contains(key) {
            if let stamp = try record.optional(system)?.object().optional("timestamp") {
                members.append((key, try timestamp(stamp, seconds: &seconds)))
            }
        }
        return JSONField(JSONNode(.object(JSONObject(members: members)), offset: fieldsField.node.offset), path: fieldsField.path)
    }

    /// One field value as the plain export would hold it.
    package static func converted(_ value: JSONField, type: String?, typeField: JSONField?,
                                  seconds: inout (first: JSONField, count: Int)?) throws(FieldError) -> JSONNode {
        guard let type else {
            // A value written without its type is taken as it is, but a reference is still
            // recognisable by its recordName: a vote's pollId was "expected a UUID, found an object".
            if case .object(let object) = value.node.value, let name = object["recordName"], case .string = name.value { return name }
            return value.node
        }
        if type.hasSuffix("_LIST"), scalarTypes.contains(String(type.dropLast(5))) {
            let element = String(type.dropLast(5))
            let nodes = try value.elements().map { (item) throws(FieldError) in
                try converted(item, type: element, typeField: typeField, seconds: &seconds)
            }
            return JSONNode(.array(nodes), offset: value.node.offset)
        }
        switch type {
        case "ASSET":
            // Web Services return an asset as where to download it, never its bytes.
            if case .object(let object) = value.node.value, object["downloadURL"] != nil || object["fileChecksum"] != nil {
                throw value.error("a CloudKit asset is a link to its file (downloadURL), not the file: download it and write its contents here as base64, or use the app's JSON export")
            }
            _ = try value.string()
            return value.node
        case "STRING", "BYTES":
            // BYTES and ASSET are base64; the fields that hold them (Data fields) decode it.
            _ = try value.string()
            return value.node
        case "INT64", "DOUBLE":
            _ = try value.double()
            return value.node
        case "TIMESTAMP":
            return try timestamp(value, seconds: &seconds)
        case "REFERENCE":
            return try value.object().required("recordName").node
        case "LOCATION":
            _ = try value.object()
            return value.node
        default:
            let accepted = (scalarTypes.sorted() + ["…_LIST"]).joined(separator: ", ")
            throw (typeField ?? value).error("unknown CloudKit field type \"\(type)\"; expected one of \(accepted)")
        }
    }

    /// A TIMESTAMP (milliseconds since 1970) as an ISO 8601 string with milliseconds, which
    /// every date field reads whatever `numericDates` says. A value that can only be seconds
    /// (`secondsWindow`) is read as seconds and counted in `seconds`, to be warned about.
    package static func timestamp(_ field: JSONField, seconds: inout (first: JSONField, count: Int)?) throws(FieldError) -> JSONNode {
        var milliseconds = try field.double()
        if secondsWindow.contains(milliseconds) {
            milliseconds *= 1000
            seconds = (seconds?.first ?? field, (seconds?.count ?? 0) + 1)
        }
        guard ExportDateReader.representable.contains(milliseconds / 1000) else {
            throw field.error("a TIMESTAMP of \(ExportDecoder.describe(milliseconds)) milliseconds since 1970 is outside the years 1 to 9999")
        }
        let whole = Int(milliseconds.rounded(.down))
        let seconds = Int((Double(whole) / 1000).rounded(.down))
        let millis = whole - seconds * 1000
        let iso = Formatting.iso8601(Date(timeIntervalSince1970: Double(seconds)))
        return JSONNode(.string(iso.dropLast() + "." + Formatting.padded(millis, 3) + "Z"), offset: field.node.offset)
    }
}
