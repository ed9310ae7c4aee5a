import Foundation
import SitegenCore
import SitegenInput

/// Everything a build depends on, hashed into one value: every input file's bytes (site.yml,
/// templates, exports, pages, the tips file), the options that change output (`--date`,
/// `--seed`, `SOURCE_DATE_EPOCH`) and the sitegen binary itself.
public struct BuildFingerprint: Sendable, Equatable {
    public let value: String
    /// Every input file with its hash, under its published name (InputSource), for manifest.json.
    public let inputs: [InputFile]

    /// Each input file's size and modification time when it was hashed, to notice a file
    /// that changes while the build reads it.
    let stamps: [(URL, FileStamp)]

    public static func == (a: BuildFingerprint, b: BuildFingerprint) -> Bool {
        a.value == b.value && a.inputs == b.inputs
    }

    public static func compute(config: SiteConfig, options: BuildOptions) -> BuildFingerprint {
        let sources = inputSources(config)
        let hashed = ConcurrentResults<(fingerprint: InputFile, published: InputFile, stamp: FileStamp)>(count: sources.count)
        let loader = ExportLoader(siteFolder: config.folder, decoder: ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference)), log: DiagnosticLog())
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            let source = sources[index]
            // Stamped before reading: a change after this point shows in `changedInputs`.
            let stamp = FileStamp(source.url.path)
            // An unreadable or special file (a FIFO would block) hashes as missing; the build
            // proper reports it.
            let readable = InputFolder.regularFileSize(source.url) != nil
            let hash = sha256Hex((readable ? try? Data(contentsOf: source.url) : nil) ?? Data())
            hashed[index] = (InputFile(path: loader.relativePath(of: source.url), sha256: hash),
                             InputFile(path: source.publishedName(hash: hash), sha256: hash), stamp)
        }
        let values = hashed.values
        var lines = ["sitegen \(SitegenVersion.current)", "binary \(executableIdentity())"]
        lines.append("date \(options.date.map(Formatting.iso8601) ?? "-")")
        lines.append("seed \(options.seed.map(String.init) ?? "-")")
        lines.append("epoch \(options.environment["SOURCE_DATE_EPOCH"] ?? "-")")
        lines += values.map(\.fingerprint).sorted { $0.path < $1.path }.map { "\($0.path) \($0.sha256)" }
        return BuildFingerprint(value: sha256Hex(Array(lines.joined(separator: "\n").utf8)),
                                inputs: values.map(\.published).sorted { $0.path < $1.path },
                                stamps: zip(sources, values).map { ($0.url, $1.stamp) })
    }

    /// Inputs whose size or modification time differ from when they were hashed: what the
    /// build read may not be what manifest.json and the build state record.
    public func changedInputs() -> [URL] {
        stamps.filter { FileStamp($0.0.path) != $0.1 }.map(\.0)
    }

    static func inputURLs(_ config: SiteConfig) -> [URL] {
        inputSources(config).map(\.url)
    }

    static func inputSources(_ config: SiteConfig) -> [InputSource] {
        var sources = [InputSource(url: config.file, folder: config.folder, key: "site.yml")]
        sources += regularFiles(below: config.templates).map { InputSource(url: $0, folder: config.templates, key: "templates") }
        let log = DiagnosticLog()
        let exports = [("inputs.polls", config.inputs.polls), ("inputs.votes", config.inputs.votes),
                       ("inputs.trips", config.inputs.trips), ("inputs.items", config.inputs.items),
                       ("inputs.games", config.inputs.games), ("inputs.options", config.inputs.options),
                       ("inputs.convoys", config.inputs.convoys)]
        for (key, folder) in exports {
            sources += ExportLoader.jsonFiles(below: folder, log: log).map {
                InputSource(url: $0, folder: folder, key: key, namedByHash: key == "inputs.votes")
            }
        }
        if let pages = config.pages {
            sources += InputFolder.list(pages, recursive: false) { $0.hasSuffix(".md") }.files
                .map { InputSource(url: $0, folder: pages, key: "pages") }
        }
        if let tips = config.tips.file {
            sources.append(InputSource(url: tips, folder: tips.deletingLastPathComponent(), key: "tips.file"))
        }
        return sources.map { $0.inside(config.folder) }
    }

    /// Every file the build may read below `folder`, links included (a linked template is
    /// read, so its edits must count).
    static func regularFiles(below folder: URL) -> [URL] {
        InputFolder.list(folder).files
    }

    /// A new sitegen build may render differently: its size and modification time stand in
    /// for its bytes (hashing a 20 MB binary on every build would cost more than it saves).
    static func executableIdentity() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return path }
        let size = (attributes[.size] as? Int) ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path) \(size) \(modified)"
    }
}

