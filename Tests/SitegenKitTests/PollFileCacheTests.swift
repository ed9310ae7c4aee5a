import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenOutput
import Testing

/// A rebuild reads again only the poll files whose bytes or ballots changed; the others'
/// share of the build comes from the last build (PollFileCache) and must be exactly what
/// reading them would give: the same pages, warnings, dates and errors.
@Suite("Poll files not read again")
struct PollFileCacheTests {
    let rebuilds = DependencyRebuildTests()

    /// Builds into `output`; the result and everything logged, failed or not.
    func build(_ site: TemporarySite, into output: MemoryOutput) -> (Result<BuildReport, BuildFailure>, DiagnosticLog) {
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.siteOutput = output
        let log = DiagnosticLog()
        do throws(BuildFailure) {
            return (.success(try SiteBuilder(options: options, log: log).run()), log)
        } catch {
            return (.failure(error), log)
        }
    }

    /// A cache's format and context, its first two strings.
    func head(_ bytes: [UInt8]) -> (format: String, context: String)? {
        bytes.withUnsafeBytes { raw in
            var reader = BinaryReader(raw)
            do throws(BinaryReader.Failure) {
                return (try reader.string(), try reader.string())
            } catch {
                return nil
            }
        }
    }

    /// A file's share of the build is stored, not printed: ordering its diagnostics must not
    /// work out their lines, which reads the file again and keeps it in memory as long as
    /// they live (with a warning in every poll file, every poll file: 227 MB at 10,000 polls).
    @Test("A share's diagnostics are put in order without reading their file again")
    func shareOrderNeedsNoLines() {
        let index = LineIndex(path: "/nonexistent/polls/a.json")
        let log = DiagnosticLog()
        for offset in [900, 30, 400] {
            log.add(SourceRef(file: "polls/a.json", offset: offset, index: index).diagnostic(.warning, "at \(offset)"))
        }
        log.add(Diagnostic(.warning, file: "polls/0.json", message: "another file"))
        #expect(log.keptInReadingOrder.map(\.message) == ["another file", "at 30", "at 400", "at 900"])
        #expect(!index.isBuilt)
        _ = log.all
        #expect(index.isBuilt)
    }

    func expectSameDiagnostics(_ log: DiagnosticLog, _ cold: DiagnosticLog, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(log.all.map(\.description) == cold.all.map(\.description), sourceLocation: sourceLocation)
        #expect(log.omissions == cold.omissions, sourceLocation: sourceLocation)
        #expect(log.errorCount == cold.errorCount && log.warningCount == cold.warningCount, sourceLocation: sourceLocation)
    }

    @Test("One new ballot reads only its poll's file; the other file's warnings and dates come back as if read")
    func newBallot() throws {
        let site = try rebuilds.site()
        // b.json (TWB2AA) warns twice: a field sitegen does not know, and Unix seconds read
        // as seconds since 2001 (2057, decades from the other dates).
        try rebuilds.edit(site, "Data/polls/b.json") {
            $0.replacingOccurrences(of: "\"modifiedAt\": 800000000", with: "\"modifiedAt\": 1780000000, \"colour\": \"red\"")
        }
        // And a vote file that warns: its ballots and warning come back without parsing it.
        try rebuilds.edit(site, "Data/votes/tie.json") { $0.replacingOccurrences(of: "\"rankings\"", with: "\"weather\": \"sunny\", \"rankings\"") }
        let output = MemoryOutput()
        let (first, _) = build(site, into: output)
        #expect(try first.get().pollFilesRead == 2)
        try rebuilds.newBallot(site)
        let (rebuilt, log) = build(site, into: output)
        let report = try rebuilt.get()
        #expect(report.pollFiles == 2 && report.pollFilesRead == 1)
        #expect(report.voteFiles == 3 && report.voteFilesRead == 1)
        #expect(report.pollFilesLine == "Poll files read: 1 of 2 (1 unchanged since the last build); vote files read: 1 of 3 (2 unchanged since the last build)")

        let cold = MemoryOutput()
        let (coldResult, coldLog) = build(site, into: cold)
        #expect(try coldResult.get().pollFilesRead == 2)
        #expect(output.files == cold.files)
        expectSameDiagnostics(log, coldLog)
        let shown = log.all.map(\.description).joined(separator: "\n")
        #expect(shown.contains("b.json:") && shown.contains("colour"))
        #expect(shown.contains("numericDates: unix"))
        #expect(shown.contains("tie.json:") && shown.contains("weather"))
    }

