import SitegenInput

/// The published site, and the one place that changes it.
///
/// A build goes through it in this order:
/// 1. `open` before any input is read (a concurrent build of the same site waits);
/// 2. `lastBuild(matching:)`: the last build's record when nothing changed since (the build
///    ends there, writing nothing), else the site is made ready for new files;
/// 3. `write` and `writeStreamed` for every file of the new site, which is not yet visible;
/// 4. `writeManifest`, last, listing every file written;
/// 5. `publish`, which puts the new site in place of the old one whole, or `abandon`, after
///    which the published site is exactly as it was.
///
/// OutputFolder keeps the site in a folder on disk; MemoryOutput keeps it in memory, so a
/// test can run the pipeline without writing a file.
package protocol SiteOutput: AnyObject, Sendable {
    /// Takes the site for this build.
    func open() throws(OutputError)

    /// The last build's inputs with their hashes and stamps (BuildRecord.inputHashes), once
    /// `open` has run; empty when there is no usable record.
    var lastInputHashes: [HashedInput] { get }

    /// The record of the last build when it had this input fingerprint and its files are
    /// all still as it wrote them: nothing needs writing, and the site is released.
    /// Otherwise nil, once the site holds nothing sitegen may not replace.
    func lastBuild(matching fingerprint: String) throws(OutputError) -> BuildRecord?

    /// Waits until the last build's files are known, which a rebuild may still be reading
    /// when `lastBuild(matching:)` returns; called once before the first file is written
    /// or reused. Throws what `lastBuild(matching:)` would have thrown had it read them.
    func awaitLastBuildsFiles() throws(OutputError)

    /// Writes one file of the new site (`path` was checked by SafePath). Safe to call from
    /// many threads. A file identical to the last build's keeps its modification time.
    func write(_ path: String, _ bytes: [UInt8]) throws(OutputError)

    /// The last build's poll keys (BuildRecord.pollKeys), once `lastBuild(matching:)` has
    /// read its record and returned nil; empty when there is no usable record.
    var lastPollKeys: Set<String> { get }

    /// How many files the last build recorded (0 without a usable record), once
    /// `lastBuild(matching:)` has read them: about as many as this build will plan.
    var lastFileCount: Int { get }

    /// Calls `body` with what the last build kept for reading only the poll files that
    /// changed (SitegenKit's PollFileCache), once the output is open (a rebuild decodes it
    /// while `lastBuild(matching:)` reads the last build's files); nil when there is none.
    /// The bytes are only lent: on disk the file is mapped, not copied, for the call.
    func withLastPollCache<T>(_ body: (UnsafeRawBufferPointer) -> T?) -> T?

    /// Puts the last build's files at `paths` into the new site as they are (same bytes,
    /// same modification time, nothing read) and returns true; or does nothing and returns
    /// false when any of them is not recorded or no longer as recorded. Safe from many threads.
    func reuse(_ paths: [String]) throws(OutputError) -> Bool

    /// Whether the files written or kept so far are exactly the last build's files but for
    /// `later`, which the last build wrote too: the same paths as the last build's. The
    /// sitemap, a function of the paths alone, is then the last build's.
    func hasLastBuildsPaths(besides later: [String]) -> Bool

    /// Writes a file as `produce` makes it, a megabyte at a time (the sitemap).
    @discardableResult
    func writeStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError) -> WrittenFile

    /// Writes a page as `produce` makes it, a megabyte at a time, among the site's other
    /// files (as `write` does, not after them as `writeStreamed`): a page too large to hold
    /// whole, the home page of a large site. Safe from many threads.
    func writePageStreamed(_ path: String, _ produce: (inout StreamedFile) throws -> Void) throws(OutputError)

    /// The files `write` has written so far, in path order (the sitemap lists them).
    func writtenFiles() throws(OutputError) -> OutputList.SortedEntries

    /// How many files the new site has so far.
    var fileCount: Int { get }

    /// Writes manifest.json, listing every file written before it.
    func writeManifest(_ manifest: Manifest) throws(OutputError)

    /// How the new site differs from the last build's (OutputChanges); called after
    /// `writeManifest`, before `publish`.
    func changes() throws(OutputError) -> [String]

    /// The `--changes` lines of a rebuild that was killed after it began to publish and that
    /// `open` finished, for this build to list with its own (OutputChanges.merged): that
    /// build never wrote its list, and this one would otherwise list nothing for it.
    var carriedChanges: [String] { get }

    /// The `--changes` lines of this build, set before `publish`: kept with what a killed
    /// publish leaves for the next build to finish (`carriedChanges`).
    func noteChanges(_ lines: [String])

    /// Starts writing what the next build reads instead of unchanged poll files (SitegenKit's
    /// PollFileCache), in the background while the site is rendered; `publish` puts it
    /// beside the build state, `abandon` drops it. A build that starts none leaves none.
    func startPollCache(_ writer: @escaping PollCacheWriter)

    /// The fingerprint of the last build's record, once `lastBuild(matching:)` has read it
    /// and returned nil: a poll cache is used only with the state of the build that wrote it.
    var lastBuildFingerprint: String? { get }

    /// Makes the new site the published one, with the files kept from the old (`keep:`),
    /// and records `record` and the poll cache for the next build. `placeChanges` puts the
    /// `--changes` list in place once the site and its record are, and before what a build
    /// killed there would leave for the next (its journal, the saved lines) is removed: a
    /// build killed between the two lost its list, and the next said nothing changed.
    func publish(_ record: BuildRecord, placeChanges: () throws(OutputError) -> Void) throws(OutputError)

    /// Drops the new site; the published one is untouched.
    func abandon()
}

extension SiteOutput {
    /// Publishes without a `--changes` list.
    public func publish(_ record: BuildRecord) throws(OutputError) {
        try publish(record) { () throws(OutputError) in }
    }
}

/// Writes the poll cache a piece at a time into `write`, so it is never held whole.
package typealias PollCacheWriter = @Sendable (_ write: ([UInt8]) throws -> Void) throws -> Void
