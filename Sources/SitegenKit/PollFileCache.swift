import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenOutput
import SitegenRender

/// What each poll export file gave the last build, so that a rebuild reads again only the
/// poll files that changed (docs/architecture.md, "Reading only what changed").
///
/// Polls are most of a site, and reading and counting every poll file was most of a
/// rebuild after one new ballot. A file's share of a build — its polls' summaries, keys and
/// output paths, the warnings it gave and the dates it holds — is a function of the file's
/// bytes, its polls' ballots and the poll context (BuildFingerprint.pollContext: sitegen,
/// site.yml, templates, the other exports). When all three are those of the last build and
/// the files it wrote are still as recorded, the share is taken from here without reading
/// the file; otherwise the file is read, and its polls whose key is unchanged are still
/// linked rather than rendered (PollSteps).
///
/// Kept beside the build state as JSON Lines: a header, then one line per poll file. A
/// file whose trips met a warning about a game or an item (reported once for the whole
/// site, not per file) or that had errors is not kept, and is read on every build.
struct PollFileCache: Sendable {
    static let format = "sitegen-polls 1"

    /// Everything but the file's own bytes and ballots its share depends on.
    let context: String
    /// The fingerprint of the build that wrote the cache: it is used only beside that
    /// build's state, whose record says which of the files its shares name are as written.
    var build = ""
    /// Poll files by standardized path.
    var files: [String: Entry]
    /// Vote files by standardized path: every vote file is needed for the polls' ballots,
    /// but an unchanged one's ballots are taken from here instead of parsing its JSON.
    var votes: [String: VoteEntry] = [:]

    init(context: String, files: [String: Entry], votes: [String: VoteEntry] = [:]) {
        self.context = context
        self.files = files
        self.votes = votes
    }

    struct Entry: Sendable {
        /// The file's bytes, as BuildFingerprint hashed them.
        var sha256: String
        /// Its polls' ballots (PollSteps.ballotDigest).
        var ballots: String
        var polls: [KeptPoll]
        /// What reading and laying out the file logged: every diagnostic is about the file.
        /// Past a few of a kind, diagnostics were counted, not kept (`omissions`): a share
        /// with omissions cannot serve `--verbose`, which lists every one.
        var diagnostics: [Diagnostic]
        var omissions: [DiagnosticLog.Omission]
        var dates: DatePlausibility.Share
    }

    /// One vote file's share: its ballots with their polls' ids, in record order, and what
    /// reading it logged.
    struct VoteEntry: Sendable {
        var sha256: String
        var ballots: [(UUID, Ballot)]
        var diagnostics: [Diagnostic]
        var omissions: [DiagnosticLog.Omission]
        var dates: DatePlausibility.Share
    }

    struct KeptPoll: Sendable {
        var summary: PollSummary
        var key: String
        /// The poll's output paths, each ended by a NUL (which no path holds): one string
        /// instead of fourteen keeps a large site's cache small in memory.
        var joinedPaths: String

        init(summary: PollSummary, key: String, paths: [String]) {
            self.init(summary: summary, key: key, joinedPaths: paths.map { $0 + "\u{0}" }.joined())
        }

        init(summary: PollSummary, key: String, joinedPaths: String) {
            self.summary = summary
            self.key = key
            self.joinedPaths = joinedPaths
        }

        /// Split by bytes: splitting by characters cost a rebuild 0.08 s at 10,000 polls.
        var paths: [String] { joinedPaths.utf8.split(separator: 0).map { String(Substring($0)) } }
    }

    /// The context a cache must have to be used.
    static func context(pollContext: String) -> String {
        "\(format) \(pollContext)"
    }

    // MARK: Writing

    /// The cache a line at a time: a header, then one line per file in path order. Each
    /// line is one pretty-printed JSON value with its layout line breaks taken out (strings
    /// never hold a raw one).
    func write(to sink: ([UInt8]) throws -> Void) throws {
        func line(_ value: JSONOutput) -> [UInt8] {
            var bytes = value.bytes().filter { $0 != UInt8(ascii: "\n") }
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        }
        try sink(line(.object([("format", .string(Self.format)), ("context", .string(context)), ("build", .string(build))])))
        for path in files.keys.sorted() {
            var bytes = Self.line(path, files[path]!)
            bytes.append(UInt8(ascii: "\n"))
            try sink(bytes)
        }
        for path in votes.keys.sorted() {
            try sink(line(Self.voteLine(path, votes[path]!)))
        }
    }

