import CFileSwap
import Foundation
import SitegenCore

/// An output folder that is a mount point (a web root on its own volume, a bind mount in a
/// container) cannot be renamed, so the staged site cannot be swapped in whole. Its
/// top-level entries are swapped instead, each atomically.
extension OutputFolder {
    /// A folder whose file system differs from its parent's, or the root of one. A bind
    /// mount of a folder of the same file system has its parent's device number, so the
    /// kernel is asked first (statx): such an output failed every build at the swap, with
    /// "The operation could not be completed".
    package static func isMountPoint(_ path: String) -> Bool {
        var folder = stat(), parent = stat()
        guard stat(path, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR else { return false }
        if sitegen_is_mount_root(path) == 1 { return true }
        guard stat(path + "/..", &parent) == 0 else { return false }
        return folder.st_dev != parent.st_dev || folder.st_ino == parent.st_ino
    }

    /// Swaps each entry of the staged site with the published one of the same name
    /// (renameat2 exchange, or a plain rename where there is none), then moves published
    /// entries the new site lacks into the staging folder, which now holds the old site and
    /// is discarded. Every entry is whole at every instant; between the first and the last
    /// exchange the site mixes old and new entries.
    package func swapContents() throws(OutputError) {
        let fileManager = FileManager.default
        do {
            let staged = try fileManager.contentsOfDirectory(atPath: stagingPath)
            for name in staged.sorted() {
                let published = outputPath + "/" + name, new = stagingPath + "/" + name
                if Self.exists(published) {
                    guard sitegen_exchange_paths(new, published) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                } else {
                    guard rename(new, published) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                }
            }
            let newNames = Set(staged)
            for name in try fileManager.contentsOfDirectory(atPath: outputPath)
            where !newNames.contains(name) && !name.hasPrefix(workPrefix) && !Self.exists(stagingPath + "/" + name) {
                guard rename(outputPath + "/" + name, stagingPath + "/" + name) == 0 else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
        } catch {
            throw OutputError(message: "\(displayPath(output)): cannot swap in the new site's files: \(error.localizedDescription)")
        }
        // The replaced site is inside the published folder: gone before the build ends, or
        // `sitegen build && rsync Output/ …` uploaded it (`discard` sees it is inside).
        discard(staging)
    }
}
