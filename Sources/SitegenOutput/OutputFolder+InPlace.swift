import Foundation
import SitegenCore
import SitegenInput

/// A rebuild updates the published folder in place, so that what it costs follows the change.
///
/// A first build stages a whole site and swaps it in (`commit`). A rebuild with the last
/// build's record could do the same only by hard-linking every unchanged file into the
/// staging folder — a `mkdir` per folder and a `link` per file, 140,000 of them for 10,000
/// polls, which was half of a one-ballot rebuild — and removing the replaced tree after.
/// Instead a rebuild leaves unchanged files where they are, stages only new and changed
/// ones, and when every file is written:
///
/// 1. saves the new build state under a pending name (its files' times are those the moves keep);
/// 2. writes a journal beside the output: the paths to remove and the staged paths to move in;
///    then puts the pending state in place (a build killed in between leaves both, and the
///    next one puts the state in place as it finishes the moves);
/// 3. removes the dropped files (and folders left empty), then renames each staged file
///    into place, each rename atomic;
/// 4. deletes the journal.
///
/// Files in the output that sitegen did not write and that are not kept are left where
/// they are: a rebuild in place removes only files the last build recorded and refuses
/// (exit 3) to write where such a file is; a full build refuses to replace the folder.
///
/// A build that fails before step 1 leaves the published site untouched, as a full build
/// does. A build killed after it leaves the journal, and the next build (or `serve`)
/// finishes the moves before anything else (`finishInterruptedUpdate`): the site is never
/// left half old and half new. While the moves run — a few milliseconds for a new ballot —
/// a reader may see some pages new and others old. The full swap, which a first build, any
/// rebuild that cannot move its files in place, and one that changes more than half the
/// site use, switches the whole site at once (docs/publishing.md, "How a rebuild publishes").
extension OutputFolder {
    static let journalFormat = "sitegen-journal 2"
    /// The format before the journal carried the build's `--changes` lines.
    static let journalFormatWithoutChanges = "sitegen-journal 1"

