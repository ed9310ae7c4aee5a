import Foundation
import SitegenCore

/// What in the output folder is sitegen's to replace, and what it carries over.
///
/// A build replaces the whole output folder, so every file in it must be one the last build
/// wrote (its build state lists them) or one the user asked to keep (`keep:` in site.yml;
/// `.git`, `CNAME` and `.nojekyll` by default). Anything else stops the build before a
/// byte is written: a web root or a folder of the user's own is never emptied silently.
extension OutputFolder {
    /// The output path with symbolic links resolved: a link to a web root means that web root,
    /// written in place (the link stays). A path that does not exist yet resolves its parent.
    public static func resolvingLinks(_ url: URL) -> URL {
        let standardized = url.standardizedFileURL
        if let real = realPath(standardized.path) { return URL(fileURLWithPath: real) }
        guard let parent = realPath(standardized.deletingLastPathComponent().path) else { return standardized }
        return URL(fileURLWithPath: parent).appendingPathComponent(standardized.lastPathComponent)
    }

    /// Refuses (naming them) files in the output folder that the last build did not write
    /// and that are not kept. `recorded` is the last build's file list; nil when there is
    /// none, which makes every file not kept a stranger (a manifest.json that says "sitegen"
    /// proves nothing about the folder around it).
    package func checkOwnership(recorded: RecordedFiles?) throws(OutputError) {
        var strangers: [String] = []
        var count = 0
        // In a mount-point output, the staging folder and replaced sites are sitegen's own.
        // Counted up to a bound: `--output ~` by mistake must be refused at once, not after
        // walking every file of a home folder.
        Self.walkFiles(below: output.path, skipping: Set(keep), skippingTopLevelPrefix: workPrefix) { path in
            guard recorded?[PathKey(path)] == nil else { return true }
            count += 1
            if strangers.count < OutputError.namedStrangers { strangers.append(path) }
            return count < OutputError.countedStrangersAtMost
        }
        guard count > 0 else { return }
        throw .strangers(in: displayPath(output), named: strangers, count: count,
                         missingRecord: recorded == nil ? displayPath(BuildState.url(for: output)) : nil,
                         unreadable: Self.exists(BuildState.url(for: output).path),
                         builtBySitegen: recorded == nil && Self.isSitegenOutput(output))
    }

    /// Calls `body` with the path (relative to `root`) of every entry that is not a folder,
    /// without following links, until it returns false (then false is returned); folders
    /// and files named in `skipping` are passed over whole.
    @discardableResult
    package static func walkFiles(below root: String, prefix: String = "", skipping: Set<String>, skippingTopLevelPrefix: String? = nil,
                          _ body: (String) -> Bool) -> Bool {
        guard let directory = opendir(root + (prefix.isEmpty ? "" : "/" + prefix)) else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            let path = prefix.isEmpty ? name : prefix + "/" + name
            if skipping.contains(path) { continue }
            if prefix.isEmpty, let skippingTopLevelPrefix, name.hasPrefix(skippingTopLevelPrefix) { continue }
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isFolder = lstat(root + "/" + path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            if isFolder {
                guard walkFiles(below: root, prefix: path, skipping: skipping, body) else { return false }
            } else {
                guard body(path) else { return false }
            }
        }
        return true
    }

    /// Moves the kept entries of the published folder into the staged site, just before the
    /// swap: they are the same files (renamed, never copied), and the swap publishes them
    /// with the new site. A kept path that sitegen also writes is an error.
    package func carryOverKept() throws(OutputError) {
        for path in keep where Self.exists(outputPath + "/" + path) {
            let target = stagingPath + "/" + path
            guard !Self.exists(target) else {
                throw .keptAndWritten(displayPath(output.appendingPathComponent(path)))
            }
            do {
                if let slash = path.lastIndex(of: "/") {
                    try FileManager.default.createDirectory(atPath: stagingPath + "/" + path[..<slash], withIntermediateDirectories: true)
                }
            } catch {
                throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot keep: \(error.localizedDescription)")
            }
            guard rename(outputPath + "/" + path, target) == 0 else {
                throw OutputError(message: "\(displayPath(output.appendingPathComponent(path))): cannot keep: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// After a build killed between `carryOverKept` and the swap, the kept entries sit in the
    /// leftover staging folder: they go back before that folder is removed.
    package func rescueKept(from leftover: String) {
        for path in keep where Self.exists(leftover + "/" + path) && !Self.exists(outputPath + "/" + path) {
            if let slash = path.lastIndex(of: "/") {
                try? FileManager.default.createDirectory(atPath: outputPath + "/" + path[..<slash], withIntermediateDirectories: true)
            }
            rename(leftover + "/" + path, outputPath + "/" + path)
        }
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
