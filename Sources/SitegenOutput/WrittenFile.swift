import SitegenCore
/// A file of the site as a build wrote it: what manifest.json, the build state and the
/// linking of unchanged files need to know of it.
public struct WrittenFile: Sendable, Equatable {
    public let hash: ContentHash
    public let size: Int
    /// Nanoseconds since 1970, read as the file is written; 0 when unknown.
    public var modified: Int = 0

    public var sha256: String { hash.hex }
}
