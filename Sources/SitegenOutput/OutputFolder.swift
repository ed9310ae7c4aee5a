import CFileSwap
import Foundation
import SitegenCore
import SitegenInput

/// The published site as a folder on disk (SiteOutput), with its staging folder, lock file
/// and build state beside it.
///
/// A first build writes everything into the staging folder and swaps it in only when every
/// file was written, so a failed or killed build leaves the previous site exactly as it was.
/// A rebuild stages only the files that changed and moves them in through a journal
/// (OutputFolder+InPlace.swift), so its cost follows the change, not the site.
/// A lock file beside the output keeps two builds from interleaving. The build state
/// (BuildState) records what the last build wrote: what a rebuild may replace, and which
/// files it links instead of writing again.
public final class OutputFolder: SiteOutput, @unchecked Sendable {
    public let output: URL
    public let staging: URL
    package let stagingPath: String
    package let outputPath: String
    /// Paths sitegen did not write that move from the published site to the next (`keep:`).
    public let keep: [String]
    private let lockFile: URL
    private var lockDescriptor: Int32 = -1
    /// The published folder, opened once the last build's files are known: a rebuild checks
    /// each kept file relative to it (`isRecorded(_:_:)`), which spares the kernel walking
    /// the folder's own path 140,000 times.
    private var publishedDescriptor: Int32 = -1
    private let fileSystem: OutputFileSystem
    /// The previous build's files, for linking unchanged ones instead of writing them. A
    /// rebuild in place reads them in the background (`lastBuild(matching:)`) while the
    /// inputs are read, and waits for them before its first file (`awaitLastBuildsFiles`).
    var previous: RecordedFiles {
        previousRead.wait()
        return previousValue
    }
    private var previousValue = RecordedFiles.none
    private let previousRead = DispatchGroup()
    /// The background read's list, nil when it could not be read (`awaitLastBuildsFiles`).
    private var readInBackground: RecordedFiles?
    public private(set) var lastPollKeys: Set<String> = []
    /// The paths another version's build state lists, when that is the record there
    /// (`BuildState.pathsOfAnotherVersion`): whose the files are, and what `--changes`
    /// lists as removed.
    private var pathsOfAnotherVersion: [String] = []
    public var lastFileCount: Int { updatesInPlace ? lastState?.record.files ?? 0 : previous.count }
    private let directories = CreatedDirectories()
    /// Every file written so far (set by `open`), and those written last from that list
    /// (the sitemap's files, manifest.json).
    private var written: OutputList?
    var late: [OutputList.Entry] = []
    /// Replaced and abandoned sites are removed by a detached process (see `discard`).
    private let removesInBackground: Bool
    /// The last build's record is usable: only new and changed files are staged, and they
    /// are moved into the published folder in place (OutputFolder+InPlace.swift).
    package private(set) var updatesInPlace = false
    /// With `updatesInPlace`, the paths written into the staging folder.
    package let staged = StagedPaths()
    /// The next build's poll cache, being written in the background (`startPollCache`).
    private let pollCacheWriting = DispatchGroup()
    private var pollCacheWritten = false
    /// How many of the last build's paths this build has written or kept again.
    package let recordedAgain = PathCount()
    /// Paths this build wrote or kept that `keep:` also names, noted as they are added:
    /// publishing in place refuses the first (`removedPaths`) without walking every path.
    package let keptAndWritten: KeptPaths
    package var journal: URL { workFolder.appendingPathComponent("\(workPrefix)journal") }
    /// An interrupted rebuild's journal could not be read: this build replaces the whole
    /// folder, which is all sitegen's, without comparing it with the last build's record.
    var replacesUnfinishedUpdate = false
    /// Whether manifest.json and the build state were made from the last build's
    /// (RecordSplice) rather than written whole; for tests.
    package internal(set) var spliced = (manifest: false, state: false)
    /// For tests: splices however many records change (a small site's rebuild changes a
    /// quarter of them).
    package var splicesAnyChange = false
    /// A rebuild changing more than half the site, and at least this many files, swaps in a
    /// whole new folder instead of moving files in place (`publishInPlace`); fewer moves
    /// take milliseconds. Tests lower it.
    package var swapsFromChanges = 1000
    /// For tests: stops an in-place update as a kill would, with the journal and the build
    /// state written and no file moved.
    package var stopsBeforeMoving = false
    /// What a killed rebuild's journal said it changed (SiteOutput.carriedChanges).
    package internal(set) var carriedChanges: [String] = []
    /// This build's `--changes` lines, for its journal.
    var journalledChanges: [String] = []
    package func noteChanges(_ lines: [String]) { journalledChanges = lines }
    /// For tests: stops an in-place update as a kill would, with the journal written and the
    /// new build state still under its pending name.
    package var stopsAfterJournal = false
    /// For tests: stops a build that swaps its site in as a kill would, with its state saved
    /// under its pending name, just before or just after the swap.
    package var stopsAroundSwap: KillPoint?
    package enum KillPoint { case before, after }

