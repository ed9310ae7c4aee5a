import Foundation

/// Folders already made in the staging folder, so each is created once with mkdir(2)
/// rather than asked of FileManager for every file.
package final class CreatedDirectories: @unchecked Sendable {
    private let lock = NSLock()
    private var made = Set<String>()

    /// Makes `folder` (a relative path such as "polls/ABC/trips/1") and its parents below `root`.
    package func create(_ folder: String, inside root: String) throws {
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
