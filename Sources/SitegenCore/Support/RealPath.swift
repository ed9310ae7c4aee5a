import Foundation

/// The absolute path with every symbolic link resolved (realpath(3)), or nil when nothing
/// is there: the output folder, input listings and the preview server all compare real paths.
package func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
