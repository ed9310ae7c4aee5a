import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenOutput
@testable import SitegenRender
import Testing

/// The pipeline building into a MemoryOutput: the published-site rules without a disk.
@Suite("Building into memory")
struct MemoryOutputTests {
    func build(_ site: TemporarySite, into output: MemoryOutput, log: DiagnosticLog = DiagnosticLog()) throws(BuildFailure) -> BuildReport {
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.siteOutput = output
        return try SiteBuilder(options: options, log: log).run()
    }

    func text(_ bytes: [UInt8]?) -> String {
        String(decoding: bytes ?? [], as: UTF8.self)
    }

    @Test("The golden site built into memory is the expected tree, byte for byte, and no Output folder appears")
    func goldenTree() throws {
        let site = try CommandLineTests().goldenSite()
        let output = MemoryOutput()
        let report = try build(site, into: output)
        let expected = try fileTree(SiteBuildTests.golden.appendingPathComponent("expected"))
        #expect(output.files.mapValues { Data($0) } == expected)
        #expect(report.files == expected.count)
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
        #expect(output.lastRecord?.files == expected.count)
        #expect(Set(output.modificationTimes.values) == [1])
    }

    @Test("Nothing changed: the rebuild writes nothing and replays the warnings; a changed input rewrites only what it changes")
    func rebuilds() throws {
        let site = try CommandLineTests().goldenSite()
        try site.write("Data/votes/orphan.json", #"{"id": "c0000000-0000-0000-0000-000000000009", "pollId": "00000000-0000-0000-0000-000000000000", "odg": "x", "rankings": [0, 1], "votedAt": 0, "modifiedAt": 0}"#)
        let output = MemoryOutput()
        let first = try build(site, into: output)
        #expect(!first.upToDate)
        // The ignored vote is not one of the site's ballots (the golden polls have 8).
        #expect(first.ballots == 8)
        let published = output.files

        let log = DiagnosticLog()
        let second = try build(site, into: output, log: log)
        #expect(second.upToDate)
        #expect(second.summary.hasPrefix("Nothing changed: \(first.pages) pages (\(first.files) files)"))
        #expect(log.all.map(\.message) == ["no poll has id 00000000-0000-0000-0000-000000000000; this vote is ignored"])
        #expect(Set(output.modificationTimes.values) == [1])

        // A new title changes every page, and no JSON result or asset.
        let yml = try String(contentsOf: site.root.appendingPathComponent("site.yml"), encoding: .utf8)
        try site.write("site.yml", yml.replacingOccurrences(of: "title: Golden Trips", with: "title: Silver Trips"))
        _ = try build(site, into: output)
        let rewritten = Set(output.modificationTimes.filter { $0.value == 2 }.keys)
        let changed = Set(output.files.keys.filter { output.files[$0] != published[$0] })
        #expect(rewritten == changed)
        #expect(changed.contains("index.html") && changed.contains("manifest.json"))
        #expect(!changed.contains("assets/site.css"))
        #expect(!changed.contains { $0.hasSuffix("results.json") })
    }

    @Test("A build that fails leaves the published site in memory as it was")
    func failedBuild() throws {
        let site = try CommandLineTests().goldenSite()
        let output = MemoryOutput()
        _ = try build(site, into: output)
        let published = output.files
        try site.write("Data/polls/zz.json", "{\"title\": 3}")
        #expect(throws: BuildFailure.self) { try build(site, into: output) }
        #expect(output.files == published)
        #expect(Set(output.modificationTimes.values) == [1])
    }

    @Test("Files no build wrote are refused, naming them, unless kept; kept files are carried over")
    func strangersAndKept() throws {
        let site = try CommandLineTests().goldenSite()
        let notes = Array("mine".utf8)
        let refused = MemoryOutput(files: ["notes.txt": notes, "CNAME": notes])
        do {
            _ = try build(site, into: refused)
            Issue.record("the build went ahead")
        } catch {
            guard case .io(let message) = error else { Issue.record("\(error)"); return }
            #expect(message == "Output: refusing to replace this folder: 2 files in it were not written by sitegen: CNAME, notes.txt "
                + "(there is no record of an earlier build here: its build record is missing). Move them away, or list them under `keep:` in site.yml")
        }
        #expect(refused.files == ["notes.txt": notes, "CNAME": notes])

        let kept = MemoryOutput(files: ["notes/a.txt": notes], keep: ["notes"])
        _ = try build(site, into: kept)
        #expect(kept.files["notes/a.txt"] == notes)
        #expect(kept.files["index.html"] != nil)
        let clash = MemoryOutput(files: ["index.html": notes], keep: ["index.html"])
        do {
            _ = try build(site, into: clash)
            Issue.record("the build went ahead")
        } catch {
            guard case .io(let message) = error else { Issue.record("\(error)"); return }
            #expect(message == "Output/index.html: listed under `keep:` in site.yml, but sitegen writes this path")
        }
        #expect(clash.files == ["index.html": notes])
    }

    @Test("A page rendered and published without a disk: the render stage, the manifest and the record")
    func renderOnePage() throws {
        let output = MemoryOutput()
        try output.open()
        #expect(try output.lastBuild(matching: "f1") == nil)
        let page = PlannedFile(path: "hello/index.html") { _ in Array("<p>Hello</p>\n".utf8) }
        let config = try SiteConfigLoader.parse("title: T\n", file: URL(fileURLWithPath: "/site/site.yml"))
        let kit = RenderKit(config: config, templates: try TemplateSet.load(from: Repository.root.appendingPathComponent("Templates"), required: []), links: SiteLinks(style: config.urls, baseURL: nil),
                            format: Formatting(timeZone: .gmt), buildTime: nil, navigation: [])
        try RenderStage(output: output, log: DiagnosticLog()).run(PendingFiles([page]), kit: kit)
        #expect(output.files == [:], "nothing is published before publish")
        try output.writeManifest(Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: []))
        #expect(output.fileCount == 2)
        let record = BuildRecord(fingerprint: "f1", pages: 1, files: 2, polls: 0, ballots: 0, diagnostics: [])
        try output.publish(record)
        #expect(text(output.files["hello/index.html"]) == "<p>Hello</p>\n")
        #expect(text(output.files["manifest.json"]) == text(Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: []).bytes(outputs: [
            Manifest.Entry(path: "hello/index.html", hash: ContentHash(of: Array("<p>Hello</p>\n".utf8))),
        ])))
        try output.open()
        #expect(try output.lastBuild(matching: "f1") == record)
    }
}