    @Test("A poll file not read again still takes part in the checks across polls: a share code used twice is a cold build's error")
    func duplicateShareCode() throws {
        let site = try rebuilds.site()
        let output = MemoryOutput()
        _ = try build(site, into: output).0.get()
        try rebuilds.edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"twb2aa\"") }
        let (rebuilt, log) = build(site, into: output)
        let (cold, coldLog) = build(site, into: MemoryOutput())
        guard case .failure(.inputErrors(1)) = rebuilt, case .failure(.inputErrors(1)) = cold else {
            Issue.record("expected one input error, got \(rebuilt) and \(cold)")
            return
        }
        expectSameDiagnostics(log, coldLog)
        #expect(log.all.map(\.description).joined().contains("TWB2AA"))
    }

    @Test("A poll file whose published files were touched since is read again and its files rendered")
    func touchedOutput() throws {
        let site = try rebuilds.site()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        try rebuilds.newBallot(site)
        let untouched = try SitegenProcess.run(["build", "--verbose"], in: site.root)
        #expect(untouched.stderr.contains("  Poll files read: 1 of 2 (1 unchanged since the last build); vote files read: 1 of 3 (2 unchanged since the last build)\n"))

        try rebuilds.edit(site, "Data/votes/new.json") { $0.replacingOccurrences(of: "[2, 0, 1]", with: "[1, 0, 2]") }
        let page = site.root.appendingPathComponent("Output/polls/TWB2AA/index.html")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: page.path)
        let touched = try SitegenProcess.run(["build", "--verbose"], in: site.root)
        #expect(touched.status == 0)
        #expect(touched.stderr.contains("  Poll files read: 2 of 2; vote files read: 1 of 3 (2 unchanged since the last build)\n"))
        #expect(try SitegenProcess.run(["build", "--output", "Cold"], in: site.root).status == 0)
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == fileTree(site.root.appendingPathComponent("Cold")))
    }

    @Test("The cache round-trips: what is written is what is read, and another context reads nothing")
    func roundTrip() throws {
        let site = try rebuilds.site()
        try rebuilds.edit(site, "Data/polls/b.json") {
            $0.replacingOccurrences(of: "\"modifiedAt\": 800000000", with: "\"modifiedAt\": 1780000000, \"colour\": \"red\"")
        }
        let output = MemoryOutput()
        _ = try build(site, into: output).0.get()
        let bytes = try #require(output.withLastPollCache { [UInt8]($0) })
        let (format, context) = try #require(head(bytes))
        #expect(format == "sitegen-polls 7")
        let build = try #require(output.lastBuildFingerprint)
        let cache = try #require(PollFileCache.decode(bytes, context: context, build: build))
        #expect(cache.files.count == 2 && cache.votes.count == 2)
        #expect(cache.votes.values.map(\.ballots.count).reduce(0, +) == 8)
        #expect(cache.encoded() == bytes)
        for entry in cache.votes.values {
            // A vote file's share is decoded without its ballots, which come when asked for:
            // encoded again, they are the bytes kept, and a file read now gives the same groups.
            let kept = try #require(entry.kept)
            let read = entry.ballots.ballots
            #expect(read.count == entry.ballots.count)
            var again = entry
            again.kept = nil
            #expect(PollFileCache.encode(again) == Array(bytes[kept]))
            let fresh = VoteFileBallots(read)
            #expect(fresh.groups == entry.ballots.groups && fresh.numbers == entry.ballots.numbers && fresh.ids == entry.ballots.ids)
            #expect(fresh.latest == entry.ballots.latest)
        }
        #expect(PollFileCache.decode(bytes, context: context + "x", build: build) == nil)
        // Written by another build: its shares name files that build's state records.
        #expect(PollFileCache.decode(bytes, context: context, build: build + "x") == nil)
        let bPath = try #require(cache.files.keys.first { $0.hasSuffix("/b.json") })
        let b = try #require(cache.entry(bPath))
        #expect(PollFileCache.encode(b) == cache.encodedShare(bPath))
        #expect(b.polls.map(\.summary.shareCode.value) == ["TWB2AA"])
        #expect(b.diagnostics.count == 1 && b.dates.numeric.count == 1)
        // What each poll's trips took from the itineraries and games, to check them again.
        let aPath = try #require(cache.files.keys.first { $0.hasSuffix("/a.json") })
        let x7 = try #require(cache.entry(aPath)?.polls.first)
        #expect(x7.gameIds == [["g1", "g2"], ["g3", "g4"], []])
        #expect(x7.trips.map(\.id.uuidString) == ["11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222",
                                                  "33333333-3333-3333-3333-333333333333"])
        #expect(x7.links.count == 64 && x7.links != b.polls[0].links)
    }

    @Test("A kept poll's paths come back as they were joined, non-ASCII and all")
    func keptPaths() {
        let summary = PollUniquenessTests().poll(1, "X7K9M2", "First", line: 1)
        for paths in [[], ["polls/X7K9M2/index.html"], ["polls/X7K9M2/index.html", "polls/X7K9M2/trips/1/caf\u{E9} \u{1F697}/index.html", "a"]] {
            #expect(PollFileCache.KeptPoll(summary: summary, key: "k", paths: paths).paths == paths)
        }
        #expect(PollFileCache.KeptPoll(summary: summary, key: "k", joinedPaths: "a\u{0}\u{0}b").paths == ["a", "b"])
    }

    @Test("A cut, damaged or older cache is not used, and never crashes the build")
    func damagedCache() throws {
        let site = try rebuilds.site()
        let output = MemoryOutput()
        _ = try build(site, into: output).0.get()
        let bytes = try #require(output.withLastPollCache { [UInt8]($0) })
        let (_, context) = try #require(head(bytes))
        let build = try #require(output.lastBuildFingerprint)
        #expect(PollFileCache.decode(bytes, context: context, build: build) != nil)
        // Every cut, however short, reads as no cache.
        for count in 0..<bytes.count {
            #expect(PollFileCache.decode(Array(bytes[..<count]), context: context, build: build) == nil, "cut at \(count)")
        }
        #expect(PollFileCache.decode(bytes + [0], context: context, build: build) == nil)
        // A flipped bit anywhere, its digest included, reads as no cache: one in a ballot
        // group's poll id published a poll as "Nobody has voted yet", copied into every next cache.
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 1 << UInt8(index % 8)
            #expect(PollFileCache.decode(damaged, context: context, build: build) == nil, "bit flipped at \(index)")
        }
        // Bytes damaged under a digest made to match may still read (a title's letter) but must
        // not crash; a count or a length made huge must fail before anything is allocated.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var damaged = Array(bytes.dropLast(32))
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            var hasher = ContentHasher()
            hasher.update(damaged)
            hasher.finalize().appendBytes(to: &damaged)
            // A poll file's share is decoded only when its file comes up: decode them all.
            if let cache = PollFileCache.decode(damaged, context: context, build: build) {
                for path in cache.files.keys { _ = cache.entry(path) }
            }
        }
        // A share cut short or run on reads as none: that file alone is read again.
        let cache = try #require(PollFileCache.decode(bytes, context: context, build: build))
        for path in cache.files.keys {
            let share = try #require(cache.encodedShare(path))
            #expect(cache.entry(path) != nil)
            for count in 0..<share.count {
                #expect(PollFileCache.decode(entry: share[..<count], path: path) == nil, "\(path) cut at \(count)")
            }
            #expect(PollFileCache.decode(entry: (share + [0])[...], path: path) == nil)
        }
        // The JSON Lines cache of sitegen before this format.
        let older = Array(#"{"format": "sitegen-polls 1", "context": "x", "build": "y"}"#.utf8) + [10]
        #expect(PollFileCache.decode(older, context: context, build: build) == nil)
    }

    @Test("The cache of a build that failed to publish is not used beside the last build's state")
    func cacheOfFailedBuild() throws {
        let site = try rebuilds.site()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        // The rebuild edits a poll and adds one, and stops at publishing: a file of someone
        // else's sits where the new poll's page goes. Its cache is in place by then.
        try rebuilds.edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "Spec example <3 trips>", with: "Spec example <three trips>") }
        try site.write("Data/polls/c.json", try site.read("Data/polls/b.json")
            .replacingOccurrences(of: "7F9619FF-8B86-D011-B42D-00CF4FC964FF", with: "7F9619FF-8B86-D011-B42D-00CF4FC96400")
            .replacingOccurrences(of: "\"TWB2AA\"", with: "\"ZZZ999\""))
        try site.write("Output/polls/ZZZ999/index.html", "someone else's\n")
        let failed = try SitegenProcess.run(["build"], in: site.root)
        #expect(failed.status == 3)
        #expect(failed.stderr.contains("ZZZ999"))

        // With the stranger and the new poll gone, the edited poll must not be taken from
        // that cache: the last build's state still records the poll's old pages.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Output/polls/ZZZ999"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/polls/c.json"))
        let rebuilt = try SitegenProcess.run(["build", "--verbose"], in: site.root)
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stderr.contains("  Poll files read: 2 of 2; "))
        #expect(try SitegenProcess.run(["build", "--output", "Cold"], in: site.root).status == 0)
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == fileTree(site.root.appendingPathComponent("Cold")))
    }
}
