import SitegenCore
/// A file written as it is produced: what is appended to `bytes` is hashed and passed on
/// each time a megabyte has gathered, so a file of tens of megabytes (manifest.json, the
/// sitemap of a large site) never sits in memory whole.
public struct StreamedFile: ByteSink {
    public var bytes: [UInt8] = []
    /// Where full chunks go: a file on disk (OutputFolder) or memory (MemoryOutput).
    private let sink: ([UInt8]) throws -> Void
    private var hasher = ContentHasher()
    private var size = 0

    package init(writingTo sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        bytes.reserveCapacity(1 << 20 + 64 << 10)
    }

    /// Writes out what has gathered once it is a megabyte or more.
    public mutating func flushIfFull() throws {
        if bytes.count >= 1 << 20 { try flush() }
    }

    private mutating func flush() throws {
        hasher.update(bytes)
        size += bytes.count
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes out the rest; the whole file's hash and size (its modification time is the
    /// writer's to add).
    package mutating func finish() throws -> WrittenFile {
        try flush()
        return WrittenFile(hash: hasher.finalize(), size: size)
    }
}
