import Foundation
import SitegenCore

/// An input file as read, with its hash for manifest.json.
public struct InputFile: Sendable, Equatable {
    /// Path relative to the site folder, with `/` separators.
    public let path: String
    public let sha256: String

    package init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }
}

/// Reads every `*.json` below an input folder and decodes each record, reporting all
/// problems (one per record) rather than stopping at the first.
public struct ExportLoader: Sendable {
    /// Files larger than this are refused before parsing (bounded memory and time).
    public static let maxFileBytes = 32 * 1024 * 1024

    public let siteFolder: URL
    public let decoder: ExportDecoder
    public let log: DiagnosticLog

    public init(siteFolder: URL, decoder: ExportDecoder, log: DiagnosticLog) {
        self.siteFolder = siteFolder
        self.decoder = decoder
        self.log = log
    }

    /// The same loader with its own log and (when this one collects dates) its own date
    /// collector: one file's diagnostics and dates, kept apart so that a rebuild can replay
    /// them without reading the file (PollFileCache).
    package func capturing(to log: DiagnosticLog, dates: DatePlausibility) -> ExportLoader {
        var decoder = self.decoder
        if decoder.plausibility != nil { decoder.plausibility = dates }
        return ExportLoader(siteFolder: siteFolder, decoder: decoder, log: log)
    }

    /// The same loader reporting into another log (a second reading of files whose
    /// problems were reported already).

    package func reporting(to log: DiagnosticLog) -> ExportLoader {
        var decoder = self.decoder
        decoder.plausibility = nil
        return ExportLoader(siteFolder: siteFolder, decoder: decoder, log: log)
    }

