import Foundation
import SitegenCore

/// What `stat` says of a file — size, modification and change times (nanoseconds), inode —
/// or nil fields when it cannot be read. Any write, rename over it, `chmod` or `touch`
/// changes the change time, which no one can set back.
package struct FileStamp: Equatable, Sendable {
    package let size: Int?
    package let modified: Int?
    package let changed: Int?
    package let inode: UInt64?

    package init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            size = Int(info.st_size)
            modified = nanoseconds(info.st_mtim)
            changed = nanoseconds(info.st_ctim)
            inode = UInt64(info.st_ino)
        } else {
            size = nil
            modified = nil
            changed = nil
            inode = nil
        }
    }

    package init(size: Int?, modified: Int?, changed: Int?, inode: UInt64?) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
    }

    /// The file was last changed at least a second before `now`: a later write gets a later
    /// change time, so an equal stamp then means equal bytes. A file changed within the
    /// clock's last tick could change again with the same stamp (git's "racily clean").
    package func isSettled(at now: Int) -> Bool {
        guard let changed, let modified, size != nil else { return false }
        return changed <= now - 1_000_000_000 && modified <= now - 1_000_000_000
    }
}

/// An input file's SHA-256 with the stamp it had when hashed: a rebuild takes the hash of
/// an input whose stamp is unchanged instead of reading all of it again (BuildRecord.inputHashes).
package struct HashedInput: Equatable, Sendable {
    /// The standardized path.
    package let path: String
    package let stamp: FileStamp
    package let sha256: String

    package init(path: String, stamp: FileStamp, sha256: String) {
        self.path = path
        self.stamp = stamp
        self.sha256 = sha256
    }
}
