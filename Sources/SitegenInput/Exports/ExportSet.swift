import Foundation
import SitegenCore
import SitegenModel

/// Every export of the site except the polls, decoded and checked against each other.
/// Polls stream through the build one export file at a time (`PollStream`); only their
/// files are listed here.
public struct ExportSet: Sendable {
    /// Ballots by poll id, in file order. Only the compact Ballot of each vote is kept.
    public var ballots = BallotsByPoll()
    /// The ballots read, a vote id read more than once counted once (the build's summary
    /// line); kept when the ballots are handed on to be counted.
    public var ballotCount = 0
    public var latestBallot: Date?
    /// The vote export files, read again only to point at votes for absent polls.
    public var voteFiles: [URL] = []
    /// The poll export files, in order.
    public var pollFiles: [URL] = []
    /// In file order; see ConvoyPages.sorted for the order pages list them in.
    public var convoys: [Convoy] = []
    /// Trip-option sets with settled slugs, in file order.
    public var optionSets: [TripOptionSet] = []
    /// Itinerary exports, the game catalog and custom items (embedded ones included).
    public var itineraries: [Itinerary] = []
    public var games: [Game] = []
    public var customItems: [CustomItem] = []

    /// `plausibility` collects the dates read, for the site-wide `numericDates` check.
    package static func loader(config: SiteConfig, log: DiagnosticLog, plausibility: DatePlausibility? = nil) -> ExportLoader {
        var decoder = ExportDecoder(dates: ExportDateReader(timeZone: config.timeZone, numericDates: config.numericDates))
        decoder.plausibility = plausibility
        return ExportLoader(siteFolder: config.folder, decoder: decoder, log: log)
    }

    public static func load(config: SiteConfig, log: DiagnosticLog) -> ExportSet {
        load(config: config, loader: loader(config: config, log: log), log: log)
    }

    /// One vote file's ballots.
    package typealias VoteFileReader = @Sendable (URL) -> VoteFileBallots

    /// `readVotes` reads one vote file instead of the loader (SitegenKit keeps unchanged
    /// files' ballots from the last build).
    package static func load(config: SiteConfig, loader: ExportLoader, log: DiagnosticLog,
                             readVotes: VoteFileReader? = nil) -> ExportSet {
        var set = ExportSet()
        // A folder site.yml names is meant to exist: "Data/pols" published a site of no polls
        // with exit 0. (An absent default folder is simply none of that kind.)
        for (key, folder) in config.inputs.folders where config.inputs.named.contains(key) && !FileManager.default.fileExists(atPath: folder.path) {
            log.add(Diagnostic(.warning, file: displayPath(folder), field: key,
                               message: "site.yml names this folder, which does not exist; nothing is read from it"))
        }
        set.voteFiles = ExportLoader.jsonFiles(below: config.inputs.votes, log: log)
        set.pollFiles = ExportLoader.jsonFiles(below: config.inputs.polls, log: log)
        let convoys = loader.load(config.inputs.convoys, schema: { _ in .convoy }) { (decoder, field, source) throws(FieldError) in try decoder.publishedConvoy(field, source: source) }
        set.convoys = convoys.records.compactMap { $0 }
        ConvoyChecks.report(set.convoys, log: log)
        let optionSets = loader.load(config.inputs.options, schema: { _ in .optionSet }) { (decoder, field, source) throws(FieldError) in try decoder.optionSet(field, source: source) }
        set.optionSets = optionSets.records
        OptionSetSlug.report(set.optionSets, log: log)
        let itineraries = loader.load(config.inputs.trips, schema: RecordSchema.itineraryFile) { (decoder, field, source) throws(FieldError) in try decoder.itinerary(field, source: source) }
        let games = loader.load(config.inputs.games, schema: { _ in .game }) { (decoder, field, source) throws(FieldError) in try decoder.game(field, source: source) }
        let items = loader.load(config.inputs.items, cloudKit: CloudKitDump.customItem, schema: { _ in .customItem }) { (decoder, field, source) throws(FieldError) in
            try decoder.customItem(field, source: source)
        }
        set.itineraries = itineraries.records
        set.games = games.records + itineraries.records.flatMap(\.games)
        set.customItems = newestItems(items.records + itineraries.records.flatMap(\.customItems), log: log)
        // Ballots last: a rebuild takes unchanged vote files' ballots from the last build's
        // cache, which is still being read while the exports above are.
        set.loadBallots(readVotes ?? { url in VoteFileBallots(Self.readVotes(url, loader: loader)) })
        let repeats = set.ballots.repeatedIds()
        reportRepeatedVotes(repeats, voteFiles: set.voteFiles, loader: loader, log: log)
        // Each copy read again is one ballot with the first, not another.
        set.ballotCount -= repeats.reduce(0) { $0 + $1.ids.count }
        return set
    }

    /// An item exported twice (an old export kept beside a newer one, CloudKit query pages
    /// that overlap) is one item, shown in its newest version: the later `modifiedAt`, on a
    /// tie the one read last. Both were shown, the old title beside the new. A warning at
    /// each older copy.
    static func newestItems(_ items: [CustomItem], log: DiagnosticLog) -> [CustomItem] {
        var index: [String: Int] = [:]
        var kept: [CustomItem] = []
        for item in items {
            guard let at = index[item.id] else {
                index[item.id] = kept.count
                kept.append(item)
                continue
            }
            let (newer, older) = item.modifiedAt >= kept[at].modifiedAt ? (item, kept[at]) : (kept[at], item)
            kept[at] = newer
            let again = "\(newer.source.file):\(newer.source.line)"
            log.add(older.source.diagnostic(.warning, field: "id", newer.modifiedAt > older.modifiedAt
                ? "item \(quoted(older.title)) (\(older.id)) is exported again, changed later, at \(again); only the later version is shown"
                : "item \(quoted(older.title)) (\(older.id)) is exported again at \(again); it is shown once",
                summary: "custom items exported more than once: only the latest version is shown"))
        }
        return kept
    }