    /// Decodes every record in every JSON file below `folder` (missing folder: none).
    /// Files are processed in parallel; results keep file order, then record order; `files`
    /// are the paths of the files read, relative to the site folder.
    /// `schema` is the schema of a record in those files: with it, a record missing a
    /// required field has every missing field named, however deep (`RecordSchema.nested`).
    public func load<Record: Sendable>(
        _ folder: URL?,
        cloudKit recordType: CloudKitDump.RecordType? = nil,
        schema: RecordSchema.OfRecord? = nil,
        record decode: @escaping @Sendable (ExportDecoder, JSONField, SourceRef) throws(FieldError) -> Record
    ) -> (records: [Record], files: [String]) {
        guard let folder else { return ([], []) }
        let urls = Self.jsonFiles(below: folder, log: log)
        let results = ConcurrentResults<([Record], String?)>(count: urls.count)
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            results[index] = loadFile(urls[index], cloudKit: recordType, schema: schema, decode: decode)
        }
        var records: [Record] = []
        var files: [String] = []
        for (fileRecords, file) in results.values {
            records.append(contentsOf: fileRecords)
            if let file { files.append(file) }
        }
        return (records, files)
    }

    /// `recordType`: the CloudKit records this kind of export is read from in a dump.
    package func loadFile<Record>(
        _ url: URL,
        cloudKit recordType: CloudKitDump.RecordType? = nil,
        schema: RecordSchema.OfRecord? = nil,
        decode: (ExportDecoder, JSONField, SourceRef) throws(FieldError) -> Record
    ) -> ([Record], String?) {
        let shown = displayPath(url)
        let bytes: [UInt8]
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            if let size = attributes[.size] as? Int, size > Self.maxFileBytes {
                log.error(shown, "file is \(size) bytes; the limit for one export file is \(Self.maxFileBytes) bytes")
                return ([], nil)
            }
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            log.add(.unreadable(shown, "cannot read the file: \(Diagnostic.readFailure(url.path, error))"))
            return ([], nil)
        }
        // Its path only: BuildFingerprint has already hashed every input file.
        let file = relativePath(of: url)
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            let position = SourcePosition(offset: error.offset, in: bytes)
            log.add(Diagnostic(.error, file: shown, line: position.line, column: position.column,
                               message: "not valid JSON: \(error.message)"))
            return ([], file)
        }
        let lines = LineIndex(path: url.path)
        let locate: @Sendable (Int) -> SourceRef = { offset in SourceRef(file: shown, offset: offset, index: lines) }
        func report(_ error: FieldError) {
            log.add(locate(error.offset).diagnostic(.error, field: error.path.description, error.message))
        }
        var decoder = self.decoder
        decoder.locator = locate
        let notes = ExportNotes()
        decoder.notes = notes
        var fields: [JSONField] = []
        if let failure = CloudKitDump.failedRequest(root) {
            log.add(locate(root.offset).diagnostic(.error,
                "this file is CloudKit's answer to a request that failed (\(failure)), not records: run the query again and save its records"))
            return ([], file)
        }
        if CloudKitDump.isDump(root) {
            let dump = CloudKitDump.read(root, type: recordType)
            fields = dump.records
            dump.errors.forEach(report)
            reportSkipped(dump, wanted: recordType, locate: locate)
        } else if case .array(let elements) = root.value {
            fields = elements.enumerated().map { JSONField($1, path: JSONPath.root.appending(index: $0)) }
        } else {
            fields = [JSONField(root)]
        }
        var records: [Record] = []
        records.reserveCapacity(fields.count)
        // Decoded again without notes or dates, which the first decoding gave.
        var again = decoder
        again.notes = nil
        again.plausibility = nil
        var errorsFound = 0
        for field in fields {
            do {
                records.append(try decode(decoder, field, locate(field.node.offset)))
            } catch {
                errorsFound += 1
                guard error.isMissingField, let schema else {
                    report(error)
                    var reported = [error]
                    // The record's other problems, while the file has had few: a file of
                    // a million bad records is not decoded ten times over.
                    if errorsFound <= Self.recordsSearchedForMore {
                        let required = schema.map { Set($0(field).required.joined()) } ?? []
                        let later = Self.laterErrors(after: error, in: field, keeping: required) { (field) throws(FieldError) in
                            _ = try decode(again, field, locate(field.node.offset))
                        }
                        later.forEach(report)
                        reported += later
                    }
                    // And every field it lacks: the search above stops at a member it cannot
                    // take out (a poll's first trip), so a later trip's missing latitude was
                    // found only once the first trip's dates were fixed, a run later.
                    if let schema {
                        ExportDecoder.missingFields(in: field, schema(field))
                            .filter { missing in !reported.contains { $0.path == missing.path && $0.message == missing.message } }
                            .forEach(report)
                    }
                    continue
                }
                // Every field the record lacks, not only the first decoding met.
                let missing = ExportDecoder.missingFields(in: field, schema(field))
                if !missing.contains(where: { $0.path == error.path && $0.message == error.message }) { report(error) }
                missing.forEach(report)
            }
        }
        notes.report(to: log, source: locate)
        return (records, file)
    }

    /// How many failing records of a file are decoded again to find their later problems.
    static let recordsSearchedForMore = 100
    /// How many problems one record may show after its first.
    static let laterErrorsPerRecord = 9

    /// The problems of the record at `field` after `first`: decoding stops at a record's
    /// first error, so the member it names is taken out and the record decoded again. A
    /// member that must be there takes the object holding it out with it (a coordinate
    /// without its latitude). It stops when the record decodes, another required member is
    /// missing, the same error comes back, or only the record itself would be left to take.
    /// `required`: the record's own required fields (all their names), which are never taken
    /// out: without one the record could only be missing it, or be read as another shape of
    /// record (an itinerary without its `trip` member reads as a bare trip lacking four
    /// fields, a false error).
    static func laterErrors(after first: FieldError, in field: JSONField, keeping required: Set<String> = [],
                            decode: (JSONField) throws(FieldError) -> Void) -> [FieldError] {
        var node = field.node, target = first.path, found: [FieldError] = [], removed: [JSONPath] = []
        for _ in 0..<(3 * laterErrorsPerRecord) where found.count < laterErrorsPerRecord {
            guard let relative = target.relative(to: field.path),
                  let (smaller, depth) = node.removingMember(at: relative) else { break }
            if depth == 1, case .key(let key) = relative[relative.startIndex], required.contains(key) { break }
            node = smaller
            removed.append(JSONPath(components: Array(field.path.components + relative.prefix(depth))))
            do {
                try decode(JSONField(node, path: field.path))
                break
            } catch let next {
                if next.isMissingField, removed.contains(next.path) {
                    // Take out what holds it: its path without its last member.
                    var holder = next.path.components
                    holder.removeLast()
                    target = JSONPath(components: holder)
                    continue
                }
                if next == first || found.contains(next) { break }
                found.append(next)
                if next.isMissingField { break }
                target = next.path
            }
        }
        return found
    }

    /// Records of another type are a warning once per type and file (a dump of the whole
    /// zone may sit in each folder); records CloudKit could not return, one each.
    private func reportSkipped(_ dump: CloudKitDump.Reading, wanted: CloudKitDump.RecordType?, locate: (Int) -> SourceRef) {
        let reads = wanted.map { "only \($0.name) records are read here" } ?? "this folder reads no CloudKit records"
        for (type, skipped) in dump.skipped {
            log.add(locate(skipped.first.node.offset).diagnostic(.warning, field: skipped.first.path.description,
                "\(Formatting.count(skipped.count, "\(type) record")) skipped: \(reads)",
                summary: "CloudKit records of another type skipped"))
        }
        if let marker = dump.continues {
            // Silently short of ballots, a poll would show wrong standings.
            log.add(locate(marker.node.offset).diagnostic(.warning, field: marker.path.description,
                "this dump is not the query's last page: CloudKit returned a continuationMarker, so its records after this page are not in the file; save every page (in this file, as an array of the responses, or in files of their own)"))
        }
        if let (first, count) = dump.secondsTimestamps {
            let asSeconds = Formatting.iso8601(Date(timeIntervalSince1970: (try? first.double()) ?? 0)).prefix(10)
            let more = count > 1 ? " (\(Formatting.count(count, "such TIMESTAMP")) in this file)" : ""
            log.add(locate(first.node.offset).diagnostic(.warning, field: first.path.description,
                "this TIMESTAMP is in seconds, where CloudKit writes milliseconds since 1970: as milliseconds it would be a day in January or February 1970, so it is read as seconds (\(asSeconds))\(more); check the tool that wrote this dump",
                summary: "CloudKit TIMESTAMPs written in seconds"))
        }
        for (field, reason) in dump.failed {
            log.add(locate(field.node.offset).diagnostic(.warning, field: field.path.description,
                "CloudKit returned an error instead of this record (\(reason)); it is skipped",
                summary: "CloudKit records returned as errors skipped"))
        }
    }

    /// `url` relative to the site folder, with `../` for a file outside it (templates kept
    /// elsewhere): manifest.json is published, and must not show where the site was built.
    package func relativePath(of url: URL) -> String {
        let base = siteFolder.standardizedFileURL.pathComponents
        let path = url.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < path.count, base[common] == path[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + path[common...]).joined(separator: "/")
    }

    /// `*.json` files below `folder`, sorted by path so every run reads them in one order.
    package static func jsonFiles(below folder: URL, log: DiagnosticLog) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else {
            log.error(displayPath(folder), "input path is not a folder")
            return []
        }
        // Links resolved, and only inside the folder (issue #19).
        let listing = InputFolder.list(folder) { $0.lowercased().hasSuffix(".json") }
        listing.problems.forEach(log.add)
        return listing.files
    }
}

