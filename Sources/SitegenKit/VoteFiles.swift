import CHeap
import Foundation
import SitegenCore
import SitegenInput
import SitegenModel

/// Reads the vote files for ExportSet, taking an unchanged file's ballots from the last
/// build (PollFileCache) instead of parsing its JSON: every poll's ballots are needed to
/// know which polls changed (their digests, VoteFileBallots), but a rebuild after one new
/// ballot should parse one file, not all, and decode only the ballots of the polls it counts.
/// Like a poll file's, a vote file's share (its ballots, what reading it logged, its dates)
/// is a function of its bytes and of the context.
final class VoteFiles: @unchecked Sendable {
    let loader: ExportLoader
    let log: DiagnosticLog
    let dates: DatePlausibility?
    /// The last build's cache, asked for only once a vote file is read.
    private let lastCache: @Sendable () -> PollFileCache?
    let hashes: [String: String]
    /// Whether this build keeps shares for the next (not for `sitegen check`).
    let keeps: Bool
    private let lock = NSLock()
    private var entries: [String: PollFileCache.VoteEntry] = [:]
    private var read = 0

    init(loader: ExportLoader, log: DiagnosticLog, dates: DatePlausibility?, last: @escaping @Sendable () -> PollFileCache?,
         hashes: [String: String], keeps: Bool) {
        self.loader = loader
        self.log = log
        self.dates = dates
        lastCache = last
        self.hashes = hashes
        self.keeps = keeps
    }

    /// This build's shares, for the next build's cache.
    var kept: [String: PollFileCache.VoteEntry] { lock.withLock { entries } }
    /// How many vote files were parsed.
    var filesRead: Int { lock.withLock { read } }

    func ballots(_ url: URL) -> VoteFileBallots {
        let path = url.standardizedFileURL.path
        if let entry = lastCache()?.votes[path], entry.sha256 == hashes[path], !(log.keepsEvery && !entry.omissions.isEmpty) {
            PollFileCache.replay(entry.diagnostics, entry.omissions, entry.dates, into: log, dates: dates)
            // The cache's ballots are read when a poll of the file is counted; should they be
            // unreadable by then, the file is read again, quietly (its warnings are given above).
            let quiet = loader.reporting(to: DiagnosticLog())
            entry.ballots.fallBack { ExportSet.readVotes(url, loader: quiet) }
            if keeps { lock.withLock { entries[path] = entry } }
            return entry.ballots
        }
        let fileLog = DiagnosticLog(keepsEvery: log.keepsEvery)
        let fileDates = DatePlausibility(numericDates: loader.decoder.dates.numericDates)
        let ballots = VoteFileBallots(ExportSet.readVotes(url, loader: loader.capturing(to: fileLog, dates: fileDates)))
        let diagnostics = fileLog.keptInReadingOrder, omissions = fileLog.omissions, share = fileDates.share
        PollFileCache.replay(diagnostics, omissions, share, into: log, dates: dates)
        lock.withLock { read += 1 }
        let shown = displayPath(url)
        guard keeps, let sha256 = hashes[path], !fileLog.hasErrors, PollFileCache.isAbout(shown, diagnostics, omissions, share) else {
            return ballots
        }
        lock.withLock {
            entries[path] = PollFileCache.VoteEntry(sha256: sha256, ballots: ballots, diagnostics: diagnostics,
                                                    omissions: omissions, dates: share)
        }
        return ballots
    }
}
