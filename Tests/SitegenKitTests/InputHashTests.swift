import Foundation
import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenOutput
import Testing

/// A rebuild takes the last build's hash of an input whose stamp (size, modification and
/// change times, inode) is unchanged instead of reading it again (issue #16); any edit,
/// even one that keeps the size and sets the modification time back, is read.
@Suite("Input hashes kept by stamp")
struct InputHashTests {
    func goldenSite() throws -> TemporarySite {
        try CommandLineTests().goldenSite()
    }

    /// Rewrites `path` in place with `text` and gives it back its modification time, as a
    /// tool that preserves times would.
    func rewriteKeepingTime(_ site: TemporarySite, _ path: String, _ text: String) throws {
        let url = site.root.appendingPathComponent(path)
        let before = try #require(FileStamp(url.path).modified)
        try site.write(path, text)
        var times = [timespec(tv_sec: before / 1_000_000_000, tv_nsec: before % 1_000_000_000),
                     timespec(tv_sec: before / 1_000_000_000, tv_nsec: before % 1_000_000_000)]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        #expect(FileStamp(url.path).modified == before)
    }

    @Test("An input with its recorded stamp is not read; one edited to the same size and time is")
    func stampStandsForBytes() throws {
        let site = try goldenSite()
        let config = try SiteConfigLoader.load(site.root.appendingPathComponent("site.yml"))
        let options = BuildOptions(configFile: config.file)
        let fresh = BuildFingerprint.compute(config: config, options: options)
        // Written a moment ago: an edit within the clock's tick could keep the stamp.
        #expect(fresh.inputHashes.isEmpty)
        let later = BuildFingerprint.compute(config: config, options: options, now: Int(Date().timeIntervalSince1970 * 1e9) + 2_000_000_000)
        #expect(later.inputHashes.count == fresh.inputs.count)
        #expect(later.inputHashes.map(\.sha256).sorted() == fresh.hashes.values.sorted())

        // A wrong hash recorded with the right stamp is taken as it is: the file was not read.
        let tie = try #require(later.inputHashes.first { $0.path.hasSuffix("/Data/votes/tie.json") })
        let forged = String(repeating: "0", count: 64)
        let known = later.inputHashes.map { $0.path == tie.path ? HashedInput(path: $0.path, stamp: $0.stamp, sha256: forged) : $0 }
        #expect(BuildFingerprint.compute(config: config, options: options, known: known).hashes[tie.path] == forged)

        let text = try site.read("Data/votes/tie.json")
        let edited = text.replacingOccurrences(of: "2026", with: "2025")
        #expect(edited != text && edited.utf8.count == text.utf8.count)
        try rewriteKeepingTime(site, "Data/votes/tie.json", edited)
        #expect(BuildFingerprint.compute(config: config, options: options, known: known).hashes[tie.path] == sha256Hex(Array(edited.utf8)))
    }

    @Test("The build state keeps the input hashes and stamps")
    func stateRoundTrip() throws {
        let site = try TemporarySite()
        let output = site.root.appendingPathComponent("Output")
        var record = BuildRecord(fingerprint: "f", pages: 1, files: 0, polls: 0, ballots: 0, diagnostics: [])
        record.inputHashes = [
            HashedInput(path: "/site/Data/polls/a \"b\".json",
                        stamp: FileStamp(size: 12, modified: 1_790_000_000_123_456_789, changed: 1_790_000_001_000_000_001,
                                         inode: UInt64.max - 3),
                        sha256: String(repeating: "ab", count: 32)),
        ]
        try BuildState.save(for: output, record, outputs: { _ in })
        #expect(BuildState.read(for: output)?.record == record)
    }

    @Test("A rebuild notices an export edited to the same size with its modification time set back")
    func rebuildSeesSameSizeEdit() throws {
        let site = try goldenSite()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.date = Date(timeIntervalSince1970: 1_790_000_000)
        func build() throws {
            let log = DiagnosticLog()
            _ = try SiteBuilder(options: options, log: log).run()
            #expect(!log.hasErrors)
        }
        try build()
        // Let the inputs settle, then change another file, so the state records the stamps.
        // The changed file's modification time is put a minute ahead, so that it has not
        // settled when the build begins however slowly a loaded machine starts it (it was
        // once more than a second after the write).
        Thread.sleep(forTimeInterval: 1.1)
        try site.write("Data/votes/tie.json", try site.read("Data/votes/tie.json") + "\n")
        var ahead = timespec()
        clock_gettime(CLOCK_REALTIME, &ahead)
        ahead.tv_sec += 60
        var times = [ahead, ahead]
        #expect(utimensat(AT_FDCWD, site.root.appendingPathComponent("Data/votes/tie.json").path, &times, 0) == 0)
        try build()
        let state = try #require(BuildState.read(for: site.root.appendingPathComponent("Output")))
        #expect(state.record.inputHashes.contains { $0.path.hasSuffix("/Data/polls/polls.json") })
        #expect(!state.record.inputHashes.contains { $0.path.hasSuffix("/Data/votes/tie.json") })

        let polls = try site.read("Data/polls/polls.json")
        try rewriteKeepingTime(site, "Data/polls/polls.json", polls.replacingOccurrences(of: "Two ballots, tie", with: "Two ballots, TIE"))
        try build()
        let pages = try fileTree(site.root.appendingPathComponent("Output"))
        #expect(pages.values.contains { String(decoding: $0, as: UTF8.self).contains("Two ballots, TIE") })
        #expect(!pages.values.contains { String(decoding: $0, as: UTF8.self).contains("Two ballots, tie") })
    }
}
