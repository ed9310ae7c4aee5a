import CHeap
import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenRender

/// Polls stream through the build one export file at a time, inside the read stage: a file
/// is read, each of its polls goes through the later stages' steps for one poll (PollSteps),
/// and then only its summary is kept. Polls are most of a site, so memory stays flat however
/// many there are (issue #8); files are processed in parallel, and the polls of one file too.
///
/// A file whose bytes and ballots are those of the last build is not read at all: its
/// share of the build comes from the last build's PollFileCache (issue #16).
struct PollStream {
    let loader: ExportLoader
    let steps: PollSteps
    let log: DiagnosticLog
    /// The build's date collector (nil for none).
    let dates: DatePlausibility?
    /// The last build's shares, when written in this build's context.
    let last: PollFileCache?
    /// This build's shares for the next build; nil when nothing is kept (`sitegen check`).
    let next: PollFileCache?
    /// Each input file's SHA-256 by standardized path (BuildFingerprint.hashes).
    let hashes: [String: String]

    /// Every poll of `urls`, summarised in file order, then record order, and the shares of
    /// the files this build can hand to the next.
    func run(_ urls: [URL]) -> (summaries: [PollSummary], cache: PollFileCache?, read: Int) {
        let summaries = ConcurrentResults<[PollSummary]>(count: urls.count)
        let read = ConcurrentResults<Bool>(count: urls.count)
        let entries = ConcurrentResults<PollFileCache.Share>(count: urls.count)
        DispatchQueue.concurrentPerform(iterations: urls.count) { fileIndex in
            let url = urls[fileIndex]
            let path = url.standardizedFileURL.path
            if let entry = last?.entry(path), entry.sha256 == hashes[path], !(log.keepsEvery && !entry.omissions.isEmpty),
               entry.ballots == steps.ballotDigest(entry.polls.map(\.summary.id)), linksUnchanged(entry), steps.reuse(entry) {
                // What the file gave the last build, given again; its share goes to the
                // next build as the bytes it was read from.
                PollFileCache.replay(entry.diagnostics, entry.omissions, entry.dates, into: log, dates: dates)
                summaries[fileIndex] = entry.polls.map(\.summary)
                entries[fileIndex] = last?.files[path]
                return
            }
            let (polls, entry) = self.read(url)
            read[fileIndex] = true
            summaries[fileIndex] = polls
            entries[fileIndex] = entry.map { .encoded(PollFileCache.encode($0)) }
            // The file's parse tree and pages are freed; give the pages back to the system.
            sitegen_trim_heap()
        }
        let readCount = read.values.count
        // Joined into an array of exactly their size (grown by doubling, it held up to twice
        // the summaries of a large site to the end of the build).
        let perFile = summaries.values
        var all: [PollSummary] = []
        all.reserveCapacity(perFile.reduce(0) { $0 + $1.count })
        for file in perFile { all += file }
        guard var cache = next else { return (all, nil, readCount) }
        // Kept shares are copied from the last cache file when this one is written.
        cache.last = last?.last
        for (index, url) in urls.enumerated() {
            let entry = entries[index]
            if let entry { cache.files[url.standardizedFileURL.path] = entry }
        }
        return (all, cache, readCount)
    }

    /// Whether what the share's polls show of the itineraries and games is as it was: surely
    /// so while their files are the last build's, else checked poll by poll (an itinerary
    /// edit leaves most polls' links as they were).
    private func linksUnchanged(_ entry: PollFileCache.Entry) -> Bool {
        guard let last, let next, last.catalog != next.catalog else { return true }
        return entry.polls.allSatisfy { steps.layout.linksDigest(of: $0.trips) == $0.links }
    }

    /// Reads one poll file and publishes its polls; returns their summaries, and the file's
    /// share when the next build may reuse it.
    private func read(_ url: URL) -> ([PollSummary], PollFileCache.Entry?) {
        let fileLog = DiagnosticLog(keepsEvery: log.keepsEvery)
        let fileDates = DatePlausibility(numericDates: loader.decoder.dates.numericDates)
        let (polls, _) = loader.capturing(to: fileLog, dates: fileDates).loadFile(url, cloudKit: CloudKitDump.poll, schema: { _ in .poll }) { (decoder, field, source) throws(FieldError) in
            try decoder.poll(field, source: source)
        }
        let results = ConcurrentResults<PollSteps.Published>(count: polls.count)
        DispatchQueue.concurrentPerform(iterations: polls.count) { index in
            results[index] = steps.publish(polls[index], log: fileLog)
        }
        let published = results.values
        let diagnostics = fileLog.keptInReadingOrder, omissions = fileLog.omissions
        let share = fileDates.share
        PollFileCache.replay(diagnostics, omissions, share, into: log, dates: dates)

        let shown = displayPath(url)
        guard next != nil, let sha256 = hashes[url.standardizedFileURL.path], !fileLog.hasErrors,
              !steps.layout.metSharedWarnings(shown), PollFileCache.isAbout(shown, diagnostics, omissions, share) else {
            return (published.map(\.summary), nil)
        }
        var kept: [PollFileCache.KeptPoll] = []
        for (poll, read) in zip(published, polls) {
            guard let key = poll.key, let links = poll.links else { return (published.map(\.summary), nil) }
            kept.append(PollFileCache.KeptPoll(summary: poll.summary, key: key, paths: poll.paths,
                                               links: links, gameIds: ItineraryLayout.gameIds(of: read).map(\.games)))
        }
        return (published.map(\.summary), PollFileCache.Entry(
            sha256: sha256, ballots: steps.ballotDigest(polls.map(\.id)), polls: kept,
            diagnostics: diagnostics, omissions: omissions, dates: share))
    }
}

