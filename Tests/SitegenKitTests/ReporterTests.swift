import Foundation
@testable import SitegenCore
@testable import SitegenKit
import Testing

/// What a BuildReporter printed, and a clock the test moves by hand.
final class CapturedStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""
    private var time = 0.0

    var stdout: String { lock.withLock { out } }
    var stderr: String { lock.withLock { err } }
    func advance(_ seconds: Double) { lock.withLock { time += seconds } }

    var streams: BuildReporter.Streams {
        BuildReporter.Streams(standardOutput: { text in self.lock.withLock { self.out += text } },
                              standardError: { text in self.lock.withLock { self.err += text } })
    }

    func reporter(_ verbosity: BuildReporter.Verbosity, statusLine: Bool = false, annotations: Bool = false, width: Int = 80) -> BuildReporter {
        BuildReporter(verbosity: verbosity, statusLine: statusLine, annotations: annotations, streams: streams,
                      statusWidth: width, now: { self.lock.withLock { self.time } })
    }
}

@Suite("Build output: summary, --quiet, --verbose, progress and annotations")
struct ReporterTests {
    let report = BuildReport(title: "Golden Trips", output: URL(fileURLWithPath: "/tmp/site/Output"), pages: 24, files: 35,
                             polls: 2, ballots: 8, seconds: 0.04, wrote: true)
    let warning = Diagnostic(.warning, file: "Data/votes/v9.json", line: 2, column: 5, field: "pollId",
                             message: "no poll has id 6F9619FF-8B86-D011-B42D-00CF4FC964FF; this vote is ignored")

    /// Three stages, 0.12 s, 1.5 s and 0.004 s long.
    func runStages(_ reporter: BuildReporter, _ captured: CapturedStreams) {
        let names = ["Reading exports", "Rendering 12,345 files", "Writing manifest"]
        for (index, seconds) in [0.12, 1.5, 0.004].enumerated() {
            reporter.stageStarted(BuildStage(number: index + 1, count: 3, name: names[index]))
            captured.advance(seconds)
        }
    }

    @Test("Normal: diagnostics on stderr, the summary on stdout, no stage lines")
    func normal() {
        let captured = CapturedStreams()
        let reporter = captured.reporter(.normal)
        runStages(reporter, captured)
        reporter.finish(.success(report), diagnostics: [warning])
        #expect(captured.stderr == warning.description + "\n")
        #expect(captured.stdout == "Built 24 pages (35 files) from 2 polls and 8 ballots for \"Golden Trips\" in 0.04 s → /tmp/site/Output/\n")
    }

    @Test("--quiet: errors and warnings only, no summary; the failure line that explains the exit status stays")
    func quiet() {
        let captured = CapturedStreams()
        let reporter = captured.reporter(.quiet, statusLine: true)
        #expect(!reporter.showsStatusLine)
        runStages(reporter, captured)
        reporter.finish(.success(report), diagnostics: [warning])
        #expect(captured.stdout == "")
        #expect(captured.stderr == warning.description + "\n")

        let failing = CapturedStreams()
        let error = Diagnostic(.error, file: "Data/polls/zz.json", line: 1, column: 1, field: "id", message: "required field is missing")
        failing.reporter(.quiet).finish(.failure(.inputErrors(count: 1)), diagnostics: [error])
        #expect(failing.stdout == "")
        #expect(failing.stderr == "Data/polls/zz.json:1:1: error: id: required field is missing\n1 error in the inputs; nothing was written.\n")
    }

    @Test("--verbose: each stage with its duration as it ends, then diagnostics and the summary")
    func verbose() {
        #expect(BuildReporter.stageLine(BuildStage(number: 11, count: 11, name: "Publishing to /srv/www/summer-trips"), seconds: 12.346)
            == "  Publishing to /srv/www/summer-trips  12.35 s")
        let captured = CapturedStreams()
        let reporter = captured.reporter(.verbose)
        runStages(reporter, captured)
        reporter.finish(.success(report), diagnostics: [warning])
        #expect(captured.stderr == """
              Reading exports              0.12 s
              Rendering 12,345 files       1.50 s
              Writing manifest             0.00 s
            \(warning.description)

