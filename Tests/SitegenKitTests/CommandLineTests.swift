import Foundation
@testable import SitegenKit
import Testing

/// Runs the real `sitegen` executable, as users and CI do.
struct SitegenProcess {
    static let executable: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sitegen"),
            Bundle.main.bundleURL.appendingPathComponent("sitegen"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("sitegen"),
            Repository.root.appendingPathComponent(".build/debug/sitegen"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// `withoutRoot`: as `nobody` when the tests run as root (CI), whom permissions do not
    /// stop; the files it must write should then belong to `nobody` (`TemporarySite.giveAway`).
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:], withoutRoot: Bool = false) throws -> Result {
        let process = Process()
        guard let executable else { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "sitegen executable not found next to the tests"]) }
        if withoutRoot && getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(TemporarySite.nobody)", "--regid=\(TemporarySite.nobody)", "--clear-groups", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = folder
        // Tests pin plain output: no workflow annotations even when CI runs inside GitHub Actions.
        var base = ProcessInfo.processInfo.environment
        base["GITHUB_ACTIONS"] = nil
        process.environment = base.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite("Command line (README.md)", .serialized)
struct CommandLineTests {
    func goldenSite() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        return site
    }

    @Test("build exits 0 and prints the summary line")
    func buildSucceeds() throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("Built 25 pages (36 files) from 2 polls and 8 ballots for \"Golden Trips\" in "))
        #expect(result.stdout.hasSuffix(" s → Output/\n"))
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output/polls/X7K9M2/results.json").path))
    }

    @Test("A bad export exits 1, names file, line, column and field, and leaves the previous output exactly as it was")
    func inputErrorKeepsOutput() throws {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        let before = try fileTree(site.root.appendingPathComponent("Output"))
        try site.write("Data/votes/broken.json", "[\n  {\"id\": \"not-a-uuid\"}\n]\n")
        try site.write("Data/polls/zz.json", "{\"title\": 3}")
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == """
        Data/polls/zz.json:1:1: error: 5 required fields of the poll are missing: "id" (or "pollId"), "shareCode", "tripSnapshots", "createdAt", "modifiedAt"
        Data/votes/broken.json:2:3: error: [0]: 5 required fields of the vote are missing: "pollId", "odg" (or "voterId"), "rankings", "votedAt", "modifiedAt"
        2 errors in the inputs; nothing was written.

        """)
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }

    @Test("An unknown site.yml key exits 2 with its position")
    func configError() throws {
        let site = try goldenSite()
        try site.write("site.yml", "title: Trips\nbaseUrl: https://example.org/\n")
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("site.yml:2:1: error: baseUrl: unknown key (did you mean \"baseURL\"?); expected one of: "))
    }

    @Test("An input folder that names a file is a site.yml error at the setting; no site.yml says how to make one")
    func inputFolderIsAFile() throws {
        let site = try goldenSite()
        try site.write("site.yml", try site.read("site.yml") + "inputs:\n  votes: site.yml\n")
        let lines = try site.read("site.yml").split(separator: "\n", omittingEmptySubsequences: false).count
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 2)
        #expect(result.stderr == "site.yml:\(lines - 1):10: error: inputs.votes: expected a folder, found a file: \"site.yml\"\n")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("site.yml"))
        let missing = try SitegenProcess.run(["build"], in: site.root)
        #expect(missing.status == 2)
        #expect(missing.stderr == "site.yml: error: cannot read the site configuration: No such file or directory (`sitegen init` makes a starter site; --config names another file)\n")
    }

    @Test("A usage error exits 2")
    func usageError() throws {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build", "--colour"], in: site.root).status == 2)
        #expect(try SitegenProcess.run(["build", "--date", "June 12"], in: site.root).status == 2)
        #expect(try SitegenProcess.run(["publish"], in: site.root).status == 2)
        // check takes the options that decide the site, as build does, and checks them alike.
        #expect(try SitegenProcess.run(["check", "--date", "2026-13-01"], in: site.root).status == 2)
        let refused = try SitegenProcess.run(["check", "--quiet", "--output", "Data"], in: site.root)
        #expect(refused.status == 3)
        #expect(refused.stderr.hasPrefix("error: Data: refusing to use this output folder"))
        #expect(try SitegenProcess.run(["check", "--quiet", "--output", "elsewhere", "--date", "2026-07-01", "--seed", "3"], in: site.root).status == 0)
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("elsewhere").path))
        // A folder of someone else's is refused by check as by a first build.
        try site.write("web/mine.txt", "mine")
        let foreign = try SitegenProcess.run(["check", "--quiet", "--output", "web"], in: site.root)
        #expect(foreign.status == 3)
        #expect(foreign.stderr == "error: web: refusing to replace this folder: 1 file in it was not written by sitegen: mine.txt (there is no record of an earlier build here: .web.sitegen-state.json is missing). Move it away, or list it under `keep:` in site.yml\n")
        // No command at all is one too (a CI step that lost its "build" passed), unlike --help.
        let none = try SitegenProcess.run([], in: site.root)
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("Error: name a command: build, check, serve or init\n"))
        #expect(try SitegenProcess.run(["--help"], in: site.root).status == 0)
    }

    @Test("Bad build options are usage errors that say what is wrong and show the build's usage", arguments: [
        (["--date", "2026-13-01"], "Error: --date must be a date such as 2026-06-12"),
        // Once "Missing value for '--seed'".
        (["--seed", "-1"], "Error: The value '-1' is invalid for '--seed <seed>'"),
        // Once exit 3, "cannot write the list of changes: Is a directory".
        (["--changes", ""], "Error: --changes needs a file name"),
        (["--output", ""], "Error: --output needs a folder"),
    ])
    func badBuildOptions(_ arguments: [String], _ message: String) throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["build"] + arguments, in: site.root)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"))
        #expect(result.stderr.contains("Usage: sitegen build "))
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
    }

    /// Runs `command` on the golden site after replacing `edits` (old → new) in one template.
    func run(_ command: String, editing template: String, _ edits: [(String, String)]) throws -> (TemporarySite, SitegenProcess.Result) {
        let site = try goldenSite()
        let file = "Templates/\(template).mustache"
        try site.write(file, edits.reduce(try site.read(file)) { $0.replacingOccurrences(of: $1.0, with: $1.1) })
        return (site, try SitegenProcess.run([command], in: site.root))
    }

    @Test("A misspelled partial is a build error (exit 2), never an empty page")
    func templateError() throws {
        let (site, result) = try run("build", editing: "home", [("{{<layout}}", "{{<layuot}}"), ("{{/layout}}", "{{/layuot}}")])
        #expect(result.status == 2)
        #expect(result.stderr == "Templates/home.mustache:1:1: error: template \"home\" refers to \"layuot\", which does not exist in Templates\n")
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
    }

    @Test("A misspelt template variable is a build error (exit 2) naming the file, line and column, never empty text")
    func misspeltVariable() throws {
        let (site, result) = try run("build", editing: "poll", [("{{votersText}}", "{{votersTxt}}")])
        #expect(result.status == 2)
        #expect(result.stderr == "Templates/poll.mustache:10:31: error: {{votersTxt}}: no such variable on a poll page (did you mean \"votersText\"?)\n")
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
    }

    @Test("A misspelt section is a build error too, even in the template of a page kind this site does not have (no convoys here)")
    func misspeltSection() throws {
        let (_, result) = try run("check", editing: "convoy", [("{{#people}}", "{{#peple}}"), ("{{/people}}", "{{/peple}}")])
        #expect(result.status == 2)
        #expect(result.stderr == "Templates/convoy.mustache:101:9: error: {{#peple}}: no such variable in {{#needsSeat}} or on a convoy page (did you mean \"people\"?)\n")
    }

    /// The golden site built once: the site, its output's files, and its build state's URL.
    func builtGoldenSite() throws -> (site: TemporarySite, cold: [String: Data], state: URL) {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build", "--quiet"], in: site.root).status == 0)
        return (site, try fileTree(site.root.appendingPathComponent("Output")),
                site.root.appendingPathComponent(".Output.sitegen-state.json"))
    }

    @Test("A build state another version of sitegen wrote means a full build; a file it does not list is still refused")
    func stateOfAnotherVersion() throws {
        let (site, cold, state) = try builtGoldenSite()
        func setFormat(_ format: String) throws {
            let text = try String(contentsOf: state, encoding: .utf8)
            try Data(text.replacingOccurrences(of: #""format": "sitegen-state 2""#, with: #""format": "\#(format)""#).utf8).write(to: state)
        }
        // An older sitegen's state (or a newer one's, after a downgrade): replaced whole.
        // `--changes` lists every file as changed (nothing says which are not) and a path
        // that state lists and the new site does not have as removed.
        try setFormat("sitegen-state 1")
        let gone = #"{"path": "polls/GONE99/index.html", "sha256": "x", "size": 1, "modified": "1"}"# + "\n"
        let handle = try FileHandle(forWritingTo: state)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(gone.utf8))
        try handle.close()
        let older = try SitegenProcess.run(["build", "--verbose", "--changes", "changes.txt"], in: site.root)
        #expect(older.status == 0)
        let changes = try site.read("changes.txt").split(separator: "\n").map(String.init)
        #expect(changes == (cold.keys.map { "M \($0)" } + ["D polls/GONE99/index.html"])
            .sorted { Array($0.dropFirst(2).utf8).lexicographicallyPrecedes(Array($1.dropFirst(2).utf8)) })
        #expect(older.stderr.contains("  Poll files read: 1 of 1; vote files read: 2 of 2\n"))
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == cold)
        #expect(try String(contentsOf: state, encoding: .utf8).contains(#""format": "sitegen-state 2""#))
        // Its list still says which files are sitegen's: one it does not name stops the build.
        try setFormat("sitegen-state 9")
        try site.write("Output/notes.txt", "mine")
        let stranger = try SitegenProcess.run(["build"], in: site.root)
        #expect(stranger.status == 3)
        #expect(stranger.stderr == "error: Output: refusing to replace this folder: 1 file in it was not written by sitegen: notes.txt. Move it away, or list it under `keep:` in site.yml\n")
        // A state that cannot be read at all proves nothing, and the message says so.
        try Data("not a state\n".utf8).write(to: state)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Output/notes.txt"))
        let damaged = try SitegenProcess.run(["build"], in: site.root)
        #expect(damaged.status == 3)
        #expect(damaged.stderr.hasSuffix("and \(cold.count - 10) more (.Output.sitegen-state.json, the record of the last build here, cannot be read). Move them away, or list them under `keep:` in site.yml. Its manifest.json says sitegen built it: if nothing in it is yours, delete the folder and build again\n"))
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == cold)
        // Deleted, the same: sitegen's own site, its record lost, and what to do about it.
        try FileManager.default.removeItem(at: state)
        let lost = try SitegenProcess.run(["build"], in: site.root)
        #expect(lost.status == 3)
        #expect(lost.stderr.hasSuffix("(there is no record of an earlier build here: .Output.sitegen-state.json is missing). Move them away, or list them under `keep:` in site.yml. Its manifest.json says sitegen built it: if nothing in it is yours, delete the folder and build again\n"))
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == cold)
    }

    @Test("A build state whose record reads but whose list of files does not is refused as one that cannot be read, the site untouched")
    func stateWithDamagedList() throws {
        let (site, cold, state) = try builtGoldenSite()
        // The record (the first line) is intact, so the rebuild starts in place and reads the
        // list in the background; the second line is not a file's line.
        var lines = try String(contentsOf: state, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[1] = #"{"path": 404.html}"#
        try Data(lines.joined(separator: "\n").utf8).write(to: state)
        let damaged = try SitegenProcess.run(["build"], in: site.root)
        #expect(damaged.status == 3)
        #expect(damaged.stderr.hasPrefix("error: Output: refusing to replace this folder: \(cold.count) files in it were not written by sitegen: "))
        #expect(damaged.stderr.hasSuffix("and \(cold.count - 10) more (.Output.sitegen-state.json, the record of the last build here, cannot be read). Move them away, or list them under `keep:` in site.yml. Its manifest.json says sitegen built it: if nothing in it is yours, delete the folder and build again\n"))
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == cold)
    }

    @Test("Refusing a non-empty output folder that sitegen did not create exits 3")
    func refusesForeignOutput() throws {
        let site = try goldenSite()
        try site.write("Output/precious.txt", "keep me")
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 3)
        #expect(result.stderr == "error: Output: refusing to replace this folder: 1 file in it was not written by sitegen: precious.txt (there is no record of an earlier build here: .Output.sitegen-state.json is missing). Move it away, or list it under `keep:` in site.yml\n")
        #expect(try site.read("Output/precious.txt") == "keep me")
        // The site folder itself as output is refused too.
        #expect(try SitegenProcess.run(["build", "--output", "."], in: site.root).status == 3)
    }

    @Test("check validates everything and writes nothing")
    func checkWritesNothing() throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["check"], in: site.root)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Checked 25 pages (36 files) from 2 polls and 8 ballots"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == ["Data", "Templates", "site.yml"])
        try site.write("Data/votes/bad.json", "{")
        #expect(try SitegenProcess.run(["check"], in: site.root).status == 1)
    }

    @Test("--output and --config choose other places; a rebuild replaces the previous site")
    func outputOption() throws {
        let site = try goldenSite()
        let elsewhere = site.root.appendingPathComponent("public")
        let result = try SitegenProcess.run(["build", "--config", site.root.appendingPathComponent("site.yml").path,
                                             "--output", elsewhere.path], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("index.html").path))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/votes/tie.json"))
        #expect(try SitegenProcess.run(["build", "--output", "public"], in: site.root).status == 0)
        let results = try site.read("public/polls/TWB2AA/results.json")
        #expect(results.contains("\"voters\": 0"))
    }

    @Test("A rebuild after a font is removed or upgraded draws the cards again, as a build from nothing does")
    func fontsChangeRedrawsCards() throws {
        // A fontconfig of the test's own: three of fonts-dejavu-core's faces in a folder it owns.
        let fonts = try TemporarySite()
        let system = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu")
        try FileManager.default.createDirectory(at: fonts.root.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        for face in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"] {
            try FileManager.default.copyItem(at: system.appendingPathComponent(face), to: fonts.root.appendingPathComponent("fonts/" + face))
        }
        try fonts.write("fonts.conf", """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig><dir>\(fonts.root.path)/fonts</dir><cachedir>\(fonts.root.path)/cache</cachedir></fontconfig>
            """)
        let environment = ["FONTCONFIG_FILE": fonts.root.appendingPathComponent("fonts.conf").path]
        func build(_ site: TemporarySite) throws -> [String: Data] {
            let result = try SitegenProcess.run(["build", "--quiet", "--date", "2026-06-01"], in: site.root, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return try fileTree(site.root.appendingPathComponent("Output"))
        }
        func cards(_ tree: [String: Data]) -> [String: Data] { tree.filter { $0.key.hasSuffix("/preview.png") } }

        let site = try goldenSite()
        let before = try build(site)
        #expect(cards(before).count == 3)
        // The regular face goes (a package removed, or upgraded to other glyphs): fontconfig
        // now answers "DejaVu Sans" with another face, and the cards' text changes.
        try FileManager.default.removeItem(at: fonts.root.appendingPathComponent("fonts/DejaVuSans.ttf"))
        let rebuilt = try build(site)
        let cold = try build(try goldenSite())
        let differing = Set(rebuilt.keys).union(cold.keys).filter { rebuilt[$0] != cold[$0] }.sorted()
        #expect(differing == [], "a rebuild after the fonts changed gives what a build from nothing gives")
        for (path, card) in cards(rebuilt) {
            #expect(card != before[path], "\(path) was drawn again with the fonts now installed")
        }
    }
}
