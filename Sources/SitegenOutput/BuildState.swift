import CFileSwap
import Foundation
import SitegenCore
import SitegenInput

/// What the last successful build left, kept beside the output folder and never published
/// (`.Output.sitegen-state.json`): its fingerprint, its report and warnings, its polls' keys
/// (BuildRecord.pollKeys), and every output file's hash, size and modification time —
/// unlisted polls included, which manifest.json must not name.
///
/// The file is JSON Lines: the first line holds the build, each further line one output
/// file. A large site lists hundreds of thousands of files, so they are streamed in and
/// out rather than held as one JSON tree (issue #8).
public struct BuildState: Sendable, Equatable {
    /// The build's fingerprint, counts and diagnostics (the first line).
    public var record: BuildRecord
    /// Where it was read from.
    package let url: URL
    /// The file's size, time and inode when it was read: a rebuild writes the next state
    /// from its bytes (`saveSpliced`) only while it is still that file.
    package var stamp: FileStamp?

    /// Marks the first line, so a state file of another layout is not misread.
    package static let format = "sitegen-state 2"

    package static func url(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).sitegen-state.json")
    }

    /// The state of the build that produced `output` (its first line only), or nil when
    /// there is none or it is unreadable.
    public static func read(for output: URL) -> BuildState? {
        let url = url(for: output)
        let stamp = FileStamp(url.path)
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
            var record = BuildRecord(
                fingerprint: try fields.required("fingerprint").string(),
                pages: try fields.required("pages").int(), files: try fields.required("files").int(),
                polls: try fields.required("polls").int(), ballots: try fields.required("ballots").int(),
                diagnostics: diagnostics, omissions: omissions,
                // Absent from states written before poll keys: every poll is rendered again.
                pollKeys: try fields.optional("pollKeys")?.array { (field) throws(FieldError) in try field.string() } ?? [])
            // Absent from older states: every input is read and hashed again.
            record.inputHashes = try fields.optional("inputs")?.array { (field) throws(FieldError) -> HashedInput in
                let i = try field.object()
                // Strings, like "modified" below: nanoseconds exceed what a JSON number keeps exactly.
                func number(_ name: String) throws(FieldError) -> Int {
                    let value = try i.required(name)
                    guard let number = Int(try value.string()) else { throw value.error("expected a whole number") }
                    return number
                }
                return HashedInput(path: try i.required("path").string(),
                                   stamp: FileStamp(size: try number("size"), modified: try number("modified"),
                                                    changed: try number("changed"), inode: UInt64(bitPattern: Int64(try number("inode")))),
                                   sha256: try i.required("sha256").string())
            } ?? []
            return BuildState(record: record, url: url, stamp: stamp)
        } catch {
            return nil
        }
    }

    /// The paths listed by a state that `read` does not take because another version of
    /// sitegen wrote it (its `format` is another `sitegen-state N`), as long as each of its
    /// file lines still names a path. They still show which files of the output folder
    /// sitegen wrote, so the first build after an upgrade or a downgrade replaces the folder
    /// whole instead of refusing it. nil for anything else.
    package static func pathsOfAnotherVersion(for output: URL) -> [String]? {
        guard let lines = try? LineReader(path: url(for: output).path), let first = try? lines.next(),
              let root = try? JSONParser.parse(Array(first)), let head = try? JSONField(root).object(),
              let version = try? head.required("format").string(), version.hasPrefix("sitegen-state "), version != format
        else { return nil }
        var paths: [String] = []
        do {
            while let line = try lines.next() {
                let path = try JSONField(try JSONParser.parse(Array(line))).object().required("path").string()
                guard SafePath.isSafe(path) else { return nil }
                paths.append(path)
            }
        } catch {
            return nil
        }
        return paths
    }

    /// Hands every recorded output file to `body`, in path order, read line by line.
    package func forEachOutput(_ body: (String, WrittenFile) throws -> Void) throws {
        let lines = try LineReader(path: url.path)
        _ = try lines.next()
        while let line = try lines.next() {
            let (path, file) = try Self.quickOutputLine(line) ?? Self.outputLine(line)
            guard SafePath.isSafe(path) else { throw UnsafeRecordedPath() }
            try body(path, file)
        }
    }

    /// A recorded path that leads out of the output folder or names no file in it.
    struct UnsafeRecordedPath: Error, CustomStringConvertible {
        var description: String { "it lists a path that is not inside the output folder" }
    }

    /// A line of the file list read as JSON (one `quickOutputLine` does not take).
    private static func outputLine(_ line: ArraySlice<UInt8>) throws -> (String, WrittenFile) {
        let fields = try JSONField(try JSONParser.parse(Array(line))).object()
        let hashField = try fields.required("sha256")
        guard let hash = ContentHash(hex: try hashField.string()) else { throw hashField.error("expected 64 hex digits") }
        return (try fields.required("path").string(), WrittenFile(
            hash: hash, size: try fields.required("size").int(),
            // A string: nanoseconds since 1970 exceed 2^53, beyond what a JSON number keeps exactly.
            modified: Int(try fields.required("modified").string()) ?? 0))
    }

    /// A line exactly as `save` writes it, read without a JSON parse tree: a rebuild of a
    /// large site reads 140,000 of them. nil for anything else (an escaped character in the
    /// path, another layout), which the JSON parser reads.
    static func quickOutputLine(_ line: ArraySlice<UInt8>) -> (String, WrittenFile)? {
        quickOutputFields(line).map { (String(decoding: $0.path, as: UTF8.self), $0.file) }
    }

    /// `quickOutputLine`'s path left as the line's bytes.
    static func quickOutputFields(_ line: ArraySlice<UInt8>) -> (path: ArraySlice<UInt8>, file: WrittenFile)? {
        var index = line.startIndex
        func expect(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard line.endIndex - index >= count else { return false }
            let matches = text.withUTF8Buffer { text in
                line[index..<index + count].withUnsafeBufferPointer { memcmp($0.baseAddress!, text.baseAddress!, count) == 0 }
            }
            if matches { index += count }
            return matches
        }
        func until(_ byte: UInt8) -> ArraySlice<UInt8>? {
            guard let end = line[index...].firstIndex(of: byte) else { return nil }
            defer { index = end }
            return line[index..<end]
        }
        func number() -> Int? {
            let digits = line[index...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty, digits.count <= 19 else { return nil }
            index += digits.count
            var value = 0
            for digit in digits {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowAgain) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                guard !overflow, !overflowAgain else { return nil }
                value = sum
            }
            return value
        }
        guard expect("{\"path\": \""), let path = until(UInt8(ascii: "\"")), !path.contains(UInt8(ascii: "\\")),
              expect("\", \"sha256\": \""), let hex = until(UInt8(ascii: "\"")),
              let hash = ContentHash(hexDigits: hex),
              expect("\", \"size\": "), let size = number(),
              expect(", \"modified\": \""), let modified = number(), expect("\"}"), index == line.endIndex else { return nil }
        return (path, WrittenFile(hash: hash, size: size, modified: modified))
    }

    /// The recorded files by path, for linking unchanged ones (OutputFolder); nil when the
    /// list cannot be read, which makes every file count as new. Keyed straight from each
    /// line's bytes: no string is made for the 140,000 paths. The list is read in parts,
    /// one per core: on one core it held up a rebuild's start by 0.2 s at 10,000 polls. The
    /// parts are kept as they are, not joined.
    package func outputIndex() -> RecordedFiles? {
        guard let parts = try? LineReader.parts(of: url.path, count: ProcessInfo.processInfo.activeProcessorCount) else { return nil }
        let read = ConcurrentResults<[(key: PathKey, file: WrittenFile)]>(count: parts.count)
        // Parts are cut by bytes, so each is given room for its share of the lines and a
        // tenth more: an array that outgrows its room doubles (9 MB at 10,000 polls).
        let bytes = (parts.last?.upperBound ?? 0) - (parts.first?.lowerBound ?? 0)
        DispatchQueue.concurrentPerform(iterations: parts.count) { part in
            var entries: [(key: PathKey, file: WrittenFile)] = []
            entries.reserveCapacity(bytes == 0 ? 0 : record.files * parts[part].count / bytes * 11 / 10 + 64)
            do {
                let lines = try LineReader(path: url.path, from: parts[part].lowerBound, to: parts[part].upperBound)
                while let line = try lines.next() {
                    // A path that is not one sitegen writes (`..`, absolute) makes the list
                    // unreadable, so a full build replaces the folder: a rebuild in place
                    // removes recorded paths, and must never reach outside it.
                    if let (path, file) = Self.quickOutputFields(line) {
                        guard SafePath.isSafe(bytes: path) else { throw UnsafeRecordedPath() }
                        entries.append((PathKey(path), file))
                    } else {
                        let (path, file) = try Self.outputLine(line)
                        guard SafePath.isSafe(path) else { throw UnsafeRecordedPath() }
                        entries.append((PathKey(path), file))
                    }
                }
                read[part] = entries
            } catch {}
        }
        var found: [[(key: PathKey, file: WrittenFile)]] = []
        for part in parts.indices {
            guard let entries = read[part] else { return nil }
            found.append(entries)
        }
        return RecordedFiles(parts: found)
    }

    /// Every recorded file is still there with its size and modification time (a deleted or
    /// hand-edited file forces a full build). Checked a few thousand files at a time, in
    /// parallel.
    public func isIntact(_ output: URL) -> Bool {
        // Looked up from the output folder: the path to it is walked once, not per file.
        let folder = sitegen_open_folder_for_lookup(AT_FDCWD, output.path)
        guard folder >= 0 else { return false }
        defer { close(folder) }
        var batch: [(String, WrittenFile)] = []
        func check(_ batch: [(String, WrittenFile)]) -> Bool {
            let results = ConcurrentResults<Bool>(count: 1)
            let chunks = max(1, batch.count / 512)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var index = chunk
                while index < batch.count {
                    let (path, file) = batch[index]
                    var info = stat()
                    if fstatat(folder, path, &info, 0) != 0 || Int(info.st_size) != file.size
                        || nanoseconds(info.st_mtim) != file.modified {
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
        return check(batch) && count == record.files
    }

    /// Hands over output files in path order, one at a time (OutputList.forEachSorted).
    package typealias Outputs = (([UInt8], WrittenFile) throws -> Void) throws -> Void

    /// Writes the state of a build whose output files `outputs` hands over, streamed to disk.
    package static func save(for output: URL, _ record: BuildRecord, pending: Bool = false, target: URL? = nil, outputs: Outputs) throws {
        try write(for: output, pending: pending, target: target) { file in
            var json = headLine(record)
            try outputs { path, entry in
                appendLine(path, entry, to: &json)
                if json.count >= 1 << 20 {
                    try file.write(json)
                    json.removeAll(keepingCapacity: true)
                }
            }
            try file.write(json)
        }
    }

    /// Writes the state of a rebuild as the last build's file lines with `changes` made
    /// (RecordSplice): the lines of unchanged files are copied as they are. False, with
    /// nothing written, when the last state is no longer the file this build read, its
    /// lines are not as `save` writes them, or the result would not list `record.files`
    /// files; `save` then writes it whole.
    package static func saveSpliced(for output: URL, _ record: BuildRecord, last: BuildState, lastFiles: Int,
                                    changes: [RecordSplice.Change], pending: Bool = false) throws -> Bool {
        guard let stamp = last.stamp, stamp.size != nil, FileStamp(last.url.path) == stamp else { return false }
        return try MappedFile.withContents(of: last.url.path) { bytes, descriptor throws -> Bool in
            let source = SpliceSource.mapped(bytes, descriptor: descriptor)
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
                  let splice = RecordSplice(source, region: newline + 1..<bytes.count, changes: changes, layout: Lines()),
                  lastFiles - splice.removed + splice.added == record.files else { return false }
            try write(for: output, pending: pending) { file in
                var json = headLine(record)
                for piece in splice.pieces {
                    switch piece {
                    case .old(let range):
                        try file.write(json)
                        json.removeAll(keepingCapacity: true)
                        try source.forEachChunk(of: range) { try file.write($0) }
                    case .new(let index):
                        let change = changes[index]
                        appendLine(change.path, change.file!, to: &json)
                    }
                }
                try file.write(json)
            }
            return true
        } ?? false
    }

    /// The first line: the build, its report and its inputs.
    private static func headLine(_ record: BuildRecord) -> [UInt8] {
        let head = JSONOutput.object([
            ("format", .string(format)),
            ("fingerprint", .string(record.fingerprint)),
            ("pages", .int(record.pages)), ("files", .int(record.files)), ("polls", .int(record.polls)),
            ("ballots", .int(record.ballots)),
            ("diagnostics", .array(record.diagnostics.map { d in
                .object([("severity", .string(d.severity.rawValue)), ("file", .string(d.file)),
                         ("line", d.line.map { .int($0) } ?? .null), ("column", d.column.map { .int($0) } ?? .null),
                         ("field", .string(d.field)), ("message", .string(d.message)),
                         ("summary", d.summary.map { .string($0) } ?? .null)])
            })),
            ("omitted", .array(record.omissions.map { o in
                .object([("severity", .string(o.severity.rawValue)), ("count", .int(o.count)),
                         ("summary", o.summary.map { .string($0) } ?? .null), ("file", o.file.map { .string($0) } ?? .null)])
            })),
            ("inputs", .array(record.inputHashes.compactMap { input in
                guard let size = input.stamp.size, let modified = input.stamp.modified, let changed = input.stamp.changed,
                      let inode = input.stamp.inode else { return nil }
                return .object([("path", .string(input.path)), ("size", .string(String(size))),
                                ("modified", .string(String(modified))), ("changed", .string(String(changed))),
                                ("inode", .string(String(Int(truncatingIfNeeded: inode)))), ("sha256", .string(input.sha256))])
            })),
        ]).bytes()
        // One line: strings never hold a raw line break (JSONOutput escapes it), so every
        // line break in the pretty-printed head is layout.
        var line = head.filter { $0 != UInt8(ascii: "\n") }
        // The poll keys go last, written straight into the line: as a JSON tree, 10,000 of
        // them took two thirds of the time a one-ballot rebuild spent saving its state.
        precondition(line.last == UInt8(ascii: "}"))
        line.removeLast()
        line += ",  \"pollKeys\": [".utf8
        for (index, key) in record.pollKeys.enumerated() {
            if index > 0 { line += ", ".utf8 }
            JSONOutput.appendString(key, to: &line)
        }
        line += "]}\n".utf8
        return line
    }

    /// One output file's line.
    private static func appendLine(_ path: [UInt8], _ entry: WrittenFile, to json: inout [UInt8]) {
        json += LinePart.path
        JSONOutput.appendString(utf8: path, to: &json)
        json += LinePart.hash
        entry.hash.appendHex(to: &json)
        json += LinePart.size
        JSONOutput.appendDecimal(entry.size, to: &json)
        json += LinePart.modified
        JSONOutput.appendDecimal(entry.modified, to: &json)
        json += LinePart.end
    }

    /// Where a rebuild in place keeps its new state from before its journal is written
    /// until the journal is (OutputFolder.publishInPlace): the journal and the state it
    /// goes with are put in place together, or neither is.
    package static func pendingURL(for output: URL) -> URL {
        url(for: output).appendingPathExtension("pending")
    }

    /// Puts a pending state in place; false when there is none.
    @discardableResult
    package static func commitPending(for output: URL) -> Bool {
        rename(pendingURL(for: output).path, url(for: output).path) == 0
    }

    /// Where a build that swaps a whole new site in keeps its state from before the swap
    /// until after it (OutputFolder.publish): a build killed in between is followed by one
    /// that puts it in place if the swap happened (`finishInterruptedSwap`).
    package static func swapPendingURL(for output: URL) -> URL {
        url(for: output).appendingPathExtension("swap")
    }

    /// What the state at `url` records for `path`; nil when it lists no such file or
    /// cannot be read.
    package static func recorded(_ path: String, inStateAt url: URL) -> WrittenFile? {
        guard let lines = try? LineReader(path: url.path), (try? lines.next()) != nil else { return nil }
        while let line = try? lines.next() {
            guard let (listed, file) = quickOutputLine(line) ?? (try? outputLine(line)) else { return nil }
            if listed == path { return file }
        }
        return nil
    }

    /// Writes the state under a temporary name and renames it into place (or to its pending
    /// name, for `commitPending`; or to `target`).
    private static func write(for output: URL, pending: Bool = false, target given: URL? = nil, _ body: (ChunkedFile) throws -> Void) throws {
        let target = given ?? (pending ? pendingURL(for: output) : Self.url(for: output))
        let temporary = target.appendingPathExtension("tmp")
        let file = try ChunkedFile(temporary.path)
        try body(file)
        try file.close()
        guard rename(temporary.path, target.path) == 0 else {
            throw OutputError(message: "\(displayPath(target)): cannot save build state: \(String(cString: strerror(errno)))")
        }
    }

    /// The file lines as RecordSplice finds them: one a line, the path first.
    struct Lines: RecordLayout {
        func recordStart(_ bytes: UnsafeRawBufferPointer, holding offset: Int, from lowest: Int) -> Int? {
            var index = offset
            while index > lowest && bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
            return index
        }

        func record(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int) -> (path: [UInt8], next: Int)? {
            guard bytes.has(LinePart.path, at: start),
                  let (path, after) = bytes.jsonString(at: start + LinePart.path.count, before: end),
                  bytes.has(LinePart.hash, at: after),
                  let newline = bytes[after..<end].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            return (path, newline + 1)
        }
    }

    /// The fixed parts of a file's line, between its values (`quickOutputFields` reads them).
    fileprivate enum LinePart {
        static let path = Array("{\"path\": ".utf8)
        static let hash = Array(", \"sha256\": \"".utf8)
        static let size = Array("\", \"size\": ".utf8)
        static let modified = Array(", \"modified\": \"".utf8)
        static let end = Array("\"}\n".utf8)
    }

    /// Where SitegenKit's PollFileCache is kept, beside the state.
    package static func pollCacheURL(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).sitegen-polls")
    }

    /// Where the next build's cache is written until the build is published.
    package static func pendingPollCacheURL(for output: URL) -> URL {
        pollCacheURL(for: output).appendingPathExtension("tmp")
    }

    /// Writes the next build's cache whole under its pending name; false (and nothing
    /// left) when it cannot be written: the cache is then simply absent, and the next build
    /// reads every poll file.
    package static func writePendingPollCache(for output: URL, _ writer: PollCacheWriter) -> Bool {
        let temporary = pendingPollCacheURL(for: output).path
        do {
            let file = try ChunkedFile(temporary)
            try writer(file.write)
            try file.close()
            return true
        } catch {
            unlink(temporary)
            return false
        }
    }

    /// Puts the pending cache in place of the last build's, or removes the last build's when
    /// there is none: it belongs to a state about to be replaced.
    package static func publishPollCache(for output: URL, written: Bool) {
        let target = pollCacheURL(for: output)
        // Where sitegen before the binary cache kept it (JSON Lines): no longer read.
        unlink(target.path + ".jsonl")
        if !written || rename(pendingPollCacheURL(for: output).path, target.path) != 0 {
            unlink(pendingPollCacheURL(for: output).path)
            unlink(target.path)
        }
    }

    public static func remove(for output: URL) {
        try? FileManager.default.removeItem(at: url(for: output))
    }
}