    /// The whole cache as bytes (tests).
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        try? write { bytes += $0 }
        return bytes
    }

    /// Doubles and dates as the bits of their Double, so they come back exactly.
    private static func bits(_ value: Double) -> JSONOutput { .string(String(value.bitPattern)) }
    private static func bits(_ date: Date) -> JSONOutput { bits(date.timeIntervalSinceReferenceDate) }

    private static func position(_ source: SourceRef) -> [(String, JSONOutput)] {
        source.isFixed ? [("line", .int(source.line)), ("column", .int(source.column))] : [("offset", .int(source.offset))]
    }

    /// A poll file's line, written straight into bytes: a large site's cache is written on
    /// every build, and building a JSONOutput tree of 10,000 polls cost a tenth of a rebuild.
    private static func line(_ path: String, _ entry: Entry) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024 * entry.polls.count + 512)
        func key(_ name: StaticString, first: Bool = false) {
            if !first { bytes += ", ".utf8 }
            bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { bytes += $0 }
            bytes += "\": ".utf8
        }
        func string(_ value: String) { JSONOutput.appendString(value, to: &bytes) }
        func number(_ value: Int) { bytes += String(value).utf8 }
        func bits(_ date: Date) { bytes += "\"\(date.timeIntervalSinceReferenceDate.bitPattern)\"".utf8 }
        /// The NUL-ended paths as a JSON array, from one escaped string: no path holds a
        /// backslash (SafePath), so each `\u0000` is a NUL that ends a path.
        func pathArray(_ joined: String) {
            var escaped: [UInt8] = []
            JSONOutput.appendString(joined, to: &escaped)
            let nul = Array("\\u0000".utf8), end = escaped.count - 1
            bytes.append(UInt8(ascii: "["))
            var start = 1, index = 1, first = true
            while index < end {
                if escaped[index] == UInt8(ascii: "\\"), index + nul.count <= end, escaped[index..<index + nul.count].elementsEqual(nul) {
                    if !first { bytes += ", ".utf8 }
                    first = false
                    bytes.append(UInt8(ascii: "\""))
                    bytes += escaped[start..<index]
                    bytes.append(UInt8(ascii: "\""))
                    index += nul.count
                    start = index
                } else {
                    index += 1
                }
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "{"))
        key("file", first: true); string(path)
        key("sha256"); string(entry.sha256)
        key("ballots"); string(entry.ballots)
        key("polls")
        bytes.append(UInt8(ascii: "["))
        for (index, poll) in entry.polls.enumerated() {
            let s = poll.summary
            if index > 0 { bytes += ", ".utf8 }
            bytes.append(UInt8(ascii: "{"))
            key("id", first: true); string(s.id.uuidString)
            key("shareCode"); string(s.shareCode.value)
            key("title"); string(s.title)
            if s.source.isFixed {
                key("line"); number(s.source.line)
                key("column"); number(s.source.column)
            } else {
                key("offset"); number(s.source.offset)
            }
            key("modifiedAt"); bits(s.modifiedAt)
            key("tripIds")
            bytes.append(UInt8(ascii: "["))
            for (tripIndex, trip) in s.tripIds.enumerated() {
                if tripIndex > 0 { bytes += ", ".utf8 }
                string(trip)
            }
            bytes.append(UInt8(ascii: "]"))
            key("path"); string(s.path)
            key("voters"); number(s.voters)
            key("updatedAt"); bits(s.updatedAt)
            key("leaderLine"); string(s.leaderLine)
            key("key"); string(poll.key)
            key("paths"); pathArray(poll.joinedPaths)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        // The rest, usually empty arrays, through JSONOutput: its object without the brace.
        let rest = JSONOutput.object(share(entry.diagnostics, entry.omissions, entry.dates)).bytes().filter { $0 != UInt8(ascii: "\n") }
        bytes += ", ".utf8
        bytes += rest.dropFirst()
        return bytes
    }

    private static func voteLine(_ path: String, _ entry: VoteEntry) -> JSONOutput {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entry.ballots.count * 80)
        for (poll, ballot) in entry.ballots {
            withUnsafeBytes(of: poll.uuid) { bytes += $0 }
            ballot.appendBytes(to: &bytes)
        }
        return .object([("votes", .string(path)), ("sha256", .string(entry.sha256)), ("count", .int(entry.ballots.count)),
                        ("ballots", .string(Data(bytes).base64EncodedString()))]
                        + share(entry.diagnostics, entry.omissions, entry.dates))
    }

    /// What reading a file logged and the dates it holds.
    private static func share(_ diagnostics: [Diagnostic], _ omissions: [DiagnosticLog.Omission],
                              _ dates: DatePlausibility.Share) -> [(String, JSONOutput)] {
        [
            ("diagnostics", .array(diagnostics.map { d in
                let where_: [(String, JSONOutput)] = d.pendingSource.map(position)
                    ?? [("line", d.line.map { .int($0) } ?? .null), ("column", d.column.map { .int($0) } ?? .null)]
                return .object([("severity", .string(d.severity.rawValue))] + where_
                    + [("field", .string(d.field)), ("message", .string(d.message)), ("summary", d.summary.map { .string($0) } ?? .null)])
            })),
            ("omitted", .array(omissions.map { o in
                .object([("severity", .string(o.severity.rawValue)), ("count", .int(o.count)),
                         ("summary", o.summary.map { .string($0) } ?? .null), ("inFile", .bool(o.file != nil))])
            })),
            ("years", .array(dates.years.sorted { $0.key < $1.key }.map { .array([.int($0.key), .int($0.value)]) })),
            ("numeric", .array(dates.numeric.values.flatMap { $0 }.sorted { $0.key < $1.key }.map { year, example in
                .object([("year", .int(year)), ("count", .int(example.count)), ("value", bits(example.value)),
                         ("field", .string(example.field))] + position(example.source))
            })),
        ]
    }

    // MARK: Reading

    /// The cache in `bytes` when it was written with `context` by the build `build`; nil
    /// otherwise or when it cannot be read (then every poll file is read).
    static func decode(_ bytes: [UInt8], context: String, build: String) -> PollFileCache? {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)[...]
        return decode(lines: { lines.popFirst() }, context: context, build: build)
    }

    /// The same, a line at a time (LineSource: the cache file is not held whole).
    static func decode(lines next: LineSource, context: String, build: String) -> PollFileCache? {
        do {
            guard let head = try next() else { return nil }
            let fields = try JSONField(try JSONParser.parse(Array(head))).object()
            guard try fields.required("format").string() == format, try fields.required("context").string() == context,
                  try fields.optional("build")?.string() == build else { return nil }
            var cache = PollFileCache(context: context, files: [:])
            cache.build = build
            while let line = try next() {
                guard !line.isEmpty else { continue }
                let fields = try JSONField(try JSONParser.parse(Array(line))).object()
                if fields.optional("votes") != nil {
                    let (path, entry) = try Self.voteEntry(fields)
                    cache.votes[path] = entry
                } else {
                    let (path, entry) = try Self.entry(fields)
                    cache.files[path] = entry
                }
            }
            return cache
        } catch {
            return nil
        }
    }

    private static func double(_ field: JSONField) throws(FieldError) -> Double {
        guard let bits = UInt64(try field.string()) else { throw field.error("expected the bits of a Double") }
        return Double(bitPattern: bits)
    }

    private static func date(_ field: JSONField) throws(FieldError) -> Date {
        Date(timeIntervalSinceReferenceDate: try double(field))
    }

    /// A kept position: a byte offset (looked up in the file when shown) or a line and column.
    private static func source(_ fields: JSONFields, file: String, index: LineIndex) throws(FieldError) -> SourceRef {
        if let offset = fields.optional("offset") {
            return SourceRef(file: file, offset: try offset.int(), index: index)
        }
        return SourceRef(file: file, line: try fields.required("line").int(), column: try fields.required("column").int())
    }

    private static func entry(_ fields: JSONFields) throws(FieldError) -> (String, Entry) {
        let path = try fields.required("file").string()
        // Shown as this run shows the file (the working folder may differ); its lines are
        // counted only if a diagnostic is printed.
        let url = URL(fileURLWithPath: path)
        let shown = displayPath(url)
        let index = LineIndex(path: path)
        let polls = try fields.required("polls").array { (field) throws(FieldError) -> KeptPoll in
            let p = try field.object()
            let codeField = try p.required("shareCode")
            guard let code = ShareCode(try codeField.string()) else { throw codeField.error("expected a share code") }
            let summary = PollSummary(
                id: try p.required("id").uuid(), shareCode: code, title: try p.required("title").string(),
                source: try source(p, file: shown, index: index), modifiedAt: try date(p.required("modifiedAt")),
                tripIds: try p.required("tripIds").array { (f) throws(FieldError) in try f.string() },
                path: try p.required("path").string(), voters: try p.required("voters").int(),
                updatedAt: try date(p.required("updatedAt")), leaderLine: try p.required("leaderLine").string())
            return KeptPoll(summary: summary, key: try p.required("key").string(),
                            paths: try p.required("paths").array { (f) throws(FieldError) in try f.string() })
        }
        let (diagnostics, omissions, dates) = try share(fields, shown: shown, index: index)
        return (path, Entry(sha256: try fields.required("sha256").string(), ballots: try fields.required("ballots").string(),
                            polls: polls, diagnostics: diagnostics, omissions: omissions, dates: dates))
    }

    private static func voteEntry(_ fields: JSONFields) throws(FieldError) -> (String, VoteEntry) {
        let path = try fields.required("votes").string()
        let shown = displayPath(URL(fileURLWithPath: path))
        let index = LineIndex(path: path)
        let blob = try fields.required("ballots")
        guard let data = Data(base64Encoded: try blob.string()) else { throw blob.error("expected base64") }
        let bytes = [UInt8](data)
        let count = try fields.required("count").int()
        var ballots: [(UUID, Ballot)] = []
        ballots.reserveCapacity(count)
        var offset = 0
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else { throw blob.error("a ballot ends early") }
            let poll = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(fromByteOffset: offset, as: uuid_t.self)) }
            offset += 16
            guard let ballot = Ballot(reading: bytes, at: &offset) else { throw blob.error("a ballot ends early") }
            ballots.append((poll, ballot))
        }
        guard ballots.count == count else { throw blob.error("expected \(count) ballots") }
        let (diagnostics, omissions, dates) = try share(fields, shown: shown, index: index)
        return (path, VoteEntry(sha256: try fields.required("sha256").string(), ballots: ballots,
                                diagnostics: diagnostics, omissions: omissions, dates: dates))
    }

    private static func share(_ fields: JSONFields, shown: String, index: LineIndex) throws(FieldError)
        -> ([Diagnostic], [DiagnosticLog.Omission], DatePlausibility.Share) {
        let diagnostics = try fields.required("diagnostics").array { (field) throws(FieldError) -> Diagnostic in
            let d = try field.object()
            let severity: Diagnostic.Severity = try d.required("severity").string() == "error" ? .error : .warning
            let fieldName = try d.required("field").string(), message = try d.required("message").string()
            let summary = try d.optional("summary").flatMap { (f) throws(FieldError) in try f.string() }
            if d.optional("offset") != nil {
                return Diagnostic(severity, at: try source(d, file: shown, index: index), field: fieldName, message: message, summary: summary)
            }
            let line = try d.optional("line").flatMap { (f) throws(FieldError) in try f.int() }
            let column = try d.optional("column").flatMap { (f) throws(FieldError) in try f.int() }
            return Diagnostic(severity, file: shown, line: line, column: column, field: fieldName, message: message, summary: summary)
        }
        let omissions = try fields.required("omitted").array { (field) throws(FieldError) -> DiagnosticLog.Omission in
            let o = try field.object()
            return DiagnosticLog.Omission(
                severity: try o.required("severity").string() == "error" ? .error : .warning, count: try o.required("count").int(),
                summary: try o.optional("summary").flatMap { (f) throws(FieldError) in try f.string() },
                file: try o.required("inFile").bool() ? shown : nil)
        }
        var dates = DatePlausibility.Share()
        for pair in try fields.required("years").array({ (f) throws(FieldError) in try f.array { (n) throws(FieldError) in try n.int() } }) {
            guard pair.count == 2 else { throw try fields.required("years").error("expected [year, count]") }
            dates.years[pair[0]] = pair[1]
        }
        for field in try fields.required("numeric").elements() {
            let n = try field.object()
            dates.numeric[shown, default: [:]][try n.required("year").int()] = DatePlausibility.Example(
                count: try n.required("count").int(), value: try double(n.required("value")),
                field: try n.required("field").string(), source: try source(n, file: shown, index: index))
        }
        return (diagnostics, omissions, dates)
    }
}

extension PollFileCache {
    /// Gives what reading a file logged, and its dates, to the build's log and date
    /// collector: the same whether the file was just read or its share kept.
    static func replay(_ diagnostics: [Diagnostic], _ omissions: [DiagnosticLog.Omission], _ share: DatePlausibility.Share,
                       into log: DiagnosticLog, dates: DatePlausibility?) {
        diagnostics.forEach(log.add)
        omissions.forEach(log.add)
        dates?.add(share)
    }

    /// Whether all a file's reading logged is about that file (`shown`): only then can its
    /// share give it again without the file being read.
    static func isAbout(_ shown: String, _ diagnostics: [Diagnostic], _ omissions: [DiagnosticLog.Omission],
                        _ share: DatePlausibility.Share) -> Bool {
        diagnostics.allSatisfy { $0.file == shown } && omissions.allSatisfy { $0.file == nil || $0.file == shown }
            && share.numeric.keys.allSatisfy { $0 == shown }
    }
}
