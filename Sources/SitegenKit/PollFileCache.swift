import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenOutput
import SitegenRender

/// What each poll export file gave the last build, so that a rebuild reads again only the
/// poll files that changed (docs/architecture.md, "Reading only what changed").
///
/// Polls are most of a site, and reading and counting every poll file was most of a
/// rebuild after one new ballot. A file's share of a build — its polls' summaries, keys and
/// output paths, the warnings it gave and the dates it holds — is a function of the file's
/// bytes, its polls' ballots, the poll context (BuildFingerprint.pollContext: sitegen,
/// site.yml, templates, the pages' titles) and what its polls' trips take from the
/// itineraries and games (each poll's `links`, checked only when those files changed). When
/// all are those of the last build and
/// the files it wrote are still as recorded, the share is taken from here without reading
/// the file; otherwise the file is read, and its polls whose key is unchanged are still
/// linked rather than rendered (PollSteps).
///
/// Kept beside the build state in a binary of its own (BinaryWriter): a head, then each
/// poll file's share, then each vote file's. A file whose trips met a warning about a game
/// or an item (reported once for the whole site, not per file) or that had errors is not
/// kept, and is read on every build.
///
/// A poll file's share is not held decoded: the last cache's shares stay in its file, each
/// read and decoded when its poll file comes up in the stream (`entry(_:)`), and a kept one
/// is copied from there into the next cache as the same bytes. Decoded whole, the shares of
/// a 10,000-poll site held 20 MB of heap through the read stage (docs/performance.md).
struct PollFileCache: Sendable {
    static let format = "sitegen-polls 7"

    /// Everything but the file's own bytes, its ballots and its polls' links its share depends on.
    let context: String
    /// The itinerary and game files it was written with (BuildFingerprint.catalogContext):
    /// while they are the same, no poll's links need checking.
    var catalog = ""
    /// The fingerprint of the build that wrote the cache: it is used only beside that
    /// build's state, whose record says which of the files its shares name are as written.
    var build = ""
    /// Poll files' shares by standardized path.
    var files: [String: Share]
    /// Vote files by standardized path: every vote file is needed for the polls' ballots,
    /// but an unchanged one's ballots are taken from here instead of parsing its JSON.
    var votes: [String: VoteEntry] = [:]

    /// The last build's cache file, read again for the shares kept from it.
    var last: LastCacheBytes?

    init(context: String, files: [String: Share], votes: [String: VoteEntry] = [:], last: LastCacheBytes? = nil) {
        self.context = context
        self.files = files
        self.votes = votes
        self.last = last
    }

    enum Share: Sendable, Equatable {
        /// A file this build read, its share encoded (`encode(_:)`).
        case encoded([UInt8])
        /// A file kept from the last build: where the last cache file holds its share.
        case kept(Range<Int>)
    }

    /// Reads a range of the last build's cache file again; nil when it cannot.
    struct LastCacheBytes: Sendable {
        let read: @Sendable (Range<Int>) -> [UInt8]?
    }

    /// The share of the poll file at `path`, encoded; nil when there is none or it cannot be
    /// read.
    func encodedShare(_ path: String) -> [UInt8]? {
        switch files[path] {
        case .encoded(let bytes): bytes
        case .kept(let range): last?.read(range)
        case nil: nil
        }
    }

    /// The decoded share of the poll file at `path`, nil when there is none or it cannot be
    /// read (then the file is read).
    func entry(_ path: String) -> Entry? {
        encodedShare(path).flatMap { Self.decode(entry: $0[...], path: path) }
    }

    struct Entry: Sendable {
        /// The file's bytes, as BuildFingerprint hashed them.
        var sha256: String
        /// Its polls' ballots (PollSteps.ballotDigest).
        var ballots: String
        var polls: [KeptPoll]
        /// What reading and laying out the file logged: every diagnostic is about the file.
        /// Past a few of a kind, diagnostics were counted, not kept (`omissions`): a share
        /// with omissions cannot serve `--verbose`, which lists every one.
        var diagnostics: [Diagnostic]
        var omissions: [DiagnosticLog.Omission]
        var dates: DatePlausibility.Share
    }