    /// A vote id read again (an old JSON export kept beside a newer CloudKit dump) is one
    /// ballot (docs/rules.md), but the organiser should know the file is there: one warning
    /// per pair of files, at the first repeated vote of the second. Ballots keep no source
    /// position, so that file is read again, only when there is such a vote.
    static func reportRepeatedVotes(_ repeats: [(first: Int, again: Int, ids: [UUID])], voteFiles: [URL],
                                    loader: ExportLoader, log: DiagnosticLog) {
        guard !repeats.isEmpty else { return }
        let quiet = loader.reporting(to: DiagnosticLog())
        var votesOf: [Int: [(vote: Vote, place: FieldPlace?)]] = [:]
        for (first, again, ids) in repeats {
            let votes = votesOf[again] ?? quiet.loadFile(voteFiles[again], cloudKit: CloudKitDump.vote, schema: { _ in .vote }) {
                (decoder, field, source) throws(FieldError) in
                (vote: try decoder.vote(field, source: source), place: ExportDecoder.place(of: "id", "voteId", in: field))
            }.0
            votesOf[again] = votes
            let repeated = Set(ids)
            // The second copy of the first id: in the same file, the first copy comes earlier.
            let copies = votes.filter { $0.vote.id == ids[0] }
            guard let (vote, place) = (first == again ? copies.dropFirst().first : copies.first) ?? votes.first(where: { repeated.contains($0.vote.id) })
            else { continue }
            let before = first == again ? "earlier in this file" : "from \(displayPath(voteFiles[first]))"
            let what = ids.count == 1
                ? "this vote's id was read before, \(before): it is one ballot, counted in its newest version"
                : "this vote's id and \(ids.count - 1) more of this file's were read before, \(before): each is one ballot, counted in its newest version"
            log.add((place.map { vote.source.at(offset: $0.offset) } ?? vote.source).diagnostic(.warning, field: place?.path ?? "id", what,
                                                                                                summary: "vote ids read more than once are counted once"))
        }
    }

    /// One vote file read by `loader`.
    package static func readVotes(_ url: URL, loader: ExportLoader) -> [(UUID, Ballot)] {
        let (votes, _) = loader.loadFile(url, cloudKit: CloudKitDump.vote, schema: { _ in .vote }) { (decoder, field, source) throws(FieldError) in
            try decoder.vote(field, source: source)
        }
        return votes.map { ($0.pollId, Ballot($0)) }
    }

    /// Reads the vote files a few at a time (in parallel), keeping each vote's Ballot: the
    /// parse trees of only a few files are alive at once.
    private mutating func loadBallots(_ read: VoteFileReader) {
        let step = 2 * ProcessInfo.processInfo.activeProcessorCount
        for start in stride(from: 0, to: voteFiles.count, by: step) {
            let files = Array(voteFiles[start..<min(start + step, voteFiles.count)])
            let results = ConcurrentResults<VoteFileBallots>(count: files.count)
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                results[index] = read(files[index])
            }
            for file in results.values {
                ballots.add(file: file)
                ballotCount += file.count
                if let latest = file.latest { latestBallot = max(latestBallot ?? latest, latest) }
            }
        }
    }

    /// Votes for polls that are absent are warned about and ignored. Ballots keep no
    /// source position, so the vote files are read again to find those votes — only when
    /// there are any.
    /// `pollsFailed`: a poll with an error was not read, so its votes are among these, and
    /// "no poll has id" would send the organiser looking for a wrong id.
    /// Returns how many ballots (distinct vote ids) were ignored, which the build's summary
    /// does not count: "72 ballots" where the polls had 71.
    @discardableResult
    public static func reportOrphanVotes(_ pollIds: Set<UUID>, voteFiles: [URL], loader: ExportLoader, log: DiagnosticLog,
                                         pollsFailed: Bool = false) -> Int {
        guard !pollIds.isEmpty else { return 0 }
        var ignored = Set<UUID>()
        let absent = pollsFailed ? "no poll read without errors has id" : "no poll has id"
        // Problems in these files were reported on the first reading.
        let quiet = loader.reporting(to: DiagnosticLog())
        for url in voteFiles {
            let (votes, _) = quiet.loadFile(url, cloudKit: CloudKitDump.vote, schema: { _ in .vote }) { (decoder, field, source) throws(FieldError) in
                (try decoder.vote(field, source: source), ExportDecoder.place(of: "pollId", in: field))
            }
            for (vote, place) in votes where pollIds.contains(vote.pollId) {
                ignored.insert(vote.id)
                // At the vote's pollId, named with its record's index.
                log.add((place.map { vote.source.at(offset: $0.offset) } ?? vote.source).diagnostic(.warning, field: place?.path ?? "pollId",
                    "\(absent) \(vote.pollId.uuidString); this vote is ignored",
                    summary: "votes for polls that no export holds are ignored"))
            }
        }
        return ignored.count
    }
}
