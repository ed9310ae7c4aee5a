import CHeap
import Foundation
import SitegenCore
import SitegenInput
import SitegenModel

/// A published poll as the rest of the site sees it once its own files are written: the
/// home page's row, and what the build checks across polls.
public struct PollSummary: Sendable {
    public let id: UUID
    public let shareCode: ShareCode
    public let title: String
    public let source: SourceRef
    public let modifiedAt: Date
    public let tripIds: [String]
    public let path: String
    public let voters: Int
    public let updatedAt: Date
    public let leaderLine: String

    init(_ published: PublishedPoll) {
        let poll = published.poll
        id = poll.id
        shareCode = poll.shareCode
        title = poll.title
        source = poll.source
        modifiedAt = poll.modifiedAt
        tripIds = poll.trips.map(\.id.uuidString)
        path = published.path
        voters = published.results.voters
        updatedAt = published.results.updatedAt
        leaderLine = published.leaderLine
    }
}

/// Polls stream through the build one export file at a time: a file is read, each of its
/// polls is counted, laid out and (when writing) rendered and written, and then only its
/// summary is kept. Polls are most of a site, so memory stays flat however many there are
/// (issue #8); files are processed in parallel, and the polls of one file too.
struct PollStream {
    let config: SiteConfig
    let loader: ExportLoader
    let ballots: [UUID: [Ballot]]
    let layout: ItineraryLayout
    let paths: PlannedPaths
    let log: DiagnosticLog

    struct Outcome {
        /// In file order, then record order.
        var summaries: [PollSummary] = []
        var pages = 0
        var files = 0
        /// Pages the sitemap lists (Sitemap.lists).
        var sitemapPages = 0
        /// Why writing stopped (an I/O error or a refused path); input errors, which take
        /// precedence, are in the log.
        var failure: String?
    }

    /// Writes a planned file (render, hash, write, record); nil for `sitegen check`.
    typealias Writer = @Sendable (PlannedFile) throws(OutputError) -> Void

    /// Reads every poll file. Once an error is logged, polls are still read and checked
    /// (every problem is reported in one run) but no longer written.
    func run(_ urls: [URL], writer: Writer?) -> Outcome {
        let outcomes = ConcurrentResults<[Outcome]>(count: urls.count)
        let failure = ConcurrentResults<String>(count: 1)
        DispatchQueue.concurrentPerform(iterations: urls.count) { fileIndex in
            let (polls, _) = loader.loadFile(urls[fileIndex], cloudKit: CloudKitDump.poll) { (decoder, field, source) throws(FieldError) in
                try decoder.poll(field, source: source)
            }
            let results = ConcurrentResults<Outcome>(count: polls.count)
            DispatchQueue.concurrentPerform(iterations: polls.count) { index in
                results[index] = publish(polls[index], writer: failure[0] == nil && !log.hasErrors ? writer : nil, failure: failure)
            }
            outcomes[fileIndex] = results.values
            // The file's parse tree and pages are freed; give the pages back to the system.
            sitegen_trim_heap()
        }
        var total = Outcome(failure: failure[0])
        for outcome in outcomes.values.joined() {
            total.summaries += outcome.summaries
            total.pages += outcome.pages
            total.files += outcome.files
            total.sitemapPages += outcome.sitemapPages
        }
        return total
    }

    private func publish(_ poll: Poll, writer: Writer?, failure: ConcurrentResults<String>) -> Outcome {
        let published = PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, ballots: ballots[poll.id] ?? [],
                                                                            minBallotsForBreakdown: config.minBallotsForBreakdown))
        let unlisted = !config.listPolls
        var files = PollPages.files(for: published, unlisted: unlisted, tripPages: true)
        if config.previews { files.append(PreviewPages.pollFile(published)) }
        files += layout.trips(of: published).flatMap { ItineraryPages.files(for: $0, previews: false) }
        files += OptionPages.files(for: published, unlisted: unlisted, plannedPaths: Set(files.map(\.path)))

        var outcome = Outcome(summaries: [PollSummary(published)])
        outcome.files = files.count
        outcome.pages = files.count { $0.path.hasSuffix(".html") }
        outcome.sitemapPages = files.count { Sitemap.lists($0.path, listPolls: config.listPolls) }
        if let message = paths.claim(files.map(\.path)) {
            failure[0] = message
            return outcome
        }
        guard let writer else { return outcome }
        for file in files {
            do throws(OutputError) {
                try writer(file)
            } catch {
                failure[0] = error.message
                break
            }
        }
        return outcome
    }
}

/// Every output path of the site, claimed as files are planned: a path outside the output
/// folder, or two files whose paths differ only in case (hosts on case-insensitive file
/// systems would merge them), stop the build. Paths are remembered by the key of their
/// case-folded bytes.
final class PlannedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = Set<DigestKey>()

    /// nil when every path is new and safe, else why not.
    func claim(_ paths: [String]) -> String? {
        for path in paths where !SafePath.isSafe(path) {
            return "refusing to write outside the output folder: \(path)"
        }
        let keys = paths.map { DigestKey(Self.caseFolded($0)) }
        return lock.withLock {
            for (path, key) in zip(paths, keys) where !seen.insert(key).inserted {
                return "two files of the site would be written to \(path)"
            }
            return nil
        }
    }

    /// The path's bytes lower-cased, with a fast path for ASCII paths (nearly all of them).
    static func caseFolded(_ path: String) -> [UInt8] {
        let bytes = Array(path.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return Array(path.lowercased().utf8) }
        return bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }
}