/// What the last successful build left, kept beside the output folder and never published
/// (`.Output.sitegen-state.json`): its fingerprint, its report and warnings, and every
/// output file's hash, size and modification time — unlisted polls included, which
/// manifest.json must not name.
///
/// The file is JSON Lines: the first line holds the build, each further line one output
/// file. A large site lists hundreds of thousands of files, so they are streamed in and
/// out rather than held as one JSON tree (issue #8).
public struct BuildState: Sendable, Equatable {
    public struct OutputFile: Sendable, Equatable {
        public let hash: ContentHash
        public let size: Int
        /// Nanoseconds since 1970, read as the file is written; 0 when unknown.
        public var modified: Int = 0

        public var sha256: String { hash.hex }
    }

    public var fingerprint: String
    public var pages: Int
    public var files: Int
    public var polls: Int
    public var ballots: Int
    public var diagnostics: [Diagnostic]
    /// What the build's log counted without keeping, replayed with the diagnostics.
    public var omissions: [DiagnosticLog.Omission] = []
    /// Where it was read from.
    let url: URL

    /// Marks the first line, so a state file of another layout is not misread.
    static let format = "sitegen-state 2"

    static func url(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).sitegen-state.json")
    }

    /// The state of the build that produced `output` (its first line only), or nil when
    /// there is none or it is unreadable.
    public static func read(for output: URL) -> BuildState? {
        let url = url(for: output)
        guard let lines = try? LineReader(path: url.path), let line = try? lines.next(),
              let root = try? JSONParser.parse(Array(line)) else { return nil }
        do throws(FieldError) {
            let fields = try JSONField(root).object()
            guard try fields.required("format").string() == format else { return nil }
            let diagnostics = try fields.required("diagnostics").array { (field) throws(FieldError) -> Diagnostic in
                let d = try field.object()
                return Diagnostic(try d.required("severity").string() == "error" ? .error : .warning,
                                  file: try d.required("file").string(), line: try d.optional("line")?.int(),
                                  column: try d.optional("column")?.int(), field: try d.required("field").string(),
                                  message: try d.required("message").string(), summary: try d.optional("summary")?.string())
            }
            let omissions = try fields.optional("omitted")?.array { (field) throws(FieldError) -> DiagnosticLog.Omission in
                let o = try field.object()
                return DiagnosticLog.Omission(severity: try o.required("severity").string() == "error" ? .error : .warning,
                                              count: try o.required("count").int(), summary: try o.optional("summary")?.string(),
                                              file: try o.optional("file")?.string())
            } ?? []
            return BuildState(fingerprint: try fields.required("fingerprint").string(),
                              pages: try fields.required("pages").int(), files: try fields.required("files").int(),
                              polls: try fields.required("polls").int(), ballots: try fields.required("ballots").int(),
                              diagnostics: diagnostics, omissions: omissions, url: url)
        } catch {
            return nil
        }
    }

    /// Hands every recorded output file to `body`, in path order, read line by line.
    func forEachOutput(_ body: (String, OutputFile) throws -> Void) throws {
        let lines = try LineReader(path: url.path)
        _ = try lines.next()
        while let line = try lines.next() {
            let fields = try JSONField(try JSONParser.parse(Array(line))).object()
            let hashField = try fields.required("sha256")
            guard let hash = ContentHash(hex: try hashField.string()) else { throw hashField.error("expected 64 hex digits") }
            try body(try fields.required("path").string(), OutputFile(
                hash: hash, size: try fields.required("size").int(),
                // A string: nanoseconds since 1970 exceed 2^53, beyond what a JSON number keeps exactly.
                modified: Int(try fields.required("modified").string()) ?? 0))
        }
    }

    /// The recorded files by path, for linking unchanged ones (OutputFolder); nil when the
    /// list cannot be read, which makes every file count as new.
    func outputIndex() -> [DigestKey: OutputFile]? {
        var index: [DigestKey: OutputFile] = [:]
        index.reserveCapacity(files)
        do {
            try forEachOutput { path, file in index[DigestKey(path)] = file }
        } catch {
            return nil
        }
        return index
    }

    /// Every recorded file is still there with its size and modification time (a deleted or
    /// hand-edited file forces a full build). Checked a few thousand files at a time, in
    /// parallel.
    public func isIntact(_ output: URL) -> Bool {
        let root = output.path + "/"
        var batch: [(String, OutputFile)] = []
        func check(_ batch: [(String, OutputFile)]) -> Bool {
            let results = ConcurrentResults<Bool>(count: 1)
            let chunks = max(1, batch.count / 512)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var index = chunk
                while index < batch.count {
                    let (path, file) = batch[index]
                    var info = stat()
                    if stat(root + path, &info) != 0 || Int(info.st_size) != file.size
                        || Self.nanoseconds(info.st_mtim) != file.modified {
                        results[0] = false
                        return
                    }
                    index += chunks
                }
            }
            return results[0] ?? true
        }
        var count = 0
        do {
            try forEachOutput { path, file in
                batch.append((path, file))
                count += 1
                if batch.count == 8192 {
                    guard check(batch) else { throw CancellationError() }
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            return false
        }
        return check(batch) && count == files
    }

    /// Hands over output files in path order, one at a time (OutputList.forEachSorted).
    typealias Outputs = ((String, OutputFile) throws -> Void) throws -> Void

    /// Writes the state of a build whose output files `outputs` hands over, streamed to disk.
    static func save(for output: URL, fingerprint: String, pages: Int, files: Int, polls: Int, ballots: Int,
                     diagnostics: [Diagnostic], omissions: [DiagnosticLog.Omission] = [], outputs: Outputs) throws {
        let head = JSONOutput.object([
            ("format", .string(format)),
            ("fingerprint", .string(fingerprint)),
            ("pages", .int(pages)), ("files", .int(files)), ("polls", .int(polls)), ("ballots", .int(ballots)),
            ("diagnostics", .array(diagnostics.map { d in
                .object([("severity", .string(d.severity.rawValue)), ("file", .string(d.file)),
                         ("line", d.line.map { .int($0) } ?? .null), ("column", d.column.map { .int($0) } ?? .null),
                         ("field", .string(d.field)), ("message", .string(d.message)),
                         ("summary", d.summary.map { .string($0) } ?? .null)])
            })),
            ("omitted", .array(omissions.map { o in
                .object([("severity", .string(o.severity.rawValue)), ("count", .int(o.count)),
                         ("summary", o.summary.map { .string($0) } ?? .null), ("file", o.file.map { .string($0) } ?? .null)])
            })),
        ]).bytes()
        let target = Self.url(for: output)
        let temporary = target.appendingPathExtension("tmp")
        let file = try ChunkedFile(temporary.path)
        // One line: strings never hold a raw line break (JSONOutput escapes it), so every
        // line break in the pretty-printed head is layout.
        var json = head.filter { $0 != UInt8(ascii: "\n") }
        json.append(UInt8(ascii: "\n"))
        try outputs { path, entry in
            json += "{\"path\": ".utf8
            JSONOutput.appendString(path, to: &json)
            json += ", \"sha256\": \"".utf8
            entry.hash.appendHex(to: &json)
            json += "\", \"size\": \(entry.size), \"modified\": \"\(entry.modified)\"}\n".utf8
            if json.count >= 1 << 20 {
                try file.write(json)
                json.removeAll(keepingCapacity: true)
            }
        }
        try file.write(json)
        try file.close()
        guard rename(temporary.path, target.path) == 0 else {
            throw OutputError(message: "\(displayPath(target)): cannot save build state: \(String(cString: strerror(errno)))")
        }
    }

    static func nanoseconds(_ time: timespec) -> Int {
        Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
    }

    public static func remove(for output: URL) {
        try? FileManager.default.removeItem(at: url(for: output))
    }
}

/// A file's lines, read a megabyte at a time.
final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// The next line without its line break; nil at the end of the file.
    func next() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return buffer[start..<newline]
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return buffer[start...]
            }
            buffer.removeFirst(start)
            start = 0
            let old = buffer.count
            buffer += repeatElement(0, count: 1 << 20)
            let read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + old, 1 << 20) }
            guard read >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            buffer.removeLast((1 << 20) - read)
            if read == 0 { atEnd = true }
        }
    }
}
