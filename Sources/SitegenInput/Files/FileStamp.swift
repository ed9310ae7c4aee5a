import Foundation
import SitegenCore

/// A file's size and modification time (nanoseconds), or nil fields when it cannot be read.
package struct FileStamp: Equatable, Sendable {
    package let size: Int?
    package let modified: Int?

    package init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            size = Int(info.st_size)
            modified = nanoseconds(info.st_mtim)
        } else {
            size = nil
            modified = nil
        }
    }
}