    /// One vote file's share: its ballots (grouped by poll, with their digests and ids, so a
    /// kept file's ballots themselves are read only when one of its polls is counted), and
    /// what reading it logged.
    struct VoteEntry: Sendable {
        var sha256: String
        var ballots: VoteFileBallots
        var diagnostics: [Diagnostic]
        var omissions: [DiagnosticLog.Omission]
        var dates: DatePlausibility.Share
        /// Where the last cache file holds this share, when it was kept from there: the next
        /// cache copies those bytes.
        var kept: Range<Int>?
    }

    struct KeptPoll: Sendable {
        var summary: PollSummary
        var key: String
        /// The poll's output paths, each ended by a NUL (which no path holds): one string
        /// instead of fourteen keeps a large site's cache small in memory.
        var joinedPaths: String
        /// What its trips took from the itineraries and games (ItineraryLayout.linksDigest),
        /// and the game ids of each trip's stops, in `summary.tripIds`' order, to check it again.
        var links: String
        var gameIds: [[String]]

        init(summary: PollSummary, key: String, paths: [String], links: String = "", gameIds: [[String]] = []) {
            self.init(summary: summary, key: key, joinedPaths: paths.map { $0 + "\u{0}" }.joined(), links: links, gameIds: gameIds)
        }

        init(summary: PollSummary, key: String, joinedPaths: String, links: String = "", gameIds: [[String]] = []) {
            self.summary = summary
            self.key = key
            self.joinedPaths = joinedPaths
            self.links = links
            self.gameIds = gameIds
        }

        /// Its trips as `ItineraryLayout.linksDigest` takes them.
        var trips: [(id: UUID, games: [String])] {
            zip(summary.tripIds, gameIds).map { ($0, $1) }
        }

        /// Split by bytes, in the string's own storage: splitting by characters cost a
        /// rebuild 0.08 s at 10,000 polls, and the UTF-8 view's generic `split` still 1% of a
        /// one-ballot rebuild's samples at 50,000 polls.
        var paths: [String] {
            var joined = joinedPaths
            return joined.withUTF8 { bytes in
                var paths: [String] = []
                var start = 0
                for index in bytes.indices where bytes[index] == 0 {
                    if index > start { paths.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                    start = index + 1
                }
                if start < bytes.count { paths.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
                return paths
            }
        }
    }

    /// The context a cache must have to be used.
    static func context(pollContext: String) -> String {
        "\(format) \(pollContext)"
    }

    // MARK: Writing

    /// The cache a piece at a time: a head (format, context, build), then each poll file's
    /// share in path order, then each vote file's, in BinaryWriter's binary, then the SHA-256
    /// of all of it (`decode` checks it).
    func write(to output: ([UInt8]) throws -> Void) throws {
        var hasher = ContentHasher()
        func sink(_ bytes: [UInt8]) throws {
            hasher.update(bytes)
            try output(bytes)
        }
        try writeBody(to: sink)
        var digest: [UInt8] = []
        hasher.finalize().appendBytes(to: &digest)
        try output(digest)
    }

    private func writeBody(to sink: ([UInt8]) throws -> Void) throws {
        var head = BinaryWriter()
        head.string(Self.format)
        head.string(context)
        head.string(catalog)
        head.string(build)
        head.int(files.count)
        try sink(head.bytes)
        // A quarter of a megabyte at a time: the cache is written while the site renders, so
        // what it holds adds to the build's peak.
        var pieces = BinaryWriter(capacity: 1 << 18)
        for path in files.keys.sorted() {
            guard let share = encodedShare(path) else { throw CocoaError(.fileReadUnknown) }
            if pieces.bytes.count + share.count > 1 << 18, !pieces.bytes.isEmpty {
                try sink(pieces.bytes)
                pieces = BinaryWriter(capacity: 1 << 18)
            }
            pieces.string(path)
            pieces.blob(share)
        }
        try sink(pieces.bytes)
        var count = BinaryWriter()
        count.int(votes.count)
        try sink(count.bytes)
        for path in votes.keys.sorted() {
            let entry = votes[path]!
            var piece = BinaryWriter(capacity: 100 * entry.ballots.count + 512)
            piece.string(path)
            if let range = entry.kept {
                guard let bytes = last?.read(range) else { throw CocoaError(.fileReadUnknown) }
                piece.blob(bytes)
            } else {
                piece.blob(Self.encode(entry))
            }
            try sink(piece.bytes)
        }
    }

    /// The whole cache as bytes (tests).
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        try? write { bytes += $0 }
        return bytes
    }