    /// Publishes the staged changes in place; false when they cannot be (a staged file
    /// would replace a folder, or a folder a file), after the staging folder was completed
    /// with links to every unchanged file so that the full swap can publish it instead.
    func publishInPlace(_ record: BuildRecord, placeChanges: () throws(OutputError) -> Void) throws(OutputError) -> Bool {
        let moved = staged.paths.sorted()
        let removed = try removedPaths()
        // A file of someone else's where this build adds one is never replaced.
        let strangers = moved.filter { path in
            var info = stat()
            return previous[PathKey(path)] == nil && lstat(outputPath + "/" + path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
        }
        if !strangers.isEmpty {
            throw .strangers(in: displayPath(output), named: Array(strangers.prefix(OutputError.namedStrangers)),
                             count: strangers.count, missingRecord: nil)
        }
        guard canMove(moved, removing: Set(removed)) else {
            // The full swap replaces the whole folder: only when all of it is sitegen's.
            try checkOwnership(recorded: previous)
            try completeStaging(except: Set(moved))
            return false
        }
        let changing = moved.count + removed.count
        if changing >= swapsFromChanges, changing > (list.count + late.count) / 2, (try? checkOwnership(recorded: previous)) != nil {
            // Most of a large site changes (a template, site.yml, the stylesheet): moving file
            // after file would let a reader, or a kill, see old pages beside new ones for
            // seconds; linking the rest costs less than the moves, and one swap switches the
            // site at once. A folder holding files of someone else's cannot be swapped, and
            // is updated in place as before.
            try completeStaging(except: Set(moved))
            return false
        }
        let list = self.list, late = self.late
        // The new state first, under its pending name: a build killed after its journal but
        // before its state left the journal finished against the old state, which did not
        // list the files it moved in, and every later build refused them as someone else's.
        // The last state's lines with the changes made, when it can be; else written whole.
        var spliced = false
        if let last = lastState, let changes = spliceChanges(removed: removed) {
            spliced = (try? BuildState.saveSpliced(for: output, record, last: last, lastFiles: previous.count, changes: changes, pending: true)) == true
        }
        self.spliced.state = spliced
        let saved = spliced
            || (try? BuildState.save(for: output, record, pending: true, outputs: { body in try list.forEachSortedRecord(adding: late, body) })) != nil
        try writeJournal(moved: moved, removed: removed)
        if stopsAfterJournal { return true }
        if !(saved && BuildState.commitPending(for: output)) {
            // Without a state the next build is simply a full one.
            BuildState.remove(for: output)
        }
        if stopsBeforeMoving { return true }
        try apply(moved: moved, removed: removed)
        // The staging folder goes first: the list is the last thing a build does before it
        // exits 0. Put in place before the folder went (a tenth of a second at 10,000
        // polls), a kill in between left a complete list that a deploy step rightly ignored
        // (the build exited -9), and a next build that listed nothing. Killed with the
        // journal still there, the next build finishes it (the moves are done) and lists
        // its lines.
        discard(staging)
        // The list in place while the journal still holds its lines: killed in between, the
        // next build finishes the journal and lists them again, rather than never.
        try placeChanges()
        unlink(journal.path)
        unlock()
        return true
    }

    /// A rebuild in place's `--changes` lines: the files it staged, added (`A`) or with other
    /// bytes than the last build recorded (`M`), and those it removes (`D`), in path order
    /// (OutputChanges). The same lines as comparing the whole last state with the whole new
    /// list, which read 144,000 lines into a table: half a second and 37 MB more for a
    /// rebuild after one ballot at 10,000 polls (docs/performance.md).
    func changesInPlace() throws(OutputError) -> [String] {
        var changes: [([UInt8], Character)] = staged.records.compactMap { path, file in
            guard let old = previous[PathKey(path)] else { return (Array(path.utf8), "A") }
            return old.hash != file.hash || old.size != file.size ? (Array(path.utf8), "M") : nil
        }
        changes += try removedPaths().map { (Array($0.utf8), "D") }
        return changes.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map { "\($0.1) " + String(decoding: $0.0, as: UTF8.self) }
    }

    /// Finishes the moves of a rebuild that was killed after writing its journal. A journal
    /// that cannot be read (another version wrote it) leaves the site part old, part new,
    /// all of it sitegen's: it stays until a full build has replaced the whole folder
    /// (`replacesUnfinishedUpdate`).
    package func finishInterruptedUpdate() throws(OutputError) {
        guard Self.exists(journal.path) else {
            // A state a build saved before it was stopped, short of its journal: the site is
            // the last one, which the state in place describes.
            unlink(BuildState.pendingURL(for: output).path)
            return
        }
        guard let (moved, removed, changes) = Self.readJournal(journal.path) else {
            replacesUnfinishedUpdate = true
            return
        }
        // Killed between its journal and putting its state in place: the state goes with the journal.
        BuildState.commitPending(for: output)
        try apply(moved: moved, removed: removed)
        carriedChanges = changes
        unlink(journal.path)
    }

    /// The last build's files that this build did not write, from the recorded list and the
    /// new one, both in path order, walked side by side. A new path that is also kept
    /// (`keep:`) is an error, as in a full build (`carryOverKept`); such paths were noted as
    /// they were added (`keptAndWritten`).
    func removedPaths() throws(OutputError) -> [String] {
        guard let state = lastState else { return [] }
        if let path = keptAndWritten.first {
            throw OutputError.keptAndWritten(displayPath(output.appendingPathComponent(path)))
        }
        // Every recorded path was written again, the usual rebuild: nothing to remove, and
        // no need to read the last build's 140,000 lines a second time.
        if recordedAgain.value == previous.count { return [] }
        var removed: [String] = []
        do {
            var new = try list.sorted(adding: late)
            var next = try new.next()
            func advance() throws {
                next = try new.next()
            }
            try state.forEachOutput { path, _ in
                let old = Array(path.utf8)
                while let entry = next, OutputList.precedes(Array(entry.path.utf8), old) { try advance() }
                if next?.path == path { try advance() } else { removed.append(path) }
            }
            while next != nil { try advance() }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(message: "\(displayPath(BuildState.url(for: output))): cannot read the last build's files: \(error)")
        }
        return removed
    }

    /// Whether each staged file can be renamed into place: nothing but a plain file at its
    /// path, and nothing but folders above it, or a file of the last build's that this one
    /// removes first (an asset that became a folder: `img` → `img/x.png`).
    private func canMove(_ moved: [String], removing removed: Set<String>) -> Bool {
        var folders = Set<Substring>()
        for path in moved {
            var info = stat()
            if lstat(outputPath + "/" + path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { return false }
            var end = path.startIndex
            while let slash = path[end...].firstIndex(of: "/") {
                let folder = path[..<slash]
                end = path.index(after: slash)
                guard folders.insert(folder).inserted else { continue }
                if lstat(outputPath + "/" + folder, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR,
                   !((info.st_mode & S_IFMT) == S_IFREG && removed.contains(String(folder))) { return false }
            }
        }
        return true
    }

    /// Links every file of the new site that was not staged (left in place as unchanged)
    /// into the staging folder, which then holds the whole site, as a full build's does.
    private func completeStaging(except moved: Set<String>) throws(OutputError) {
        let folders = CreatedDirectories()
        do {
            try list.forEachSorted(adding: late) { path, _ in
                guard !moved.contains(path) else { return }
                if let slash = path.lastIndex(of: "/") {
                    try folders.create(String(path[..<slash]), inside: stagingPath)
                }
                guard link(outputPath + "/" + path, stagingPath + "/" + path) == 0 else {
                    throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot link from the last build: \(String(cString: strerror(errno)))")
                }
            }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(message: "\(displayPath(output)): cannot read back the list of written files: \(error.localizedDescription)")
        }
    }

    /// Removes `removed` (and the folders they leave empty), then moves each of `moved` from
    /// the staging folder into place. Safe to repeat: a file already moved or removed is
    /// passed over.
    private func apply(moved: [String], removed: [String]) throws(OutputError) {
        for path in removed { removeWithinOutput(path) }
        let folders = CreatedDirectories()
        for path in moved {
            let from = stagingPath + "/" + path, to = outputPath + "/" + path
            do {
                if let slash = path.lastIndex(of: "/") {
                    try folders.create(String(path[..<slash]), inside: outputPath)
                }
            } catch {
                throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot move the new file into place: \(error.localizedDescription)")
            }
            if rename(from, to) != 0 {
                // Moved by the run this one finishes.
                if errno == ENOENT && !Self.exists(from) { continue }
                throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot move the new file into place: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Removes the file at `path` and the folders it leaves empty, never through a link: each
    /// folder on the way is opened with O_NOFOLLOW from the one above, so a folder someone
    /// replaced with a link (to their own files elsewhere) stops the removal there, and
    /// nothing outside the output folder is touched. The link itself is theirs and stays.
    func removeWithinOutput(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var folders: [Int32] = [Glibc.open(outputPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)]
        defer { for folder in folders where folder >= 0 { close(folder) } }
        guard folders[0] >= 0 else { return }
        for part in parts.dropLast() {
            let next = openat(folders[folders.count - 1], part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return }
            folders.append(next)
        }
        unlinkat(folders[folders.count - 1], parts[parts.count - 1], 0)
        // Each emptied folder from its parent's descriptor; fails, and stops, at the first
        // that still holds something.
        for level in stride(from: folders.count - 1, to: 0, by: -1) {
            guard unlinkat(folders[level - 1], parts[level - 1], AT_REMOVEDIR) == 0 else { break }
        }
    }

    /// One line each: the format, then `D "path"` for each removal and `M "path"` for each
    /// move, and `C "line"` for each of the build's `--changes` lines, as JSON strings (a
    /// path may hold a line break). Written under a temporary name and renamed, so a journal
    /// is whole or absent.
    private func writeJournal(moved: [String], removed: [String]) throws(OutputError) {
        var bytes = Array((Self.journalFormat + "\n").utf8)
        for (letter, paths) in [("D", removed), ("M", moved), ("C", journalledChanges)] {
            for path in paths {
                bytes += "\(letter) ".utf8
                JSONOutput.appendString(path, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
        }
        let temporary = journal.path + ".tmp"
        do {
            let file = try ChunkedFile(temporary)
            try file.write(bytes)
            try file.close()
        } catch {
            throw OutputError(message: "\(displayPath(journal)): cannot write the list of files to move in: \(error.localizedDescription)")
        }
        guard rename(temporary, journal.path) == 0 else {
            throw OutputError(message: "\(displayPath(journal)): cannot write the list of files to move in: \(String(cString: strerror(errno)))")
        }
    }

    private static func readJournal(_ path: String) -> (moved: [String], removed: [String], changes: [String])? {
        guard let lines = try? LineReader(path: path), let first = try? lines.next(),
              [journalFormat, journalFormatWithoutChanges].contains(String(decoding: first, as: UTF8.self)) else { return nil }
        var moved: [String] = [], removed: [String] = [], changes: [String] = []
        do {
            while let line = try lines.next() {
                guard line.count > 2, let letter = line.first, line[line.startIndex + 1] == UInt8(ascii: " ") else { return nil }
                let text = try JSONField(try JSONParser.parse(Array(line.dropFirst(2)))).string()
                if letter == UInt8(ascii: "C") {
                    guard let status = text.first, "AMD".contains(status), text.dropFirst().first == " ",
                          SafePath.isSafe(String(text.dropFirst(2))) else { return nil }
                    changes.append(text)
                    continue
                }
                guard SafePath.isSafe(text) else { return nil }
                switch letter {
                case UInt8(ascii: "M"): moved.append(text)
                case UInt8(ascii: "D"): removed.append(text)
                default: return nil
                }
            }
        } catch {
            return nil
        }
        return (moved, removed, changes)
    }
}

/// The paths a rebuild wrote into its staging folder, gathered from the parallel workers.
/// A count kept from many threads (OutputFolder.recordedAgain).
/// The `keep:` names, and the paths a build wrote or kept that are one of them or inside
/// one. Every path of a rebuild passes through `note`; nearly all are turned away by their
/// first byte.
package final class KeptPaths: @unchecked Sendable {
    private let kept: [(name: [UInt8], folder: [UInt8])]
    private var firstBytes = [Bool](repeating: false, count: 256)
    private let lock = NSLock()
    private var found: [UInt8]?

    init(_ keep: [String]) {
        kept = keep.map { (Array($0.utf8), Array(($0 + "/").utf8)) }
        for name in kept { if let byte = name.name.first { firstBytes[Int(byte)] = true } }
    }

    /// Whether `path` is a kept name or inside one.
    func names(_ path: String) -> Bool {
        guard let byte = path.utf8.first, firstBytes[Int(byte)] else { return false }
        let bytes = Array(path.utf8)
        return kept.contains { bytes == $0.name || bytes.starts(with: $0.folder) }
    }

    /// Remembers `path` when it is kept.
    func note(_ path: String) {
        guard names(path) else { return }
        let bytes = Array(path.utf8)
        lock.withLock {
            if found.map({ OutputList.precedes(bytes, $0) }) ?? true { found = bytes }
        }
    }

    /// The first noted path, in path order.
    var first: String? { lock.withLock { found.map { String(decoding: $0, as: UTF8.self) } } }
}

package final class PathCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ more: Int) {
        lock.withLock { count += more }
    }

    var value: Int { lock.withLock { count } }
}

/// The files a rebuild wrote into its staging folder, with what the build state records
/// of each, gathered from the parallel workers.
package final class StagedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [(path: String, file: WrittenFile)] = []

    func add(_ path: String, _ file: WrittenFile) {
        lock.withLock { files.append((path, file)) }
    }

    var paths: [String] { lock.withLock { files.map(\.path) } }
    var records: [(path: String, file: WrittenFile)] { lock.withLock { files } }

    /// The staged files' records and `removed`, the last build's paths this one lacks, in
    /// path order: what the next build state and manifest.json change (RecordSplice).
    func changes(removed: [String]) -> [RecordSplice.Change] {
        let staged = lock.withLock { files }
        return (staged.map { RecordSplice.Change(path: Array($0.path.utf8), file: $0.file) }
                + removed.map { RecordSplice.Change(path: Array($0.utf8), file: nil) })
            .sorted { OutputList.precedes($0.path, $1.path) }
    }
}
