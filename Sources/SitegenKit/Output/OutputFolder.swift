import CFileSwap
import Foundation
import SitegenCore

/// An I/O failure while writing the site (exit status 3).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// File writing as a value, so a test can make the disk fail at the Nth file.
public struct OutputFileSystem: Sendable {
    /// Writes bytes to a file path; returns its modification time in nanoseconds since 1970,
    /// or 0 when unknown (it is then read from the file).
    public var writeFile: @Sendable (String, [UInt8]) throws -> Int

    public init(writeFile: @escaping @Sendable (String, [UInt8]) throws -> Int) {
        self.writeFile = writeFile
    }

    /// Plain open/write/close: Foundation's Data.write costs a quarter of a large build in
    /// URL and attribute handling. No fsync: the atomic swap, not durability after a power
    /// cut, is what keeps the published site whole.
    public static let disk = OutputFileSystem { path, bytes in
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try writeFully(descriptor, bytes)
        var info = stat()
        return fstat(descriptor, &info) == 0 ? BuildState.nanoseconds(info.st_mtim) : 0
    }
}

/// Writes all of `bytes` to an open file, however many write(2) calls it takes.
func writeFully(_ descriptor: Int32, _ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            written += result
        }
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

/// A file written as it is produced: what is appended to `bytes` is hashed and written out
/// each time a megabyte has gathered, so a file of tens of megabytes (manifest.json, the
/// sitemap of a large site) never sits in memory whole.
public struct StreamedFile: ByteSink {
    public var bytes: [UInt8] = []
    fileprivate let file: ChunkedFile
    fileprivate var hasher = ContentHasher()
    fileprivate var size = 0

    fileprivate init(_ file: ChunkedFile) {
        self.file = file
        bytes.reserveCapacity(1 << 20 + 64 << 10)
    }

    /// Writes out what has gathered once it is a megabyte or more.
    public mutating func flushIfFull() throws {
        if bytes.count >= 1 << 20 { try flush() }
    }

