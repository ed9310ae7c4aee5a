import Foundation
import SitegenCore
import SitegenOutput
import SitegenRender

/// Stage 6: renders planned files and writes them to the site output — the one way every
/// file of the site is made, polls (`write`, as they stream) and the rest (`run`) alike.
struct RenderStage: Sendable {
    /// nil for `sitegen check`: nothing is rendered.
    let output: (any SiteOutput)?
    let log: DiagnosticLog
    /// Why writing stopped while polls streamed.
    let failure = FirstFailure()

    /// One streamed poll's files, written at once. Once an input error is logged or a write
    /// failed, polls are still read and checked but no longer written.
    func write(_ files: [PlannedFile], kit: RenderKit) {
        guard let output, failure.message == nil, !log.hasErrors else { return }
        for file in files {
            do throws(OutputError) {
                try output.write(file.path, file.make(kit))
            } catch {
                failure.record(error.message)
                return
            }
        }
    }

    /// Before the first file: the last build's files, which the output may still be reading.
    func awaitLastBuildsFiles() throws(BuildFailure) {
        do throws(OutputError) {
            try output?.awaitLastBuildsFiles()
        } catch {
            throw .io(error.message)
        }
    }

    /// Links a streamed poll's files from the last build instead (SiteOutput.reuse); false
    /// when they must be rendered. Like `write`, does nothing once the build cannot publish.
    func reuse(_ files: [PlannedFile]) -> Bool {
        reuse(paths: files.map(\.path))
    }

    func reuse(paths: [String]) -> Bool {
        guard let output else { return false }
        guard failure.message == nil, !log.hasErrors else { return true }
        do throws(OutputError) {
            return try output.reuse(paths)
        } catch {
            failure.record(error.message)
            return true
        }
    }

    /// The keys of files kept from the last build (PlannedFile.key): `context` is what
    /// every file depends on, `last` the last build's keys, `now` collects this build's.
    struct Keys {
        let context: String
        let last: Set<String>
        let now: PollKeys
    }

    /// The rest of the site, rendered in parallel; a file whose key the last build had is
    /// kept as it is when it is still as recorded.
    func run(_ files: PendingFiles, kit: RenderKit, keys: Keys? = nil) throws(BuildFailure) {
        guard let output else { return }
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            guard failure.message == nil else { return }
            let file = files.take(index)
            do throws(OutputError) {
                if let keys, let key = file.key {
                    let time = file.readsBuildTime ? kit.buildTime.map { String($0.timeIntervalSinceReferenceDate.bitPattern) } ?? "-" : ""
                    let fileKey = sha256Hex(Array("\(keys.context)\u{0}\(file.path)\u{0}\(key)\u{0}\(time)".utf8))
                    keys.now.add(fileKey)
                    if keys.last.contains(fileKey), try output.reuse([file.path]) { return }
                }
                if let stream = file.stream {
                    try output.writePageStreamed(file.path) { try stream(kit, &$0) }
                } else {
                    try output.write(file.path, file.make(kit))
                }
            } catch {
                failure.record(error.message)
            }
        }
        if let message = failure.message { throw .io(message) }
    }
}

/// The first reason a build had to stop writing (an I/O error, a refused path), kept from
/// the parallel workers; input errors, which take precedence, are in the log.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: String?

    var message: String? { lock.withLock { first } }

    func record(_ message: String) {
        lock.withLock { if first == nil { first = message } }
    }
}