    /// The output folder is a mount point: it cannot be renamed, so the new site is staged
    /// inside it and swapped in entry by entry (`swapContents`).
    package let isMountPoint: Bool
    /// Where the staging folder and replaced sites live: beside the output, or inside it
    /// when it is a mount point (a rename cannot cross file systems).
    package let workFolder: URL

    public init(output: URL, keep: [String] = [], fileSystem: OutputFileSystem = .disk, removesInBackground: Bool = false) {
        self.keep = keep
        keptAndWritten = KeptPaths(keep)
        self.fileSystem = fileSystem
        self.removesInBackground = removesInBackground
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = self.output.lastPathComponent
        isMountPoint = Self.isMountPoint(self.output.path)
        workFolder = isMountPoint ? self.output : parent
        staging = workFolder.appendingPathComponent(".\(name).sitegen-staging")
        stagingPath = staging.path
        outputPath = self.output.path
        lockFile = parent.appendingPathComponent(".\(name).sitegen-lock")
    }

    deinit { unlock() }

    /// Refuses output folders that would overwrite what sitegen reads: the site folder, an
    /// input or template folder, a parent of one, or a folder inside an input or template
    /// folder (its files would become inputs). Compared with links resolved, so a link
    /// cannot disguise one as another. What the folder holds is `checkOwnership`'s concern.
    public func checkSafe(siteFolder: URL, protecting protected: [URL]) throws(OutputError) {
        let outputPath = Self.resolvingLinks(output).path
        for folder in [siteFolder] + protected where Self.path(Self.resolvingLinks(folder).path, isIn: outputPath) {
            throw OutputError(message: "\(displayPath(output)): refusing to use this output folder: it is or contains \(displayPath(folder)), which sitegen reads")
        }
        for folder in protected where outputPath != Self.resolvingLinks(folder).path && Self.path(outputPath, isIn: Self.resolvingLinks(folder).path) {
            throw OutputError(message: "\(displayPath(output)): refusing to use this output folder: it is inside \(displayPath(folder)), which sitegen reads")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: outputPath, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw OutputError(message: "\(displayPath(output)): the output path exists and is not a folder")
        }
        // A link that leads nowhere (or to itself) cannot be resolved to the folder it names:
        // said so, before a staging folder is made beside it and the swap fails.
        var info = stat()
        if lstat(outputPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw OutputError(message: "\(displayPath(output)): the output path is a link to nothing (or a loop of links): make the folder it names, or name another")
        }
    }

    /// `path` is `folder` or inside it; every absolute path is inside `/` (`"/" + "/"` is
    /// no prefix of "/home", and `--output /` was let through).
    static func path(_ path: String, isIn folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    package static func isSitegenOutput(_ folder: URL) -> Bool {
        // Its head only: manifest.json names every file, 21 MB at 10,000 polls.
        guard let file = try? FileHandle(forReadingFrom: folder.appendingPathComponent(Manifest.path)) else { return false }
        defer { try? file.close() }
        guard let data = try? file.read(upToCount: 4096) else { return false }
        // Decoded with repair: the 4096th byte may fall inside a character of an input's name.
        return String(decoding: data, as: UTF8.self).contains("\"generator\": \"sitegen")
    }

    /// The last build's state (its first line), read once the lock is held; nil when there
    /// is none, it is unreadable, or an unfinished update makes this build a full one.
    lazy var lastState: BuildState? = replacesUnfinishedUpdate ? nil : BuildState.read(for: output)

    package var lastInputHashes: [HashedInput] { lastState?.record.inputHashes ?? [] }

    /// Why `folder` cannot be made, in the system's words or naming the file in its way
    /// (Foundation's "The operation could not be completed. A file with the same name
    /// already exists." named neither).
    static func reasonCannotCreate(_ folder: URL) -> String {
        // The nearest part of the path that exists: a file there is in the way.
        var missing: [URL] = []
        var ancestor = folder, isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) && ancestor.path != "/" {
            missing.append(ancestor)
            ancestor = ancestor.deletingLastPathComponent()
        }
        if !isFolder.boolValue { return "\(displayPath(ancestor)) is a file, not a folder" }
        for part in missing.reversed() where mkdir(part.path, 0o755) != 0 && errno != EEXIST {
            return String(cString: strerror(errno))
        }
        return "it could not be made"
    }

