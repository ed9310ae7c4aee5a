import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
import Testing

/// Incremental publishing (issue #8): unchanged output files keep their bytes, inode and
/// modification time, so a sync to a host uploads only what changed.
@Suite("Incremental builds", .serialized)
struct IncrementalTests {
    struct FileIdentity: Equatable {
        let inode: UInt64
        let modified: Int
        let bytes: Data
    }

    func identities(_ folder: URL) throws -> [String: FileIdentity] {
        try fileTree(folder).reduce(into: [:]) { result, entry in
            var info = stat()
            stat(folder.appendingPathComponent(entry.key).path, &info)
            result[entry.key] = FileIdentity(inode: UInt64(info.st_ino), modified: nanoseconds(info.st_mtim), bytes: entry.value)
        }
    }

    func build(_ site: TemporarySite, date: String? = nil) throws -> BuildReport {
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.date = date.flatMap { ExportDateReader(timeZone: .gmt, numericDates: .reference).parse($0) }
        return try SiteBuilder(options: options, log: DiagnosticLog()).run()
    }

    func goldenSite() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        return site
    }

    @Test("A rebuild with nothing changed writes nothing: every file keeps its bytes, inode and mtime")
    func nothingChanged() throws {
        let site = try goldenSite()
        let first = try build(site)
        #expect(!first.upToDate)
        let output = site.root.appendingPathComponent("Output")
        let before = try identities(output)
        usleep(20_000)   // a rewrite would get a visibly newer mtime
        let second = try build(site)
        #expect(second.upToDate)
        #expect(second.pages == first.pages && second.files == first.files)
        #expect(second.summary.hasPrefix("Nothing changed: 25 pages (36 files) from 2 polls and 8 ballots"))
        #expect(try identities(output) == before)
    }

    @Test("Warnings of the last full build are reported again when nothing changed")
    func warningsReplayed() throws {
        let site = try goldenSite()
        try site.write("Data/votes/orphan.json", #"{"id": "c0000000-0000-0000-0000-000000000009", "pollId": "00000000-0000-0000-0000-000000000000", "odg": "x", "rankings": [0, 1], "votedAt": 0, "modifiedAt": 0}"#)
        _ = try build(site)
        let log = DiagnosticLog()
        let report = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        #expect(report.upToDate)
        #expect(log.all.map(\.message) == ["no poll has id 00000000-0000-0000-0000-000000000000; this vote is ignored"])
    }

    @Test("One changed export: its pages are rewritten, every other file is the same inode with its old mtime")
    func oneChange() throws {
        let site = try goldenSite()
        _ = try build(site)
        let output = site.root.appendingPathComponent("Output")
        let before = try identities(output)
        usleep(20_000)
        // A third ballot for the two-trip poll TWB2AA.
        try site.write("Data/votes/more.json", #"{"id": "c0000000-0000-0000-0000-000000000001", "pollId": "7f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_voter_3", "rankings": [1, 0], "votedAt": "2026-05-05T12:00:00Z", "modifiedAt": "2026-05-05T12:00:00Z"}"#)
        let report = try build(site)
        #expect(!report.upToDate)
        let after = try identities(output)
        #expect(Set(after.keys) == Set(before.keys))
        let changed = after.keys.filter { after[$0]!.bytes != before[$0]!.bytes }.sorted()
        #expect(changed == ["index.html", "manifest.json", "polls/TWB2AA/index.html", "polls/TWB2AA/preview.png", "polls/TWB2AA/results.json"])
        for path in after.keys where !changed.contains(path) {
            #expect(after[path] == before[path], "\(path) was rewritten although its bytes did not change")
        }
        for path in changed {
            #expect(after[path]!.modified > before[path]!.modified)
        }
    }

    @Test("A deleted or hand-edited output file forces a full build that restores it")
    func tamperedOutput() throws {
        let site = try goldenSite()
        _ = try build(site)
        let output = site.root.appendingPathComponent("Output")
        let original = try site.read("Output/tips/index.html")
        try FileManager.default.removeItem(at: output.appendingPathComponent("tips/index.html"))
        #expect(try !build(site).upToDate)
        #expect(try site.read("Output/tips/index.html") == original)

        // Same size, different bytes.
        let results = try site.read("Output/polls/X7K9M2/results.json")
        try site.write("Output/polls/X7K9M2/results.json", results.replacingOccurrences(of: "\"points\": 10", with: "\"points\": 99"))
        #expect(try !build(site).upToDate)
        #expect(try site.read("Output/polls/X7K9M2/results.json") == results)
    }

    @Test("A different --date (tips rotate) is a change; the same --date again is not")
    func dateOption() throws {
        let site = try goldenSite()
        #expect(try !build(site, date: "2026-06-12").upToDate)
        #expect(try build(site, date: "2026-06-12").upToDate)
        #expect(try !build(site, date: "2026-06-13").upToDate)
    }
}
