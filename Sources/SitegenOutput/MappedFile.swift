import Foundation

/// A file's bytes mapped read-only for the length of one call: the poll cache (16 MB at
/// 10,000 polls) is read whole, but neither copied into the heap nor held after it is
/// decoded, so it adds nothing to the build's peak once decoding is done.
enum MappedFile {
    /// `body`'s result for the contents of `path`; nil when the file cannot be opened,
    /// is not a regular file or cannot be mapped.
    static func withContents<T>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> T?) rethrows -> T? {
        try withContents(of: path) { bytes, _ in try body(bytes) }
    }

    /// The same, with the open file, to read parts of it without the mapping (`pread`).
    static func withContents<T>(of path: String, _ body: (UnsafeRawBufferPointer, Int32) throws -> T?) rethrows -> T? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0), fd) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        defer { munmap(base, size) }
        // Read front to back once: ask for the pages ahead of the decoder.
        _ = madvise(base, size, MADV_SEQUENTIAL)
        return try body(UnsafeRawBufferPointer(start: base, count: size), fd)
    }
}
