import ArgumentParser
import Foundation
import SitegenCore
import SitegenInput
import SitegenKit
import SitegenServe

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on this machine and rebuild it when an input changes.",
        discussion: """
        Open pages reload after each successful rebuild (the reload script is added only to served \
        pages, never to the files written). A failed rebuild prints its diagnostics and keeps \
        serving the previous site.
        """
    )

    @OptionGroup var site: SiteOptions

    @Option(name: .long, help: "Port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080

    @Option(name: .long, help: "Address to listen on. 0.0.0.0 or :: shows the site to your whole network.")
    var host = "127.0.0.1"

    func validate() throws {
        do {
            _ = try ListenAddress(host: host, port: port)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let address = try ListenAddress(host: host, port: port)
        let configFile = URL(fileURLWithPath: site.config).standardizedFileURL
        let config: SiteConfig
        do {
            config = try SiteConfigLoader.load(configFile)
        } catch {
            standardError(error.description)
            throw BuildFailure.configuration(error.diagnostics)
        }

        // Bad exports or templates still leave something to serve (the previous site, if any)
        // and a reason to watch; an output folder sitegen must not touch does not.
        let served = ServedSite(root: config.output)
        do {
            try build(configFile)
        } catch .io(let message) {
            throw BuildFailure.io(message)
        } catch {
            standardOutput("The site has errors; serving what \(displayPath(config.output))/ holds until they are fixed.")
        }

        let server: PreviewServer
        let listeningPort: UInt16
        do {
            server = try PreviewServer(address: address, site: served)
            listeningPort = try waitFor { try await server.start() }
        } catch {
            standardError("error: \(error)")
            throw BuildFailure.io("\(error)")
        }
        standardOutput("Serving \(address.url(port: listeningPort)) — press Ctrl-C to stop")
        if address.isEveryInterface {
            standardOutput("Listening on every network interface: anyone on your network can open the site.")
        }

        let building = NSLock()
        ShutdownSignals.install(waitingFor: building)
        watchAndRebuild(configFile: configFile, served: served, building: building)
    }

    /// Runs forever on this thread: each settled change gives one rebuild.
    func watchAndRebuild(configFile: URL, served: ServedSite, building: NSLock) -> Never {
        let watcher = InputWatcher()
        var inputs = Self.watchedInputs(configFile)
        var baseline = InputSnapshot.scan(inputs)
        while true {
            let change = watcher.waitForChange(after: baseline) { inputs }
            baseline = change.snapshot
            standardOutput("\(Self.describe(change.changed)) changed; rebuilding")
            building.withLock {
                do {
                    try build(configFile)
                    if let output = try? SiteConfigLoader.load(configFile).output {
                        served.publish(root: output)
                    }
                } catch {
                    standardOutput("The rebuild failed; still serving the previous site.")
                }
            }
            // site.yml may now name other folders: watch those from here on.
            let updated = Self.watchedInputs(configFile)
            if updated != inputs {
                inputs = updated
                baseline = InputSnapshot.scan(inputs)
            }
        }
    }

    /// The same pipeline and printing as `sitegen build`.
    func build(_ configFile: URL) throws(BuildFailure) {
        do {
            try runBuild(BuildOptions(configFile: configFile), verbose: site.verbose, quiet: site.quiet)
            fflush(nil)
        } catch let failure as BuildFailure {
            fflush(nil)
            throw failure
        } catch {
            throw .io("\(error)")
        }
    }

    /// What a build reads; only site.yml while it cannot be read.
    static func watchedInputs(_ configFile: URL) -> WatchedInputs {
        guard let config = try? SiteConfigLoader.load(configFile) else { return WatchedInputs(roots: [configFile]) }
        return WatchedInputs(config: config)
    }

    static func describe(_ paths: [String]) -> String {
        let shown = paths.prefix(3).map { displayPath(URL(fileURLWithPath: $0)) }.joined(separator: ", ")
        return paths.count > 3 ? "\(shown) and \(paths.count - 3) more" : shown
    }
}

/// Ctrl-C (or SIGTERM from a test or service manager) ends `sitegen serve` with status 0, after
/// any build in progress has swapped its site in, so no staging folder is left behind.
/// A second Ctrl-C stops at once.
enum ShutdownSignals {
    static func install(waitingFor building: NSLock) {
        let queue = DispatchQueue(label: "sitegen.serve.signals")
        let stopping = StopRequest()
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                guard stopping.begin() else { exit(130) }
                DispatchQueue.global().async {
                    building.lock()
                    standardOutput("Stopped.")
                    exit(0)
                }
            }
            source.resume()
            stopping.keep(source)
        }
    }

    final class StopRequest: @unchecked Sendable {
        private let lock = NSLock()
        private var requested = false
        private var sources: [any DispatchSourceSignal] = []

        /// true the first time only.
        func begin() -> Bool {
            lock.withLock {
                defer { requested = true }
                return !requested
            }
        }

        func keep(_ source: any DispatchSourceSignal) {
            lock.withLock { sources.append(source) }
        }
    }
}

/// Runs async work from the synchronous command and waits for it.
func waitFor<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = AsyncOutcome<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { outcome.result = .success(try await operation()) } catch { outcome.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// Written by the task before it signals, read after the wait: the semaphore orders the two.
private final class AsyncOutcome<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}

/// Lines for the person at the terminal, flushed at once (a pipe would otherwise hold them back).
func standardOutput(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
