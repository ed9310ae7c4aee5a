import Foundation
import SitegenCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stage of the pipeline as it starts, e.g. number 4 of 11, "Reading pages".
public struct BuildStage: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public let number: Int
    /// How many stages this run goes through (`check` stops before rendering).
    public let count: Int
    public let name: String

    public init(number: Int, count: Int, name: String) {
        self.number = number
        self.count = count
        self.name = name
    }

    public var description: String { name }
}

/// Everything a build prints besides its files.
///
/// - Diagnostics go to stderr; in GitHub Actions each is also a workflow command on stdout.
/// - The summary line goes to stdout, except with `--quiet`.
/// - On a terminal outside CI, a single status line (`[9/11] Rendering 12,345 files…`) is
///   redrawn in place by a timer, at most four times a second and never per file, and is
///   cleared at the end; a build shorter than a quarter second draws nothing.
/// - `--verbose` prints each stage with its duration when it ends (`  Reading exports  0.12 s`).
public final class BuildReporter: @unchecked Sendable {
    public enum Verbosity: Sendable { case quiet, normal, verbose }

    /// Where text goes; tests capture it.
    public struct Streams: Sendable {
        public var standardOutput: @Sendable (String) -> Void
        public var standardError: @Sendable (String) -> Void

        public init(standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void) {
            self.standardOutput = standardOutput
            self.standardError = standardError
        }

        public static let process = Streams(standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
                                            standardError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    public let verbosity: Verbosity
    public let showsStatusLine: Bool
    public let annotates: Bool
    /// Terminal columns; a longer status line would wrap, and `\r` cannot take it back.
    public let statusWidth: Int
    static let redrawInterval: DispatchTimeInterval = .milliseconds(250)

    private let streams: Streams
    private let now: @Sendable () -> Double
    private let lock = NSLock()
    private var current: (stage: BuildStage, started: Double)?
    private var drawnStatus: String?
    private var timer: DispatchSourceTimer?

    /// `now` is a monotonic time in seconds; injected so tests see fixed durations.
    public init(verbosity: Verbosity, statusLine: Bool, annotations: Bool, streams: Streams = .process,
                statusWidth: Int = 80, now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.verbosity = verbosity
        showsStatusLine = statusLine && verbosity != .quiet
        annotates = annotations
        self.streams = streams
        self.statusWidth = max(statusWidth, 20)
        self.now = now
    }

    deinit { timer?.cancel() }

    /// For the `sitegen` process: a status line only when stderr is a terminal and this is
    /// not CI (where logs keep every `\r` frame); annotations when GitHub Actions runs us.
    public static func forProcess(verbosity: Verbosity, environment: [String: String]) -> BuildReporter {
        let annotations = WorkflowAnnotation.isEnabled(environment: environment)
        let isCI = annotations || !(environment["CI"] ?? "").isEmpty && environment["CI"] != "false"
        let terminal = isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
        return BuildReporter(verbosity: verbosity, statusLine: terminal && !isCI, annotations: annotations,
                             statusWidth: terminalColumns() ?? 80)
    }

    /// Pass to `SiteBuilder.progress`.
    public func stageStarted(_ stage: BuildStage) {
        lock.withLock {
            endStage()
            current = (stage, now())
            if showsStatusLine && timer == nil { startTimer() }
        }
    }

    /// Prints what the run found and how it ended; call once, after `SiteBuilder.run()`.
    public func finish(_ result: Result<BuildReport, BuildFailure>, log: DiagnosticLog) {
        finish(result, diagnostics: log.all, omissions: log.omissions)
    }

    /// `omissions`: what the log counted without keeping, printed after the diagnostics.
    /// In CI annotations a summarised problem is one annotation, not one per example.
    public func finish(_ result: Result<BuildReport, BuildFailure>, diagnostics: [Diagnostic],
                       omissions: [DiagnosticLog.Omission] = []) {
        lock.withLock {
            endStage()
            timer?.cancel()
            timer = nil
            clearStatus()
        }
        if verbosity == .verbose, case .success(let report) = result, !report.upToDate, report.pollFiles > 0 {
            streams.standardError("  \(report.pollFilesLine)\n")
        }
        let summarised = Set(omissions.compactMap(\.summary))
        for diagnostic in diagnostics {
            report(diagnostic, annotate: !summarised.contains(diagnostic.summary ?? ""))
        }
        for omission in omissions {
            streams.standardError(omission.description + "\n")
            if annotates { streams.standardOutput(WorkflowAnnotation.command(omission.severity, message: omission.description) + "\n") }
        }
        switch result {
        case .success(let report):
            if verbosity != .quiet { streams.standardOutput(report.summary + "\n") }
        case .failure(.configuration(let problems)):
            problems.forEach { report($0) }
        case .failure(.io(let message)):
            streams.standardError("error: \(message)\n")
            if annotates { streams.standardOutput(WorkflowAnnotation.command(.error, message: message) + "\n") }
        case .failure(.inputErrors(let count)):
            // Kept with --quiet: it is the error that explains the exit status.
            streams.standardError("\(Formatting.count(count, "error")) in the inputs; nothing was written.\n")
        }
    }

    /// "[4/11] Reading pages…", shortened to fit the terminal.
    public static func statusText(_ stage: BuildStage, width: Int) -> String {
        let text = "[\(stage.number)/\(max(stage.number, stage.count))] \(stage.name)…"
        return text.count < width ? text : String(text.prefix(width - 2)) + "…"
    }

    /// "  Reading exports           0.12 s": durations line up unless a name is very long.
    public static func stageLine(_ stage: BuildStage, seconds: Double) -> String {
        let name = stage.name.count < stageNameWidth ? stage.name + String(repeating: " ", count: stageNameWidth - stage.name.count) : stage.name
        return "  \(name)  \(String(format: "%5.2f s", seconds))"
    }
    static let stageNameWidth = 26

    private func report(_ diagnostic: Diagnostic, annotate: Bool = true) {
        streams.standardError(diagnostic.description + "\n")
        if annotates && annotate { streams.standardOutput(WorkflowAnnotation.command(for: diagnostic) + "\n") }
    }

    // MARK: Under the lock

    private func endStage() {
        guard let (stage, started) = current else { return }
        current = nil
        if verbosity == .verbose {
            clearStatus()
            streams.standardError(Self.stageLine(stage, seconds: now() - started) + "\n")
        }
    }

    private func clearStatus() {
        guard drawnStatus != nil else { return }
        streams.standardError("\r\u{1B}[K")
        drawnStatus = nil
    }

    private func startTimer() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + Self.redrawInterval, repeating: Self.redrawInterval)
        timer.setEventHandler { [weak self] in self?.redraw() }
        timer.resume()
        self.timer = timer
    }

    /// Called by the timer; internal so tests can draw without waiting for it.
    func redraw() {
        lock.withLock {
            guard timer != nil, let stage = current?.stage else { return }
            let text = Self.statusText(stage, width: statusWidth)
            guard text != drawnStatus else { return }
            // ESC [ K clears the rest of the line when the new text is shorter.
            streams.standardError("\r" + text + "\u{1B}[K")
            drawnStatus = text
        }
    }

    static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