    private static func write(_ source: SourceRef, to out: inout BinaryWriter) {
        out.bool(source.isFixed)
        if source.isFixed {
            out.int(source.line)
            out.int(source.column)
        } else {
            out.int(source.offset)
        }
    }

    /// A poll file's share as the cache holds it.
    static func encode(_ entry: Entry) -> [UInt8] {
        var out = BinaryWriter(capacity: 1024 * entry.polls.count + 512)
        out.string(entry.sha256)
        out.string(entry.ballots)
        out.array(entry.polls) { out, poll in
            let s = poll.summary
            out.uuid(s.id)
            out.string(s.shareCode.value)
            out.string(s.title)
            write(s.source, to: &out)
            out.date(s.modifiedAt)
            out.array(s.tripIds) { $0.uuid($1) }
            out.string(s.path)
            out.int(s.voters)
            out.date(s.updatedAt)
            out.string(s.leaderLine)
            out.string(poll.key)
            out.string(poll.joinedPaths)
            out.string(poll.links)
            out.array(poll.gameIds) { out, games in out.array(games) { $0.string($1) } }
        }
        write(entry.diagnostics, entry.omissions, entry.dates, to: &out)
        return out.bytes
    }

    /// A vote file's share as the cache holds it: its groups, numbers and ids before its
    /// ballots, so that a kept share is decoded without them.
    static func encode(_ entry: VoteEntry) -> [UInt8] {
        let file = entry.ballots
        var out = BinaryWriter(capacity: 100 * file.count + 512)
        out.string(entry.sha256)
        out.int(file.count)
        out.optional(file.latest) { $0.date($1) }
        out.array(file.groups) { out, group in
            out.uuid(group.poll)
            out.int(Int(group.start))
            out.int(Int(group.count))
            var digest: [UInt8] = []
            group.digest.appendBytes(to: &digest)
            out.blob(digest)
        }
        out.array(file.numbers) { $0.int(Int($1)) }
        out.array(file.ids) { $0.uuid($1) }
        var ballots: [UInt8] = []
        ballots.reserveCapacity(file.count * 80)
        for (poll, ballot) in file.ballots {
            withUnsafeBytes(of: poll.uuid) { ballots += $0 }
            ballot.appendBytes(to: &ballots)
        }
        out.blob(ballots)
        write(entry.diagnostics, entry.omissions, entry.dates, to: &out)
        return out.bytes
    }

    /// What reading a file logged and the dates it holds.
    private static func write(_ diagnostics: [Diagnostic], _ omissions: [DiagnosticLog.Omission],
                              _ dates: DatePlausibility.Share, to out: inout BinaryWriter) {
        out.array(diagnostics) { out, d in
            out.bool(d.severity == .error)
            out.optional(d.pendingSource) { write($1, to: &$0) }
            if d.pendingSource == nil {
                out.optional(d.line) { $0.int($1) }
                out.optional(d.column) { $0.int($1) }
            }
            out.string(d.field)
            out.string(d.message)
            out.optional(d.summary) { $0.string($1) }
        }
        out.array(omissions) { out, o in
            out.bool(o.severity == .error)
            out.int(o.count)
            out.optional(o.summary) { $0.string($1) }
            out.bool(o.file != nil)
        }
        out.array(dates.years.sorted { $0.key < $1.key }) { out, year in
            out.int(year.key)
            out.int(year.value)
        }
        out.array(dates.numeric.values.flatMap { $0 }.sorted { $0.key < $1.key }) { out, pair in
            let (year, example) = pair
            out.int(year)
            out.int(example.count)
            out.double(example.value)
            out.string(example.field)
            write(example.source, to: &out)
        }
    }

