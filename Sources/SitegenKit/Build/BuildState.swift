import Foundation

/// Everything a build depends on, hashed into one value: every input file's bytes (site.yml,
/// templates, exports, pages, the tips file), the options that change output (`--date`,
/// `--seed`, `SOURCE_DATE_EPOCH`) and the sitegen binary itself.
public struct BuildFingerprint: Sendable, Equatable {
    public let value: String
    /// Every input file with its hash, for manifest.json.
    public let inputs: [InputFile]

    public static func compute(config: SiteConfig, options: BuildOptions) -> BuildFingerprint {
        let urls = inputURLs(config)
        let hashes = ConcurrentResults<InputFile>(count: urls.count)
        let loader = ExportLoader(siteFolder: config.folder, decoder: ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference)), log: DiagnosticLog())
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            // An unreadable file hashes as missing; the build proper reports it.
            let data = (try? Data(contentsOf: urls[index])) ?? Data()
            hashes[index] = InputFile(path: loader.relativePath(of: urls[index]), sha256: sha256Hex(data))
        }
        let inputs = hashes.values.sorted { $0.path < $1.path }
        var lines = ["sitegen \(SitegenVersion.current)", "binary \(executableIdentity())"]
        lines.append("date \(options.date.map(Formatting.iso8601) ?? "-")")
        lines.append("seed \(options.seed.map(String.init) ?? "-")")
        lines.append("epoch \(options.environment["SOURCE_DATE_EPOCH"] ?? "-")")
        lines += inputs.map { "\($0.path) \($0.sha256)" }
        return BuildFingerprint(value: sha256Hex(Array(lines.joined(separator: "\n").utf8)), inputs: inputs)
    }

    static func inputURLs(_ config: SiteConfig) -> [URL] {
        var urls = [config.file]
        urls += regularFiles(below: config.templates)
        let log = DiagnosticLog()
        for folder in [config.inputs.polls, config.inputs.votes, config.inputs.trips, config.inputs.items,
                       config.inputs.games, config.inputs.options, config.inputs.convoys] {
            urls += ExportLoader.jsonFiles(below: folder, log: log)
        }
        if let pages = config.pages,
           let names = try? FileManager.default.contentsOfDirectory(atPath: pages.path) {
            urls += names.filter { $0.hasSuffix(".md") }.sorted().map { pages.appendingPathComponent($0) }
        }
        if let tips = config.tips.file { urls.append(tips) }
        return urls
    }

    static func regularFiles(below folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        var urls: [URL] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            urls.append(url)
        }
        return urls.sorted { $0.path < $1.path }
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
/// output file's hash and size — unlisted polls included, which manifest.json must not name.
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
    public var outputs: [String: OutputFile]

    static func url(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).sitegen-state.json")
    }

    /// The state of the build that produced `output`, or nil when there is none or it is unreadable.
    public static func read(for output: URL) -> BuildState? {
        guard let data = try? Data(contentsOf: url(for: output)), let root = try? JSONParser.parse([UInt8](data)) else { return nil }
        do throws(FieldError) {
            let fields = try JSONField(root).object()
            var outputs: [String: OutputFile] = [:]
            for entry in try fields.required("outputs").elements() {
                let entryFields = try entry.object()
                let hashField = try entryFields.required("sha256")
                guard let hash = ContentHash(hex: try hashField.string()) else { throw hashField.error("expected 64 hex digits") }
                outputs[try entryFields.required("path").string()] = OutputFile(
                    hash: hash, size: try entryFields.required("size").int(),
                    // A string: nanoseconds since 1970 exceed 2^53, beyond what a JSON number keeps exactly.
                    modified: Int(try entryFields.required("modified").string()) ?? 0)
            }
            let diagnostics = try fields.required("diagnostics").array { (field) throws(FieldError) -> Diagnostic in
                let d = try field.object()
                return Diagnostic(try d.required("severity").string() == "error" ? .error : .warning,
                                  file: try d.required("file").string(), line: try d.optional("line")?.int(),
                                  column: try d.optional("column")?.int(), field: try d.required("field").string(),
                                  message: try d.required("message").string())
            }
            return BuildState(fingerprint: try fields.required("fingerprint").string(),
                              pages: try fields.required("pages").int(), files: try fields.required("files").int(),
                              polls: try fields.required("polls").int(), ballots: try fields.required("ballots").int(),
                              diagnostics: diagnostics, outputs: outputs)
        } catch {
            return nil
        }
    }

    /// Every recorded file is still there with its size and modification time (a deleted or
    /// hand-edited file forces a full build).
    public func isIntact(_ output: URL) -> Bool {
        let results = ConcurrentResults<Bool>(count: 1)
        let entries = Array(outputs)
        let root = output.path + "/"
        DispatchQueue.concurrentPerform(iterations: max(1, entries.count / 512)) { chunk in
            let stride = max(1, entries.count / 512)
            var index = chunk
            while index < entries.count {
                let (path, file) = entries[index]
                var info = stat()
                if stat(root + path, &info) != 0 || Int(info.st_size) != file.size
                    || Self.nanoseconds(info.st_mtim) != file.modified {
                    results[0] = false
                    return
                }
                index += stride
            }
        }
        return results[0] ?? true
    }

    public func write(for output: URL) throws {
        try Self.save(for: output, fingerprint: fingerprint, pages: pages, files: files, polls: polls, ballots: ballots,
                      diagnostics: diagnostics, outputs: outputs.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Writes the state of a build whose output files are `outputs`, sorted by path: one
    /// compact line per file, streamed to disk (a large site's list is tens of megabytes).
    static func save(for output: URL, fingerprint: String, pages: Int, files: Int, polls: Int, ballots: Int,
                     diagnostics: [Diagnostic], outputs: [(path: String, file: OutputFile)]) throws {
        let head = JSONOutput.object([
            ("fingerprint", .string(fingerprint)),
            ("pages", .int(pages)), ("files", .int(files)), ("polls", .int(polls)), ("ballots", .int(ballots)),
            ("diagnostics", .array(diagnostics.map { d in
                .object([("severity", .string(d.severity.rawValue)), ("file", .string(d.file)),
                         ("line", d.line.map { .int($0) } ?? .null), ("column", d.column.map { .int($0) } ?? .null),
                         ("field", .string(d.field)), ("message", .string(d.message))])
            })),
        ]).bytes()
        let target = Self.url(for: output)
        let temporary = target.appendingPathExtension("tmp")
        let file = try ChunkedFile(temporary.path)
        var json = Array(head.dropLast(3))   // "\n}\n": the object continues
        json += ",\n  \"outputs\": [".utf8
        for (index, entry) in outputs.enumerated() {
            json += (index == 0 ? "\n    {\"path\": " : ",\n    {\"path\": ").utf8
            JSONOutput.appendString(entry.path, to: &json)
            json += ", \"sha256\": \"\(entry.file.sha256)\", \"size\": \(entry.file.size), \"modified\": \"\(entry.file.modified)\"}".utf8
            if json.count >= 1 << 20 {
                try file.write(json)
                json.removeAll(keepingCapacity: true)
            }
        }
        json += "\n  ]\n}\n".utf8
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

/// A file written in pieces with write(2), so a large file never has to sit in memory whole.
final class ChunkedFile {
    private var descriptor: Int32

    init(_ path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    func write(_ bytes: [UInt8]) throws {
        try writeFully(descriptor, bytes)
    }

    func close() throws {
        let result = Foundation.close(descriptor)
        descriptor = -1
        if result != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
