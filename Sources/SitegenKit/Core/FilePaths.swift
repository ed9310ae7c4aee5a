import Foundation

/// `path` with every symbolic link resolved, or nil when it does not exist.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// A file time as nanoseconds since 1970: how the build state and FileStamp compare them.
func nanoseconds(_ time: timespec) -> Int {
    Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
}
