import Foundation

/// A file time as nanoseconds since 1970: how the build state and FileStamp compare them.
package func nanoseconds(_ time: timespec) -> Int {
    Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
}