    fileprivate mutating func flush() throws {
        hasher.update(bytes)
        size += bytes.count
        try file.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

/// The published output folder and its staging folder beside it.
///
/// A build writes everything into the staging folder and swaps it in only when every file
/// was written, so a failed or killed build leaves the previous site exactly as it was.
/// A lock file beside the output keeps two builds from interleaving.
public final class OutputFolder: @unchecked Sendable {
    public let output: URL
    public let staging: URL
    let stagingPath: String
    let outputPath: String
    /// Paths sitegen did not write that move from the published site to the next (`keep:`).
    public var keep: [String] = []
    private let lockFile: URL
    private var lockDescriptor: Int32 = -1
    private let fileSystem: OutputFileSystem
    /// The previous build's files, for linking unchanged ones instead of writing them.
    private var previous: [DigestKey: BuildState.OutputFile] = [:]
    private let directories = CreatedDirectories()
    /// Replaced and abandoned sites are removed by a detached process (see `discard`).
    private let removesInBackground: Bool

    /// The output folder is a mount point: it cannot be renamed, so the new site is staged
    /// inside it and swapped in entry by entry (`swapContents`).
    let isMountPoint: Bool
    /// Where the staging folder and replaced sites live: beside the output, or inside it
    /// when it is a mount point (a rename cannot cross file systems).
    let workFolder: URL

    public init(output: URL, fileSystem: OutputFileSystem = .disk, removesInBackground: Bool = false) {
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
        for folder in [siteFolder] + protected {
            let path = Self.resolvingLinks(folder).path
            if path == outputPath || path.hasPrefix(outputPath + "/") {
                throw OutputError(message: "\(displayPath(output)): refusing to use this output folder: it is or contains \(displayPath(folder)), which sitegen reads")
            }
        }
        for folder in protected where outputPath.hasPrefix(Self.resolvingLinks(folder).path + "/") {
            throw OutputError(message: "\(displayPath(output)): refusing to use this output folder: it is inside \(displayPath(folder)), which sitegen reads")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: outputPath, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw OutputError(message: "\(displayPath(output)): the output path exists and is not a folder")
        }
    }

    static func isSitegenOutput(_ folder: URL) -> Bool {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              let text = String(data: data.prefix(4096), encoding: .utf8) else { return false }
        return text.contains("\"generator\": \"sitegen")
    }

    /// The previous build's files (BuildState), set before the first write.
    func usePrevious(_ files: [DigestKey: BuildState.OutputFile]) {
        previous = files
    }

    /// Takes the lock and clears a staging folder left by a killed build.
    public func prepare() throws(OutputError) {
        let parent = output.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputError(message: "\(displayPath(parent)): cannot create folder: \(error.localizedDescription)")
        }
        lockDescriptor = open(lockFile.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lockDescriptor >= 0 else {
            throw OutputError(message: "\(displayPath(lockFile)): cannot create lock file: \(String(cString: strerror(errno)))")
        }
        // Waits for another build of the same output to finish rather than interleaving.
        guard flock(lockDescriptor, LOCK_EX) == 0 else {
            throw OutputError(message: "\(displayPath(lockFile)): cannot lock: \(String(cString: strerror(errno)))")
        }
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
    }

    /// Writes one file into the staging folder. `path` was checked by `SafePath`.
    ///
    /// A file identical to the previous build's is hard-linked from the published folder
    /// instead: it keeps its bytes, inode and modification time, so a sync to a host (rsync,
    /// S3) sees it unchanged. Identical means the new bytes have the hash the build state
    /// recorded, and the published file still has the recorded size and modification time
    /// (`isRecorded`).
    /// Returns the file's modification time (nanoseconds since 1970), which the build state
    /// records so the next build can tell whether the published file was touched.
    @discardableResult
    public func write(_ path: String, _ bytes: [UInt8], hash: ContentHash? = nil) throws(OutputError) -> Int {
        // Paths are joined as strings: Foundation's URL handling cost a noticeable share of
        // large builds.
        let target = stagingPath + "/" + path
        do {
            if let slash = path.lastIndex(of: "/") {
                try directories.create(String(path[..<slash]), inside: stagingPath)
            }
            if let hash, let old = previous[DigestKey(path)], old.hash == hash, old.size == bytes.count {
                let published = outputPath + "/" + path
                if Self.isRecorded(published, old), link(published, target) == 0 {
                    return old.modified
                }
            }
            let modified = try fileSystem.writeFile(target, bytes)
            return modified != 0 ? modified : Self.modificationTime(target)
        } catch {
            throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot write: \(error.localizedDescription)")
        }
    }

    /// Writes a file as `produce` makes it (see StreamedFile). Like `write`, a file identical
    /// to the previous build's is replaced by a link to the published copy.
    public func writeStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) -> BuildState.OutputFile {
        let target = stagingPath + "/" + path
        do {
            if let slash = path.lastIndex(of: "/") {
                try directories.create(String(path[..<slash]), inside: stagingPath)
            }
            var stream = StreamedFile(try ChunkedFile(target))
            try produce(&stream)
            try stream.flush()
            try stream.file.close()
            let hash = stream.hasher.finalize()
            if let old = previous[DigestKey(path)], old.hash == hash, old.size == stream.size {
                let published = outputPath + "/" + path
                if Self.isRecorded(published, old) {
                    guard unlink(target) == 0, link(published, target) == 0 else {
                        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    }
                }
            }
            return BuildState.OutputFile(hash: hash, size: stream.size, modified: Self.modificationTime(target))
        } catch {
            throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot write: \(error.localizedDescription)")
        }
    }

    /// Whether the published file is still the one the build state recorded: same size and
    /// modification time, the quick check of rsync and make. One stat, where reading the file
    /// back to compare its bytes cost as much as writing it; a file edited by hand gets a new
    /// modification time and is written anew.
    static func isRecorded(_ published: String, _ recorded: BuildState.OutputFile) -> Bool {
        var info = stat()
        return recorded.modified != 0 && stat(published, &info) == 0 && Int(info.st_size) == recorded.size
            && BuildState.nanoseconds(info.st_mtim) == recorded.modified
    }

    /// Nanoseconds since 1970, or 0 when the file cannot be read. Renaming the staging
    /// folder into place later does not change it.
    static func modificationTime(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? BuildState.nanoseconds(info.st_mtim) : 0
    }

    /// Swaps the staged site into place and removes the previous one.
    public func commit() throws(OutputError) {
        defer { unlock() }
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

    /// Drops the staging folder after a failure; the output is untouched.
    public func abandon() {
        if FileManager.default.fileExists(atPath: staging.path) {
            rescueKept(from: stagingPath)
            discard(staging)
        }
        unlock()
    }

    private var trashPrefix: String { ".\(output.lastPathComponent).sitegen-trash-" }

    /// Names sitegen's own work folders start with; inside a mount-point output they are
    /// not part of the site.
    var workPrefix: String { ".\(output.lastPathComponent).sitegen-" }

    /// Removes a folder sitegen no longer needs: the replaced site, or a staging folder.
    ///
    /// Deleting a site takes about as long as writing it (pretty URLs give every page a
    /// folder: half a minute for 10,000 polls on this machine's disk), and nothing waits
    /// for it. With `removesInBackground` (the command line) the folder is renamed aside,
    /// which is instant, and a detached `rm -rf` removes it after the build has returned;
    /// the next build removes whatever such a removal left.
    func discard(_ folder: URL) {
        guard removesInBackground else {
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

    private func unlock() {
        if lockDescriptor >= 0 {
            flock(lockDescriptor, LOCK_UN)
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }
}

/// Folders already made in the staging folder, so each is created once with mkdir(2)
/// rather than asked of FileManager for every file.
final class CreatedDirectories: @unchecked Sendable {
    private let lock = NSLock()
    private var made = Set<String>()

    /// Makes `folder` (a relative path such as "polls/ABC/trips/1") and its parents below `root`.
    func create(_ folder: String, inside root: String) throws {
        if folder.isEmpty || lock.withLock({ made.contains(folder) }) { return }
        if let slash = folder.lastIndex(of: "/") {
            try create(String(folder[..<slash]), inside: root)
        }
        let path = root + "/" + folder
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        lock.withLock {
            // Files arrive folder by folder, so recent folders are what matter: forgetting
            // the rest keeps memory flat (a forgotten folder costs one more mkdir, EEXIST).
            if made.count >= 4096 { made.removeAll(keepingCapacity: true) }
            made.insert(folder)
        }
    }
}