            """)
        #expect(captured.stdout.hasPrefix("Built 24 pages"))
    }

    @Test("Failures: a configuration diagnostic, an I/O message")
    func failures() {
        let configuration = CapturedStreams()
        let diagnostic = Diagnostic(.error, file: "site.yml", line: 2, column: 1, field: "baseUrl", message: "unknown key")
        configuration.reporter(.normal).finish(.failure(.configuration([diagnostic])), diagnostics: [])
        #expect(configuration.stderr == "site.yml:2:1: error: baseUrl: unknown key\n")
        #expect(configuration.stdout == "")

        let io = CapturedStreams()
        io.reporter(.normal).finish(.failure(.io("Output: cannot write: disk full")), diagnostics: [])
        #expect(io.stderr == "error: Output: cannot write: disk full\n")
    }

    @Test("In GitHub Actions every diagnostic is also a workflow command on stdout, before the summary")
    func annotations() {
        let captured = CapturedStreams()
        captured.reporter(.normal, annotations: true).finish(.success(report), diagnostics: [warning])
        #expect(captured.stdout == """
            ::warning file=Data/votes/v9.json,line=2,col=5::pollId: no poll has id 6F9619FF-8B86-D011-B42D-00CF4FC964FF; this vote is ignored
            Built 24 pages (35 files) from 2 polls and 8 ballots for "Golden Trips" in 0.04 s → /tmp/site/Output/