/// What happens to one poll as it streams past: the same compute, plan and render steps as
/// every other page kind goes through in its own stage.
struct PollSteps: Sendable {
    let config: SiteConfig
    let ballots: BallotsByPoll
    let layout: ItineraryLayout
    let paths: PlannedPaths
    let render: RenderStage
    /// Without the build time, which is known only once every poll has been read.
    let kit: RenderKit
    /// BuildFingerprint.pollContext; nil for `sitegen check`, which keys nothing.
    let context: String?
    /// The last build's poll keys: a poll with one of them has the files it had then.
    let reusable: Set<String>
    /// This build's poll keys, for the build record.
    let keys = PollKeys()

    struct Published: Sendable {
        var summary: PollSummary
        /// nil without a context (`sitegen check`) or when its files were refused.
        var key: String?
        var paths: [String]
        /// What its trip pages take from the itineraries and games (ItineraryLayout.linksDigest),
        /// part of its key; nil with the key.
        var links: String?
    }

    func publish(_ poll: Poll, log: DiagnosticLog? = nil) -> Published {
        let published = ComputeStage.count(poll, ballots: ballots[poll.id], config: config)
        let files = PlanStage.files(for: published, config: config, layout: layout, log: log)
        var key: String?, links: String?
        if let refusal = paths.plan(files, listPolls: config.listPolls) {
            render.failure.record(refusal)
        } else if let context {
            // The files are a function of the counted poll, what its trips take from the
            // itineraries and games, and the context alone: the same key means the same
            // paths and bytes as the last build's, linked without rendering.
            links = layout.linksDigest(of: poll)
            key = ValueDigest.of(published, context: context + " " + links!)
            keys.add(key!)
            if !(reusable.contains(key!) && render.reuse(files)) {
                render.write(files, kit: kit)
            }
        } else {
            render.write(files, kit: kit)
        }
        return Published(summary: PollSummary(published), key: key, paths: files.map(\.path), links: links)
    }

    /// Publishes the polls of a file kept from the last build (PollFileCache) without
    /// reading it: their files are taken as they are. False when any of them is not as the
    /// last build left it; then the file is read.
    func reuse(_ entry: PollFileCache.Entry) -> Bool {
        guard context != nil else { return false }
        let lists = entry.polls.map(\.paths)
        guard render.reuse(paths: lists.flatMap { $0 }) else { return false }
        for (poll, list) in zip(entry.polls, lists) {
            if let refusal = paths.plan(paths: list, listPolls: config.listPolls) { render.failure.record(refusal) }
            keys.add(poll.key)
        }
        return true
    }

    /// A digest of the ballots of the polls `ids`, in order: a poll file is read again when
    /// its polls' ballots changed, even if its bytes did not. Made of the digests each vote
    /// file keeps of each poll's ballots, so no kept ballot is decoded for it.
    func ballotDigest(_ ids: [UUID]) -> String {
        var bytes: [UInt8] = []
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes += $0 }
            ballots.forEachDigest(of: id) { $0.appendBytes(to: &bytes) }
            bytes.append(0)
        }
        return sha256Hex(bytes)
    }
}

/// The keys of the polls a build published and of its other keyed files (PlannedFile.key),
/// gathered from the parallel workers, for the build record (BuildRecord.pollKeys).
///
/// Keys are SHA-256 digests in hex, kept as their 32 bytes: a string each, made on the
/// worker threads and kept to the end, was 10,000 small allocations among the ones they
/// free. Anything else is kept as it is.
final class PollKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var digests: [ContentHash] = []
    private var others: [String] = []

    func add(_ key: String) {
        // Lower-case digits only, so that the key comes back as it was given.
        if key.utf8.count == 64, key.utf8.allSatisfy({ ($0 &- 0x30) < 10 || ($0 &- 0x61) < 6 }), let digest = ContentHash(hex: key) {
            lock.withLock { digests.append(digest) }
        } else {
            lock.withLock { others.append(key) }
        }
    }

    /// Sorted, so the build state does not depend on the workers' order.
    var sorted: [String] { lock.withLock { (digests.map(\.hex) + others).sorted() } }
}