    // MARK: Reading

    /// The cache in `bytes` when it was written with `context` by the build `build`; nil
    /// otherwise or when it cannot be read (then every poll file is read). The poll files'
    /// shares are only located: each is read again through `last` when it is used.
    static func decode(_ whole: UnsafeRawBufferPointer, context: String, build: String, last: LastCacheBytes) -> PollFileCache? {
        // Checked whole before anything is used: a flipped bit in a share published a poll as
        // "Nobody has voted yet" (its ballots' poll id no longer matched), and the bad bytes
        // were copied into every next cache. A damaged cache reads as none.
        guard whole.count >= 32 else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: whole[..<(whole.count - 32)])
        var hasher = ContentHasher()
        hasher.update(bytes)
        guard hasher.finalize() == ContentHash(bytes: whole, at: bytes.count) else { return nil }
        var reader = BinaryReader(bytes)
        do throws(BinaryReader.Failure) {
            // Another format's first word is not this one's length: reading it fails.
            guard try reader.string() == format, try reader.string() == context else { return nil }
            let catalog = try reader.string()
            guard try reader.string() == build else { return nil }
            let shares = try reader.array { (reader) throws(BinaryReader.Failure) in
                (path: try reader.string(), range: try reader.blobRange())
            }
            var cache = PollFileCache(context: context, files: Dictionary(minimumCapacity: shares.count), last: last)
            cache.build = build
            cache.catalog = catalog
            for (path, range) in shares { cache.files[path] = .kept(range) }
            let votes = try reader.array { (reader) throws(BinaryReader.Failure) in
                (path: try reader.string(), range: try reader.blobRange())
            }
            for (path, range) in votes {
                var entryReader = BinaryReader(UnsafeRawBufferPointer(rebasing: bytes[range]))
                var entry = try voteEntry(&entryReader, path: path, at: range.lowerBound, last: last)
                guard entryReader.isAtEnd else { return nil }
                entry.kept = range
                cache.votes[path] = entry
            }
            return reader.isAtEnd ? cache : nil
        } catch {
            return nil
        }
    }

    /// The same from an array, which the shares are read from again (tests).
    static func decode(_ bytes: [UInt8], context: String, build: String) -> PollFileCache? {
        let last = LastCacheBytes { range in range.upperBound <= bytes.count ? Array(bytes[range]) : nil }
        return bytes.withUnsafeBytes { decode($0, context: context, build: build, last: last) }
    }

    /// A kept position: a byte offset (looked up in the file when shown) or a line and column.
    private static func source(_ reader: inout BinaryReader, file: String, index: LineIndex) throws(BinaryReader.Failure) -> SourceRef {
        if try reader.bool() {
            return SourceRef(file: file, line: try reader.int(), column: try reader.int())
        }
        return SourceRef(file: file, offset: try reader.int(), index: index)
    }