            """)
        #expect(captured.stderr == warning.description + "\n")

        let failing = CapturedStreams()
        let diagnostic = Diagnostic(.error, file: "site.yml", line: 2, column: 1, field: "baseUrl", message: "unknown key")
        failing.reporter(.quiet, annotations: true).finish(.failure(.configuration([diagnostic])), diagnostics: [])
        #expect(failing.stdout == "::error file=site.yml,line=2,col=1::baseUrl: unknown key\n")
        let io = CapturedStreams()
        io.reporter(.normal, annotations: true).finish(.failure(.io("Output: cannot write")), diagnostics: [])
        #expect(io.stdout == "::error::Output: cannot write\n")
    }

    @Test("The status line: stage number of count, the name, an ellipsis; shortened to the terminal's width")
    func statusText() {
        let stage = BuildStage(number: 9, count: 11, name: "Rendering 12,345 files")
        #expect(BuildReporter.statusText(stage, width: 80) == "[9/11] Rendering 12,345 files…")
        #expect(BuildReporter.statusText(stage, width: 20) == "[9/11] Rendering 1…")
        // A stage beyond the count (a stage added without updating the count) still reads sensibly.
        #expect(BuildReporter.statusText(BuildStage(number: 12, count: 11, name: "Extra"), width: 80) == "[12/12] Extra…")
    }

    @Test("On a terminal, the status line is redrawn in place only when it changes, and cleared at the end")
    func statusLine() {
        let captured = CapturedStreams()
        let reporter = captured.reporter(.normal, statusLine: true)
        reporter.stageStarted(BuildStage(number: 8, count: 11, name: "Planning pages"))
        reporter.redraw()
        reporter.redraw()
        reporter.stageStarted(BuildStage(number: 9, count: 11, name: "Rendering 35 files"))
        reporter.redraw()
        reporter.finish(.success(report), diagnostics: [warning])
        #expect(captured.stderr == "\r[8/11] Planning pages…\u{1B}[K\r[9/11] Rendering 35 files…\u{1B}[K\r\u{1B}[K" + warning.description + "\n")
        #expect(captured.stdout.hasPrefix("Built 24 pages"))
    }

    @Test("The timer draws a stage that lasts, at most four times a second; a quick build draws nothing")
    func statusTimer() async throws {
        let slow = CapturedStreams()
        let reporter = slow.reporter(.normal, statusLine: true)
        reporter.stageStarted(BuildStage(number: 9, count: 11, name: "Rendering 35 files"))
        try await Task.sleep(for: .milliseconds(1200))
        reporter.finish(.success(report), diagnostics: [])
        #expect(slow.stderr == "\r[9/11] Rendering 35 files…\u{1B}[K\r\u{1B}[K")

        let quick = CapturedStreams()
        let quickReporter = quick.reporter(.normal, statusLine: true)
        quickReporter.stageStarted(BuildStage(number: 1, count: 11, name: "Reading site.yml"))
        quickReporter.finish(.success(report), diagnostics: [])
        #expect(quick.stderr == "")
    }

    @Test("The builder reports every stage, numbered up to its count, for build and for check")
    func stageNumbers() throws {
        for write in [true, false] {
            let site = try CommandLineTests().goldenSite()
            var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
            options.write = write
            let stages = StageRecorder()
            var builder = SiteBuilder(options: options, log: DiagnosticLog())
            builder.progress = { stages.add($0) }
            _ = try builder.run()
            let count = SiteBuilder.stageCount(writing: write)
            #expect(stages.all.map(\.number) == Array(1...count))
            #expect(stages.all.allSatisfy { $0.count == count })
            #expect(stages.all.map(\.name).prefix(5) == ["Reading \(displayPath(options.configFile))",
                                                          write ? "Reading inputs and writing polls" : "Reading inputs",
                                                          "Checking across exports", "Computing build time and tips", "Planning pages"])
        }
    }
}

final class StageRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stages: [BuildStage] = []
    func add(_ stage: BuildStage) { lock.withLock { stages.append(stage) } }
    var all: [BuildStage] { lock.withLock { stages } }
}

@Suite("--quiet and --verbose of the real executable", .serialized)
struct ReporterCommandLineTests {
    func goldenSite() throws -> TemporarySite { try CommandLineTests().goldenSite() }

    /// Outside GitHub Actions, whatever runs the tests.
    let plain = ["GITHUB_ACTIONS": "", "CI": ""]

    @Test("--quiet prints nothing for a clean build, and only the problems otherwise")
    func quiet() throws {
        let site = try goldenSite()
        let clean = try SitegenProcess.run(["build", "--quiet"], in: site.root, environment: plain)
        #expect(clean.status == 0)
        #expect(clean.stdout == "")
        #expect(clean.stderr == "")
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output/index.html").path))

        try site.write("Data/votes/orphan.json", "{\"id\": \"11111111-1111-1111-1111-111111111111\", \"pollId\": \"22222222-2222-2222-2222-222222222222\", \"odg\": \"x\", \"rankings\": [0, 1], \"votedAt\": 0, \"modifiedAt\": 0}\n")
        let warned = try SitegenProcess.run(["check", "--quiet"], in: site.root, environment: plain)
        #expect(warned.status == 0)
        #expect(warned.stdout == "")
        #expect(warned.stderr == "Data/votes/orphan.json:1:58: warning: pollId: no poll has id 22222222-2222-2222-2222-222222222222; this vote is ignored\n")
    }

    @Test("Votes of a poll that has an error are not said to have no poll: it was not read")
    func votesOfABrokenPoll() throws {
        let site = try goldenSite()
        let polls = try String(contentsOf: site.root.appendingPathComponent("Data/polls/polls.json"), encoding: .utf8)
        try site.write("Data/polls/polls.json", polls.replacingOccurrences(of: "\"shareCode\": \"TWB2AA\"", with: "\"shareCode\": \"TWB2\""))
        let result = try SitegenProcess.run(["check", "--quiet"], in: site.root, environment: plain)
        #expect(result.status == 1)
        #expect(result.stderr == """
            Data/polls/polls.json:33:18: error: [1].shareCode: share code "TWB2" must be exactly 6 characters from ABCDEFGHJKMNPQRSTUVWXYZ23456789
            Data/votes/tie.json:2:60: warning: [0].pollId: no poll read without errors has id 7F9619FF-8B86-D011-B42D-00CF4FC964FF; this vote is ignored
            Data/votes/tie.json:3:60: warning: [1].pollId: no poll read without errors has id 7F9619FF-8B86-D011-B42D-00CF4FC964FF; this vote is ignored
            1 error in the inputs; nothing was written.

            """)
    }

    @Test("A vote id read again is one warning per pair of files, at the first repeated vote of the second")
    func repeatedVoteIds() throws {
        let site = try goldenSite()
        let tie = try String(contentsOf: site.root.appendingPathComponent("Data/votes/tie.json"), encoding: .utf8)
        // An old export of both votes beside the file, and a file repeating one of its own.
        try site.write("Data/votes/zz-old.json", tie)
        let vote = "{\"id\": \"c0000000-0000-0000-0000-000000000001\", \"pollId\": \"7f9619ff-8b86-d011-b42d-00cf4fc964ff\", \"odg\": \"v\", \"rankings\": [0, 1], \"votedAt\": 0, \"modifiedAt\": 0}"
        try site.write("Data/votes/zz-twice.json", "[\(vote),\n \(vote)]\n")
        let warned = try SitegenProcess.run(["check", "--quiet"], in: site.root, environment: plain)
        #expect(warned.status == 0)
        #expect(warned.stderr == """
            Data/votes/zz-old.json:2:10: warning: [0].id: this vote's id and 1 more of this file's were read before, from Data/votes/tie.json: each is one ballot, counted in its newest version
            Data/votes/zz-twice.json:2:9: warning: [1].id: this vote's id was read before, earlier in this file: it is one ballot, counted in its newest version

