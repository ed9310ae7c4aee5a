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
struct PollStream {
    let loader: ExportLoader
    let steps: PollSteps

    /// Every poll of `urls`, summarised in file order, then record order.
    func run(_ urls: [URL]) -> [PollSummary] {
        let summaries = ConcurrentResults<[PollSummary]>(count: urls.count)
        DispatchQueue.concurrentPerform(iterations: urls.count) { fileIndex in
            let (polls, _) = loader.loadFile(urls[fileIndex], cloudKit: CloudKitDump.poll) { (decoder, field, source) throws(FieldError) in
                try decoder.poll(field, source: source)
            }
            let results = ConcurrentResults<PollSummary>(count: polls.count)
            DispatchQueue.concurrentPerform(iterations: polls.count) { index in
                results[index] = steps.publish(polls[index])
            }
            summaries[fileIndex] = results.values
            // The file's parse tree and pages are freed; give the pages back to the system.
            sitegen_trim_heap()
        }
        return Array(summaries.values.joined())
    }
}

/// What happens to one poll as it streams past: the same compute, plan and render steps as
/// every other page kind goes through in its own stage.
struct PollSteps: Sendable {
    let config: SiteConfig
    let ballots: [UUID: [Ballot]]
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

    func publish(_ poll: Poll) -> PollSummary {
        let published = ComputeStage.count(poll, ballots: ballots[poll.id] ?? [], config: config)
        let files = PlanStage.files(for: published, config: config, layout: layout)
        if let refusal = paths.plan(files, listPolls: config.listPolls) {
            render.failure.record(refusal)
        } else if let context {
            // The files are a function of the counted poll and the context alone: the same key
            // means the same paths and bytes as the last build's, linked without rendering.
            let key = ValueDigest.of(published, context: context)
            keys.add(key)
            if !(reusable.contains(key) && render.reuse(files)) {
                render.write(files, kit: kit)
            }
        } else {
            render.write(files, kit: kit)
        }
        return PollSummary(published)
    }
}

/// The keys of the polls a build published, gathered from the parallel workers.
final class PollKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String] = []

    func add(_ key: String) {
        lock.withLock { keys.append(key) }
    }

    /// Sorted, so the build state does not depend on the workers' order.
    var sorted: [String] { lock.withLock { keys.sorted() } }
}