    /// A poll file's share from its bytes; nil when they cannot be read.
    static func decode(entry bytes: ArraySlice<UInt8>, path: String) -> Entry? {
        bytes.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            do throws(BinaryReader.Failure) {
                let entry = try entry(&reader, path: path)
                return reader.isAtEnd ? entry : nil
            } catch {
                return nil
            }
        }
    }

    private static func entry(_ reader: inout BinaryReader, path: String) throws(BinaryReader.Failure) -> Entry {
        // Shown as this run shows the file (the working folder may differ); its lines are
        // counted only if a diagnostic is printed.
        let shown = displayPath(URL(fileURLWithPath: path))
        let index = LineIndex(path: path)
        let sha256 = try reader.string(), ballots = try reader.string()
        let polls = try reader.array { (reader) throws(BinaryReader.Failure) -> KeptPoll in
            let id = try reader.uuid()
            let codeAt = reader.offset
            guard let code = ShareCode(try reader.string()) else { throw BinaryReader.Failure(offset: codeAt) }
            let summary = PollSummary(
                id: id, shareCode: code, title: try reader.string(),
                source: try source(&reader, file: shown, index: index), modifiedAt: try reader.date(),
                tripIds: try reader.array { (reader) throws(BinaryReader.Failure) in try reader.uuid() },
                path: try reader.string(), voters: try reader.int(),
                updatedAt: try reader.date(), leaderLine: try reader.string())
            let key = try reader.string(), joinedPaths = try reader.string(), links = try reader.string()
            let gameIds = try reader.array { (reader) throws(BinaryReader.Failure) in
                try reader.array { (reader) throws(BinaryReader.Failure) in try reader.string() }
            }
            // One list of game ids a trip: fewer or more is damage.
            guard gameIds.count == summary.tripIds.count else { throw BinaryReader.Failure(offset: reader.offset) }
            return KeptPoll(summary: summary, key: key, joinedPaths: joinedPaths, links: links, gameIds: gameIds)
        }
        let (diagnostics, omissions, dates) = try share(&reader, shown: shown, index: index)
        return Entry(sha256: sha256, ballots: ballots, polls: polls, diagnostics: diagnostics, omissions: omissions, dates: dates)
    }

    /// A vote file's share, read from `at` in the last cache file: everything but its
    /// ballots, which `last` reads when one of its polls is counted.
    private static func voteEntry(_ reader: inout BinaryReader, path: String, at: Int, last: LastCacheBytes) throws(BinaryReader.Failure) -> VoteEntry {
        let shown = displayPath(URL(fileURLWithPath: path))
        let index = LineIndex(path: path)
        let sha256 = try reader.string()
        let countAt = reader.offset
        let count = try reader.int()
        let latest = try reader.optional { (reader) throws(BinaryReader.Failure) in try reader.date() }
        let groups = try reader.array { (reader) throws(BinaryReader.Failure) -> VoteFileBallots.Group in
            let poll = try reader.uuid(), startAt = reader.offset
            let start = try reader.int(), size = try reader.int()
            let digest = try reader.blob()
            guard digest.count == 32, let start = Int32(exactly: start), let size = Int32(exactly: size) else {
                throw BinaryReader.Failure(offset: startAt)
            }
            return VoteFileBallots.Group(poll: poll, start: start, count: size, digest: ContentHash(bytes: digest, at: 0))
        }
        let numbers = try reader.array { (reader) throws(BinaryReader.Failure) -> Int32 in
            let numberAt = reader.offset
            guard let number = Int32(exactly: try reader.int()) else { throw BinaryReader.Failure(offset: numberAt) }
            return number
        }
        let ids = try reader.array { (reader) throws(BinaryReader.Failure) in try reader.uuid() }
        let blob = try reader.blobRange()
        let ballotsRange = (at + blob.lowerBound)..<(at + blob.upperBound)
        guard let ballots = VoteFileBallots(count: count, latest: latest, groups: groups, numbers: numbers, ids: ids, load: {
            last.read(ballotsRange).flatMap { decodeBallots($0, count: count) }
        }) else { throw BinaryReader.Failure(offset: countAt) }
        let (diagnostics, omissions, dates) = try share(&reader, shown: shown, index: index)
        return VoteEntry(sha256: sha256, ballots: ballots, diagnostics: diagnostics, omissions: omissions, dates: dates)
    }

    /// A vote file's ballots with their polls' ids, as `encode(_: VoteEntry)` wrote them; nil
    /// when they are not `count` whole ballots.
    static func decodeBallots(_ blob: [UInt8], count: Int) -> [(UUID, Ballot)]? {
        // Each ballot takes more than 16 bytes: a count past that is damage, not a size.
        guard count >= 0, count <= blob.count / 16 else { return nil }
        var ballots: [(UUID, Ballot)] = []
        ballots.reserveCapacity(count)
        var offset = 0
        while offset < blob.count {
            guard offset + 16 <= blob.count else { return nil }
            let poll = blob.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(fromByteOffset: offset, as: uuid_t.self)) }
            offset += 16
            guard let ballot = Ballot(reading: blob, at: &offset) else { return nil }
            ballots.append((poll, ballot))
        }
        return ballots.count == count ? ballots : nil
    }

    private static func share(_ reader: inout BinaryReader, shown: String, index: LineIndex) throws(BinaryReader.Failure)
        -> ([Diagnostic], [DiagnosticLog.Omission], DatePlausibility.Share) {
        let diagnostics = try reader.array { (reader) throws(BinaryReader.Failure) -> Diagnostic in
            let severity: Diagnostic.Severity = try reader.bool() ? .error : .warning
            if let source = try reader.optional({ (reader) throws(BinaryReader.Failure) in try source(&reader, file: shown, index: index) }) {
                return Diagnostic(severity, at: source, field: try reader.string(), message: try reader.string(),
                                  summary: try reader.optional { (reader) throws(BinaryReader.Failure) in try reader.string() })
            }
            let line = try reader.optional { (reader) throws(BinaryReader.Failure) in try reader.int() }
            let column = try reader.optional { (reader) throws(BinaryReader.Failure) in try reader.int() }
            return Diagnostic(severity, file: shown, line: line, column: column, field: try reader.string(), message: try reader.string(),
                              summary: try reader.optional { (reader) throws(BinaryReader.Failure) in try reader.string() })
        }
        let omissions = try reader.array { (reader) throws(BinaryReader.Failure) -> DiagnosticLog.Omission in
            DiagnosticLog.Omission(
                severity: try reader.bool() ? .error : .warning, count: try reader.int(),
                summary: try reader.optional { (reader) throws(BinaryReader.Failure) in try reader.string() },
                file: try reader.bool() ? shown : nil)
        }
        var dates = DatePlausibility.Share()
        for (year, count) in try reader.array({ (reader) throws(BinaryReader.Failure) in (try reader.int(), try reader.int()) }) {
            dates.years[year] = count
        }
        for (year, example) in try reader.array({ (reader) throws(BinaryReader.Failure) in
            (try reader.int(), DatePlausibility.Example(count: try reader.int(), value: try reader.double(), field: try reader.string(),
                                                         source: try source(&reader, file: shown, index: index)))
        }) {
            dates.numeric[shown, default: [:]][year] = example
        }
        return (diagnostics, omissions, dates)
    }
}

extension PollFileCache {
    /// Gives what reading a file logged, and its dates, to the build's log and date
    /// collector: the same whether the file was just read or its share kept.
    static func replay(_ diagnostics: [Diagnostic], _ omissions: [DiagnosticLog.Omission], _ share: DatePlausibility.Share,
                       into log: DiagnosticLog, dates: DatePlausibility?) {
        diagnostics.forEach(log.add)
        omissions.forEach(log.add)
        dates?.add(share)
    }

    /// Whether all a file's reading logged is about that file (`shown`): only then can its
    /// share give it again without the file being read.
    static func isAbout(_ shown: String, _ diagnostics: [Diagnostic], _ omissions: [DiagnosticLog.Omission],
                        _ share: DatePlausibility.Share) -> Bool {
        diagnostics.allSatisfy { $0.file == shown } && omissions.allSatisfy { $0.file == nil || $0.file == shown }
            && share.numeric.keys.allSatisfy { $0 == shown }
    }
}
