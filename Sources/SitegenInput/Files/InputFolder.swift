import Foundation
import SitegenCore

/// The files sitegen may read from one of its folders (exports, templates, assets, pages).
///
/// Links are followed, but only to files and folders inside the folder itself once every link
/// is resolved: `Templates/assets/x.css -> /etc/passwd` is an error naming the link, never a
/// published password file. The folder itself may be a link (a shared `Data/votes`).
/// Hidden files and folders are passed over; FIFOs, sockets and devices are skipped with a
/// warning (reading a FIFO would block the build).
public struct InputFolder {
    /// Files as found in the folder (the link's path when a file is reached through a link),
    /// sorted by path.
    public var files: [URL] = []
    /// Links out of the folder (errors) and special files (warnings).
    public var problems: [Diagnostic] = []

    public var hasErrors: Bool { problems.contains { $0.severity == .error } }

    /// Lists `folder`; `recursive: false` lists only its own entries. `matching` sees each name.
    public static func list(_ folder: URL, recursive: Bool = true, matching: (String) -> Bool = { _ in true }) -> InputFolder {
        var listing = InputFolder()
        let shown = folder.standardizedFileURL
        guard let root = realPath(shown.path) else { return listing }
        var visited: Set<String> = [root]
        listing.walk(shown.path, real: root, root: root, recursive: recursive, matching: matching, visited: &visited)
        listing.files.sort { $0.path < $1.path }
        return listing
    }

    private mutating func walk(_ path: String, real: String, root: String, recursive: Bool,
                               matching: (String) -> Bool, visited: inout Set<String>) {
        guard let names = Self.names(in: real) else {
            // Taken as empty, a folder without read permission published "Nobody has voted yet".
            problems.append(.unreadable(displayPath(URL(fileURLWithPath: path)), "cannot list this folder: \(Diagnostic.systemReason)"))
            return
        }
        // Names Swift holds equal (canonically equivalent) but the disk holds apart: "café"
        // with é, and with e and a combining accent. Keyed by such names, two vote files'
        // ballots were taken as one file's, and a rebuild published wrong counts.
        var seen: [String: String] = [:]
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where !name.hasPrefix(".") {
            let entry = path + "/" + name
            let shown = displayPath(URL(fileURLWithPath: entry))
            // Spelled out where printed they would not show as they are.
            func spelled(_ name: String) -> String {
                name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
            }
            // A line break in a name would split its line in a diagnostic and in the
            // `--changes` list ("A assets/nl" and "x.css").
            if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems.append(Diagnostic(.error, file: displayPath(URL(fileURLWithPath: path)), message: "a name with a control character (\(spelled(name))) cannot be listed or published as it is: rename it"))
                continue
            }
            if let other = seen[name], !other.utf8.elementsEqual(name.utf8) {
                problems.append(Diagnostic(.error, file: shown, message: "this name (\(spelled(name))) and \"\(other)\" (\(spelled(other))) differ only in how an accent is written (Unicode normalization); sitegen cannot tell them apart: rename one"))
                continue
            }
            seen[name] = name
            guard let resolved = realPath(real + "/" + name) else {
                // Only a missing target or a loop is "nothing"; a folder that cannot be
                // searched (mode 444) is a failure to read.
                if errno == ENOENT || errno == ELOOP || errno == ENOTDIR {
                    problems.append(Diagnostic(.warning, file: shown, message: "skipped: a link to nothing"))
                } else {
                    problems.append(.unreadable(shown, "cannot read: \(Diagnostic.systemReason)"))
                }
                continue
            }
            guard resolved == root || resolved.hasPrefix(root + "/") else {
                problems.append(Diagnostic(.error, file: shown, message: "a link out of its folder: sitegen reads only files inside \(displayPath(URL(fileURLWithPath: root))); copy the file in instead"))
                continue
            }
            var info = stat()
            guard stat(resolved, &info) == 0 else {
                problems.append(.unreadable(shown, "cannot read: \(Diagnostic.systemReason)"))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // A link back up the tree would otherwise be walked for ever.
                if recursive, visited.insert(resolved).inserted {
                    walk(entry, real: resolved, root: root, recursive: true, matching: matching, visited: &visited)
                }
            case S_IFREG:
                if matching(name) { files.append(URL(fileURLWithPath: entry)) }
            default:
                if matching(name) {
                    problems.append(Diagnostic(.warning, file: shown, message: "skipped: not a regular file (\(Self.kind(info.st_mode)))"))
                }
            }
        }
    }

    /// A folder's entries, or nil with `errno` set when it cannot be read.
    private static func names(in folder: String) -> [String]? {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) { return names }
        // Foundation's error words it vaguely; the system's reason comes from opening it.
        if let directory = opendir(folder) { closedir(directory); errno = EIO }
        return nil
    }

    /// The size of a regular file (links followed), or nil for anything else: reading a FIFO
    /// would block, and a size read first bounds what a single named file may cost.
    public static func regularFileSize(_ url: URL) -> Int? {
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }
}