    /// Takes the lock and clears a staging folder left by a killed build.
    public func open() throws(OutputError) {
        let parent = output.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputError(message: "\(displayPath(parent)): cannot create folder: \(Self.reasonCannotCreate(parent))")
        }
        var waited = false
        while true {
            lockDescriptor = openLockFile(lockFile.path)
            guard lockDescriptor >= 0 else {
                throw OutputError(message: "\(displayPath(lockFile)): cannot create lock file: \(String(cString: strerror(errno)))")
            }
            // Waits for another build of the same output to finish rather than interleaving, and
            // says so: a CI log that stopped without a word looked hung.
            if flock(lockDescriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK, !waited {
                FileHandle.standardError.write(Data("Waiting for another build of \(displayPath(output))/ to finish (it holds \(displayPath(lockFile)))…\n".utf8))
                waited = true
            }
            guard flock(lockDescriptor, LOCK_EX) == 0 else {
                throw OutputError(message: "\(displayPath(lockFile)): cannot lock: \(String(cString: strerror(errno)))")
            }
            // A build that gives up with no record beside the folder removes the lock file
            // (`abandon`): one that waited on it holds a removed file, and locks the path anew.
            var held = stat(), named = stat()
            if fstat(lockDescriptor, &held) == 0, stat(lockFile.path, &named) == 0,
               held.st_dev == named.st_dev, held.st_ino == named.st_ino { break }
            close(lockDescriptor)
        }
        // A build killed between its swap and its state: put the state in place if the swap
        // happened. A rebuild killed while moving its files in: finish the move (roll forward).
        finishInterruptedSwap()
        try finishInterruptedUpdate()
        // What earlier builds left: a staging folder (killed build), a removal cut short.
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: workFolder.path)) ?? [])
            .filter { $0.hasPrefix(trashPrefix) }
        for name in leftovers {
            discard(workFolder.appendingPathComponent(name))
        }
        do {
            if FileManager.default.fileExists(atPath: staging.path) {
                rescueKept(from: stagingPath)
                discard(staging)
            }
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw OutputError(message: "\(displayPath(staging)): cannot prepare staging folder: \(error.localizedDescription)")
        }
        do {
            written = try OutputList(temporaryFolder: parent)
        } catch {
            throw OutputError(message: "\(displayPath(parent)): cannot create a temporary file: \(error.localizedDescription)")
        }
    }

    /// Nothing changed: the build state has this fingerprint, manifest.json says sitegen
    /// wrote the folder, and every recorded file has its recorded size and modification time.
    /// Otherwise the recorded files are remembered for leaving or linking unchanged ones.
    /// A build that will replace the whole folder first checks that every file in it is
    /// recorded or kept (`checkOwnership`); one that updates it in place touches only
    /// recorded paths and checks the new paths it writes (`publishInPlace`), without
    /// walking a folder of 140,000 others.
    public func lastBuild(matching fingerprint: String) throws(OutputError) -> BuildRecord? {
        if replacesUnfinishedUpdate { return nil }
        let state = lastState
        if let state, state.record.fingerprint == fingerprint, Self.isSitegenOutput(output), state.isIntact(output) {
            abandon()
            return state.record
        }
        if let state, state.record.files > 0, Self.isSitegenOutput(output) {
            // The list grows with the site (140,000 lines at 10,000 polls) and nothing reads
            // it before the first file: read while the inputs are.
            publishedDescriptor = Glibc.open(outputPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            updatesInPlace = true
            lastPollKeys = Set(state.record.pollKeys)
            previousRead.enter()
            DispatchQueue.global().async { [self] in
                readInBackground = state.outputIndex()
                previousValue = readInBackground ?? .none
                previousRead.leave()
            }
            return nil
        }
        let index = state?.outputIndex()
        previousValue = index ?? .none
        if !previousValue.isEmpty { publishedDescriptor = Glibc.open(outputPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        updatesInPlace = !previousValue.isEmpty && Self.isSitegenOutput(output)
        if !updatesInPlace {
            // A state another version of sitegen wrote still says which files are sitegen's:
            // the folder is then replaced whole (docs/robustness.md).
            var recorded = index
            if state == nil, let paths = BuildState.pathsOfAnotherVersion(for: output) {
                pathsOfAnotherVersion = paths
                recorded = RecordedFiles(entries: paths.map { (PathKey($0), WrittenFile.unknown) })
            }
            try checkOwnership(recorded: recorded)
        }
        lastPollKeys = index == nil ? [] : Set(state?.record.pollKeys ?? [])
        return nil
    }

    public func awaitLastBuildsFiles() throws(OutputError) {
        previousRead.wait()
        guard updatesInPlace, previousValue.isEmpty else { return }
        // The record's list could not be read after all: a full build, decided as
        // `lastBuild(matching:)` decides it for an unreadable list, before any file is written.
        updatesInPlace = false
        if readInBackground == nil { lastPollKeys = [] }
        if publishedDescriptor >= 0 {
            Glibc.close(publishedDescriptor)
            publishedDescriptor = -1
        }
        try checkOwnership(recorded: readInBackground)
    }

    /// Writes one file into the staging folder. `path` was checked by `SafePath`.
    ///
    /// A file identical to the previous build's is hard-linked from the published folder
    /// instead: it keeps its bytes, inode and modification time, so a sync to a host (rsync,
    /// S3) sees it unchanged. Identical means the new bytes have the hash the build state
    /// recorded, and the published file still has the recorded size and modification time
    /// (`isRecorded`). The file's modification time (nanoseconds since 1970) goes into the
    /// build state, so the next build can tell whether the published file was touched.
    public func write(_ path: String, _ bytes: [UInt8]) throws(OutputError) {
        let hash = ContentHash(of: bytes)
        let modified = try place(path, bytes, hash: hash)
        list.add(path, WrittenFile(hash: hash, size: bytes.count, modified: modified))
        keptAndWritten.note(path)
        if previous[PathKey(path)] != nil { recordedAgain.add(1) }
    }

    public func reuse(_ paths: [String]) throws(OutputError) -> Bool {
        var found: [(String, WrittenFile)] = []
        found.reserveCapacity(paths.count)
        // A poll's files share its folder: looked up once, each file's stat walks only the
        // rest of its path (a third of the kernel's work for 140,000 files at 10,000 polls).
        let shared = SharedFolder(of: paths, inside: publishedDescriptor)
        defer { shared.close() }
        for path in paths {
            // Stat only: a file with its recorded size and modification time has its recorded bytes.
            guard let old = previous[PathKey(path)], isRecorded(path, old, in: shared) else { return false }
            found.append((path, old))
        }
        recordedAgain.add(found.count)
        for path in paths { keptAndWritten.note(path) }
        if updatesInPlace {
            list.add(contentsOf: found)
            return true
        }
        for (path, old) in found {
            do {
                if let slash = path.lastIndex(of: "/") {
                    try directories.create(String(path[..<slash]), inside: stagingPath)
                }
                guard link(outputPath + "/" + path, stagingPath + "/" + path) == 0 else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            } catch {
                throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot link from the last build: \(error.localizedDescription)")
            }
            list.add(path, old)
        }
        return true
    }

    public func hasLastBuildsPaths(besides later: [String]) -> Bool {
        // Paths are written once each, so as many as the last build's, each one of them,
        // are the same set.
        let sofar = list.count
        return !previous.isEmpty && late.isEmpty && recordedAgain.value == sofar && previous.count == sofar + later.count
            && later.allSatisfy { previous[PathKey($0)] != nil }
    }

    /// Writes or links one file; returns its modification time.
    private func place(_ path: String, _ bytes: [UInt8], hash: ContentHash) throws(OutputError) -> Int {
        // Paths are joined as strings: Foundation's URL handling cost a noticeable share of
        // large builds.
        let target = stagingPath + "/" + path
        do {
            if let old = previous[PathKey(path)], old.hash == hash, old.size == bytes.count {
                let published = outputPath + "/" + path
                if isRecorded(path, old, in: SharedFolder.none) {
                    // In place, an unchanged file is simply left where it is.
                    if updatesInPlace { return old.modified }
                    try makeParent(of: path)
                    if link(published, target) == 0 { return old.modified }
                }
            }
            try makeParent(of: path)
            let written = try fileSystem.writeFile(target, bytes)
            let modified = written != 0 ? written : Self.modificationTime(target)
            if updatesInPlace { staged.add(path, WrittenFile(hash: hash, size: bytes.count, modified: modified)) }
            return modified
        } catch {
            throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot write: \(error.localizedDescription)")
        }
    }

    private func makeParent(of path: String) throws {
        if let slash = path.lastIndex(of: "/") {
            try directories.create(String(path[..<slash]), inside: stagingPath)
        }
    }

    /// Writes a file as `produce` makes it (see StreamedFile). Like `write`, a file identical
    /// to the previous build's is replaced by a link to the published copy.
    @discardableResult
    public func writeStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) -> WrittenFile {
        let result = try streamed(path, produce)
        late.append((path, result))
        keptAndWritten.note(path)
        return result
    }

    public func writePageStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) {
        list.add(path, try streamed(path, produce))
        keptAndWritten.note(path)
    }

    /// Writes a file as `produce` makes it; a file identical to the previous build's is left
    /// in place or linked, as by `write`. Safe from many threads.
    private func streamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) -> WrittenFile {
        let target = stagingPath + "/" + path
        do {
            if let slash = path.lastIndex(of: "/") {
                try directories.create(String(path[..<slash]), inside: stagingPath)
            }
            let file = try ChunkedFile(target)
            var stream = StreamedFile(writingTo: file.write)
            try produce(&stream)
            var result = try stream.finish()
            try file.close()
            var unchanged = false
            let recorded = previous[PathKey(path)]
            if recorded != nil { recordedAgain.add(1) }
            if let old = recorded, old.hash == result.hash, old.size == result.size {
                let published = outputPath + "/" + path
                if isRecorded(path, old, in: SharedFolder.none) {
                    unchanged = true
                    guard unlink(target) == 0, updatesInPlace || link(published, target) == 0 else {
                        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    }
                    result.modified = old.modified
                }
            }
            if !unchanged {
                result.modified = Self.modificationTime(target)
                if updatesInPlace { staged.add(path, result) }
            } else if !updatesInPlace {
                result.modified = Self.modificationTime(target)
            }
            return result
        } catch {
            throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot write: \(error.localizedDescription)")
        }
    }

    package func writtenFiles() throws(OutputError) -> OutputList.SortedEntries {
        do {
            return try list.sorted()
        } catch {
            throw readBackFailure(error)
        }
    }

    public var fileCount: Int { (written?.count ?? 0) + late.count }

    package func changes() throws(OutputError) -> [String] {
        if updatesInPlace, !previous.isEmpty, lastState != nil, pathsOfAnotherVersion.isEmpty {
            return try changesInPlace()
        }
        return try changesFromLists()
    }

    /// The `--changes` lines from the last build's whole list and this one's: for a first
    /// build, a swap after a state of another version, and (in tests) to check `changesInPlace`.
    package func changesFromLists() throws(OutputError) -> [String] {
        var old: [[UInt8]: WrittenFile] = [:]
        // `previous` is empty when the last build's state was missing or unreadable.
        if !previous.isEmpty, let state = lastState {
            do {
                try state.forEachOutput { path, file in old[Array(path.utf8)] = file }
            } catch {
                throw OutputError(message: "\(displayPath(state.url)): cannot read the last build's files: \(error)")
            }
        }
        for path in pathsOfAnotherVersion { old[Array(path.utf8)] = .unknown }
        let list = self.list, late = self.late
        do {
            return try OutputChanges.lines(old: old) { body in try list.forEachSorted(adding: late, body) }
        } catch {
            throw readBackFailure(error)
        }
    }

    /// Writes manifest.json; a rebuild in place makes it from the last build's when it
    /// is still there as recorded (`Manifest.writeSpliced`).
    public func writeManifest(_ manifest: Manifest) throws(OutputError) {
        let list = self.list, late = self.late
        let changes = manifestChanges()
        try writeStreamed(Manifest.path) { file in
            if let changes, try MappedFile.withContents(of: outputPath + "/" + Manifest.path, { last, descriptor in
                try manifest.writeSpliced(last: .mapped(last, descriptor: descriptor), changes: changes, to: &file)
            }) == true {
                spliced.manifest = true
                return
            }
            try manifest.write(outputs: { body in
                try list.forEachSortedRecord(adding: late) { path, file in try body(path, file.hash) }
            }, to: &file)
        }
    }

    /// What manifest.json lists differently from the last build's, in path order: the
    /// files staged to move in. nil when it must be written whole: not a rebuild in place,
    /// a path of the last build's gone (its removal is found by walking both lists), or
    /// the published manifest.json no longer as recorded.
    private func manifestChanges() -> [RecordSplice.Change]? {
        guard updatesInPlace, let recorded = previous[PathKey(Manifest.path)],
              isRecorded(Manifest.path, recorded, in: SharedFolder.none),
              recordedAgain.value + 1 == previous.count else { return nil }
        return spliceChanges(removed: [])
    }

    /// The changes to the last build's lists (`StagedPaths.changes`), when they are few
    /// enough to be worth splicing. A template edit changes 10,000 records of 144,000: a
    /// binary search for each, its pages mapped again and given back (RecordSplice), then
    /// costs more than writing the lists whole.
    static let splicedChangesAtMost = 1024

    func spliceChanges(removed: [String]) -> [RecordSplice.Change]? {
        let changes = staged.changes(removed: removed)
        return splicesAnyChange || changes.count <= min(previous.count / 4, Self.splicedChangesAtMost) ? changes : nil
    }

    /// Kept files join the new site before the old state goes, so a path that is both kept
    /// and written stops the build with the state (the record of what sitegen wrote) still
    /// in place. The state is dropped before the swap: a crash between the swap and saving
    /// the new one must not leave an old fingerprint next to a new site. Without a state
    /// the next build is simply a full one.
    /// Its shares are reused only for files still as the state records them, so without a
    /// state it is not read.
    package func withLastPollCache<T>(_ body: (UnsafeRawBufferPointer) -> T?) -> T? {
        guard lastState != nil else { return nil }
        return MappedFile.withContents(of: BuildState.pollCacheURL(for: output).path, body)
    }

    package var lastBuildFingerprint: String? { lastState?.record.fingerprint }

    package func startPollCache(_ writer: @escaping PollCacheWriter) {
        pollCacheWriting.enter()
        let output = output
        DispatchQueue.global().async { [self] in
            pollCacheWritten = BuildState.writePendingPollCache(for: output, writer)
            pollCacheWriting.leave()
        }
    }

    /// Waits for the poll cache's writer, if one was started.
    private func waitForPollCache() {
        pollCacheWriting.wait()
    }

    package func publish(_ record: BuildRecord, placeChanges: () throws(OutputError) -> Void) throws(OutputError) {
        // Put in place first: the cache names the build that wrote it, and is used only
        // with that build's state (SiteOutput.lastBuildFingerprint), whichever is saved.
        waitForPollCache()
        BuildState.publishPollCache(for: output, written: pollCacheWritten)
        if updatesInPlace, try publishInPlace(record, placeChanges: placeChanges) { return }
        try carryOverKept()
        let list = self.list, late = self.late
        // The new state is saved before the swap under its own name and put in place after
        // it: a build killed in between is followed by one that finds the new site's
        // manifest.json as that state records it, and puts the state in place
        // (`finishInterruptedSwap`). Without it saved, no state may sit beside the new site
        // (an old fingerprint, old files), so the old one goes before the swap.
        let swapPending = BuildState.swapPendingURL(for: output)
        // The build's --changes lines beside it, for the build that would put it in place;
        // written after the state, so lines without a saved state are a swap that happened
        // (`finishInterruptedSwap`).
        let saved = (try? BuildState.save(for: output, record, target: swapPending, outputs: { body in try list.forEachSortedRecord(adding: late, body) })) != nil
            && (journalledChanges.isEmpty || Self.writeAtomically(swapChanges.path, Array(journalledChanges.map { $0 + "\n" }.joined().utf8)))
        if !saved {
            unlink(swapPending.path)
            BuildState.remove(for: output)
        }
        if stopsAroundSwap == .before { return }
        do {
            try commit()
        } catch {
            // The lines first: lines without a state read as a swap that happened.
            unlink(swapChanges.path)
            unlink(swapPending.path)
            throw error
        }
        if stopsAroundSwap == .after { return }
        if replacesUnfinishedUpdate { unlink(journal.path) }
        if !(saved && rename(swapPending.path, BuildState.url(for: output).path) == 0) {
            BuildState.remove(for: output)
        }
        // The list in place before the lines that stand for it go: killed in between, the
        // next build lists these changes again, which uploads a file twice, not never.
        try placeChanges()
        unlink(swapChanges.path)
        // Only now: a build waiting for the lock must find the state of the site it sees.
        unlock()
    }

    /// After a build killed between its swap and putting its saved state in place: the state
    /// goes in place when the published manifest.json is the one it records (the swap
    /// happened), and is dropped otherwise (the site and the state in place are the last build's).
    package func finishInterruptedSwap() {
        let swapPending = BuildState.swapPendingURL(for: output)
        // Either file half written under its temporary name (killed while saving) is dropped.
        defer { for path in [swapChanges.path, swapChanges.path + ".tmp", swapPending.path + ".tmp"] { unlink(path) } }
        guard Self.exists(swapPending.path) else {
            // Swapped and its state put in place, killed before its list was: the lines are
            // written only after the state is saved, and removed before it on a failed swap.
            if let data = FileManager.default.contents(atPath: swapChanges.path) {
                carriedChanges = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            }
            return
        }
        let manifest = outputPath + "/manifest.json"
        if let recorded = BuildState.recorded("manifest.json", inStateAt: swapPending), Self.isRecorded(manifest, recorded) {
            rename(swapPending.path, BuildState.url(for: output).path)
            // Its --changes list was never written: this build lists those changes with its own.
            if let data = FileManager.default.contents(atPath: swapChanges.path) {
                carriedChanges = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            }
        } else {
            unlink(swapPending.path)
        }
    }

    /// The --changes lines of a build that swaps its site in, from before the swap to after it.
    var swapChanges: URL { BuildState.swapPendingURL(for: output).appendingPathExtension("changes") }

    /// Writes `bytes` under a temporary name and renames it to `path`; false if it could not.
    /// Written straight to that name (FileManager.createFile writes to a `.dat.nosync…` file
    /// of its own first, which a build killed then left beside the output for good; the
    /// next build removes `path.tmp`).
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) -> Bool {
        let temporary = path + ".tmp"
        guard (try? Data(bytes).write(to: URL(fileURLWithPath: temporary))) != nil else { return false }
        return rename(temporary, path) == 0
    }

    var list: OutputList {
        guard let written else { preconditionFailure("OutputFolder.open() comes before writing") }
        return written
    }

    func readBackFailure(_ error: Error) -> OutputError {
        OutputError(message: "\(displayPath(output)): cannot read back the list of written files: \(error.localizedDescription)")
    }

    /// Whether the published file is still the one the build state recorded: same size and
    /// modification time, the quick check of rsync and make. One stat, where reading the file
    /// back to compare its bytes cost as much as writing it; a file edited by hand gets a new
    /// modification time and is written anew.
    package static func isRecorded(_ published: String, _ recorded: WrittenFile) -> Bool {
        var info = stat()
        return recorded.modified != 0 && stat(published, &info) == 0 && Int(info.st_size) == recorded.size
            && nanoseconds(info.st_mtim) == recorded.modified
    }

    /// `isRecorded` for a path inside the published folder, looked up from `shared` (the
    /// folder it is in) when that is open, else from the published folder.
    private func isRecorded(_ path: String, _ recorded: WrittenFile, in shared: SharedFolder) -> Bool {
        guard publishedDescriptor >= 0 else { return Self.isRecorded(outputPath + "/" + path, recorded) }
        var info = stat()
        let found = path.withCString { path in
            shared.descriptor >= 0 ? fstatat(shared.descriptor, path + shared.prefixLength, &info, 0) == 0
                                   : fstatat(publishedDescriptor, path, &info, 0) == 0
        }
        return recorded.modified != 0 && found && Int(info.st_size) == recorded.size
            && nanoseconds(info.st_mtim) == recorded.modified
    }

    /// The deepest folder that holds all of a group of paths, opened for lookups only
    /// (`O_PATH`); not open (descriptor -1) when the paths share none or it cannot be opened.
    struct SharedFolder {
        let descriptor: Int32
        /// The length of its path in bytes, with the slash after it; 0 when not open.
        let prefixLength: Int

        init(of paths: [String], inside parent: Int32) {
            var length = Self.sharedPrefixLength(paths)
            var descriptor: Int32 = -1
            if parent >= 0, length > 0, let first = paths.first {
                descriptor = sitegen_open_folder_for_lookup(parent, String(first.utf8.prefix(length - 1))!)
            }
            if descriptor < 0 { length = 0 }
            self.descriptor = descriptor
            prefixLength = length
        }

        /// The length of the paths' longest shared prefix that ends with a slash.
        static func sharedPrefixLength(_ paths: [String]) -> Int {
            guard let first = paths.first else { return 0 }
            let head = Array(first.utf8)
            var length = head.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            for path in paths.dropFirst() where length > 0 {
                var same = 0
                for (a, b) in zip(head.prefix(length), path.utf8) {
                    guard a == b else { break }
                    same += 1
                }
                if same < length {
                    length = head.prefix(same).lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                }
            }
            return length
        }

        /// No folder: paths are looked up from the published folder.
        static let none = SharedFolder(of: [], inside: -1)

        func close() {
            if descriptor >= 0 { Glibc.close(descriptor) }
        }
    }

    /// Nanoseconds since 1970, or 0 when the file cannot be read. Renaming the staging
    /// folder into place later does not change it.
    package static func modificationTime(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? nanoseconds(info.st_mtim) : 0
    }

    /// Swaps the staged site into place and removes the previous one.
    package func commit() throws(OutputError) {
        let fileManager = FileManager.default
        if isMountPoint {
            try swapContents()
        } else if fileManager.fileExists(atPath: output.path) {
            // Atomic exchange: at every instant the output path holds a complete site.
            if sitegen_exchange_paths(staging.path, output.path) == 0 {
                discard(staging)   // now the previous site
                return
            }
            // No renameat2 here (another OS or file system): the brief gap of two renames.
            let previous = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).sitegen-previous")
            do {
                if fileManager.fileExists(atPath: previous.path) { try fileManager.removeItem(at: previous) }
                try fileManager.moveItem(at: output, to: previous)
                try fileManager.moveItem(at: staging, to: output)
                discard(previous)
            } catch {
                throw OutputError(message: "\(displayPath(output)): cannot swap in the new site: \(error.localizedDescription)")
            }
        } else {
            do {
                try fileManager.moveItem(at: staging, to: output)
            } catch {
                throw OutputError(message: "\(displayPath(output)): cannot move the new site into place: \(error.localizedDescription)")
            }
        }
    }

    /// Drops the staging folder after a failure; the output is untouched. Once a journal
    /// names its files (a rebuild in place that failed while moving them in), the folder
    /// stays for the next build to finish the moves.
    public func abandon() {
        waitForPollCache()
        unlink(BuildState.pendingPollCacheURL(for: output).path)
        if FileManager.default.fileExists(atPath: staging.path), !Self.exists(journal.path) {
            rescueKept(from: stagingPath)
            discard(staging)
        }
        // A refused folder, or a first build that failed, leaves nothing of sitegen's beside
        // the output: not its lock file either (`open` locks the path anew if it goes).
        if lockDescriptor >= 0, !Self.exists(BuildState.url(for: output).path), !Self.exists(journal.path),
           !Self.exists(BuildState.swapPendingURL(for: output).path), !Self.exists(staging.path) {
            unlink(lockFile.path)
        }
        unlock()
    }

    private var trashPrefix: String { ".\(output.lastPathComponent).sitegen-trash-" }

    /// Names sitegen's own work folders start with; inside a mount-point output they are
    /// not part of the site.
    package var workPrefix: String { ".\(output.lastPathComponent).sitegen-" }

    /// Removes a folder sitegen no longer needs: the replaced site, or a staging folder.
    ///
    /// Deleting a site takes about as long as writing it (pretty URLs give every page a
    /// folder: half a minute for 10,000 polls on this machine's disk), and nothing waits
    /// for it. With `removesInBackground` (the command line) the folder is renamed aside,
    /// which is instant, and a detached `rm -rf` removes it after the build has returned;
    /// the next build removes whatever such a removal left.
    /// Removed in the background when the build asks (`removesInBackground`), unless `now`;
    /// a folder inside the published one (a mount point's staging folder, its replaced site)
    /// always before this returns: the deploy step that follows the build would upload it.
    package func discard(_ folder: URL, now: Bool = false) {
        // Inside the published folder (a mount point's staging folder): always now.
        let inside = folder.standardizedFileURL.path.hasPrefix(output.standardizedFileURL.path + "/")
        guard removesInBackground && !now && !inside else {
            try? FileManager.default.removeItem(at: folder)
            return
        }
        var trash = folder
        if !folder.lastPathComponent.hasPrefix(trashPrefix) {
            // Renamed first, so the name it had (the staging folder's) is free at once.
            trash = folder.deletingLastPathComponent().appendingPathComponent(trashPrefix + UUID().uuidString)
            guard rename(folder.path, trash.path) == 0 else {
                try? FileManager.default.removeItem(at: folder)
                return
            }
        }
        if sitegen_remove_in_background(trash.path) != 0 {
            try? FileManager.default.removeItem(at: trash)
        }
    }

    func unlock() {
        if publishedDescriptor >= 0 {
            close(publishedDescriptor)
            publishedDescriptor = -1
        }
        if lockDescriptor >= 0 {
            flock(lockDescriptor, LOCK_UN)
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }
}

/// open(2) for the lock file, out of reach of OutputFolder's own `open()`.
private func openLockFile(_ path: String) -> Int32 {
    open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
}
