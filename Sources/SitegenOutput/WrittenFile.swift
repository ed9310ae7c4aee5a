import SitegenCore
/// A file of the site as a build wrote it: what manifest.json, the build state and the
/// linking of unchanged files need to know of it.
public struct WrittenFile: Sendable, Equatable {
    public let hash: ContentHash
    public let size: Int
    /// Nanoseconds since 1970, read as the file is written; 0 when unknown.
    public var modified: Int = 0

    public var sha256: String { hash.hex }

    /// A file known by its path only (listed by another version's build state): never
    /// linked (`OutputFolder.isRecorded` needs a modification time) and always changed
    /// (no file has this size).
    package static let unknown = WrittenFile(hash: ContentHash(of: []), size: -1, modified: 0)
}