            """)
        // The summary counts each vote once: the golden site's 8 and zz-twice.json's one.
        let summary = try SitegenProcess.run(["check"], in: site.root, environment: plain)
        #expect(summary.stdout.hasPrefix("Checked 25 pages (36 files) from 2 polls and 9 ballots for \"Golden Trips\" in "), "\(summary.stdout)")
    }

    @Test("An input folder or file that cannot be read stops the build (exit 3) and names it; the site stays as it was")
    func unreadableInputs() throws {
        let site = try goldenSite()
        try site.giveAway()
        let good = try SitegenProcess.run(["build", "--quiet"], in: site.root, environment: plain, withoutRoot: true)
        #expect(good.status == 0, "\(good.stderr)")
        let home = site.root.appendingPathComponent("Output/index.html")
        let published = try Data(contentsOf: home)
        // Taken as empty, the folder published "Nobody has voted yet" with exit 0.
        let votes = site.root.appendingPathComponent("Data/votes").path
        chmod(votes, 0)
        defer { chmod(votes, 0o755) }
        let folder = try SitegenProcess.run(["build", "--quiet", "--changes", "changes.txt"], in: site.root, environment: plain, withoutRoot: true)
        #expect(folder.status == 3)
        #expect(folder.stderr == """
            Data/votes: error: cannot list this folder: Permission denied
            error: 1 input could not be read (above); nothing was written

            """)
        chmod(votes, 0o755)
        let file = site.root.appendingPathComponent("Data/votes/tie.json").path
        chmod(file, 0)
        defer { chmod(file, 0o644) }
        let unreadable = try SitegenProcess.run(["check", "--quiet"], in: site.root, environment: plain, withoutRoot: true)
        #expect(unreadable.status == 3)
        #expect(unreadable.stderr == """
            Data/votes/tie.json: error: cannot read the file: Permission denied
            error: 1 input could not be read (above); nothing was written

            """)
        #expect(try Data(contentsOf: home) == published)
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("changes.txt").path))
    }

    @Test("--verbose prints every stage with its duration on stderr, and the summary on stdout")
    func verbose() throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["build", "--verbose"], in: site.root, environment: plain)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Built "))
        var lines = result.stderr.split(separator: "\n").map(String.init)
        // After the stages, how many poll files were read (all of them in a first build).
        #expect(lines.popLast() == "  Poll files read: 1 of 1; vote files read: 2 of 2")
        let pattern = /^  (.+?) +\d+\.\d\d s$/
        #expect(lines.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(lines)")
        let names = lines.compactMap { $0.wholeMatch(of: pattern).map { String($0.1) } }
            .map { $0.wholeMatch(of: /Rendering [\d,]+ files/) != nil ? "Rendering N files" : $0 }
        #expect(names == ["Reading site.yml", "Reading inputs and writing polls", "Checking across exports",
                          "Computing build time and tips", "Planning pages", "Rendering N files", "Publishing to Output"])
    }

    @Test("--quiet and --verbose together are a usage error")
    func both() throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["build", "--quiet", "--verbose"], in: site.root, environment: plain)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--quiet and --verbose cannot be used together"))
    }

    @Test("With GITHUB_ACTIONS=true a failing build also prints workflow commands on stdout")
    func annotations() throws {
        let site = try goldenSite()
        try site.write("Data/polls/zz.json", "{\"title\": 3}")
        let result = try SitegenProcess.run(["build"], in: site.root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        #expect(result.stdout == "::error file=Data/polls/zz.json,line=1,col=1::5 required fields of the poll are missing: \"id\" (or \"pollId\"), \"shareCode\", \"tripSnapshots\", \"createdAt\", \"modifiedAt\"\n")
        #expect(result.stderr == """
            Data/polls/zz.json:1:1: error: 5 required fields of the poll are missing: "id" (or "pollId"), "shareCode", "tripSnapshots", "createdAt", "modifiedAt"
            1 error in the inputs; nothing was written.

            """)
    }
}
