import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenOutput
import Testing

/// A rebuild stages only what changed and moves it into the published folder through a
/// journal (OutputFolder+InPlace.swift): the result is the tree a cold build gives, and a
/// rebuild killed halfway is finished by the next one.
@Suite("In-place rebuilds")
struct InPlaceUpdateTests {
    let rebuilds = DependencyRebuildTests()

    func output(_ site: TemporarySite) -> URL { site.root.appendingPathComponent("Output") }

    /// What sitegen leaves beside the output besides the lock and the state: nothing.
    func workFiles(_ site: TemporarySite) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.root.path)
            .filter { $0.hasPrefix(".Output.sitegen-") && !$0.hasSuffix("-lock") && !$0.hasSuffix("-state.json") && !$0.hasSuffix("-polls") }.sorted()
    }

    func folders(_ root: URL) -> Set<String> {
        var found = Set<String>()
        let base = root.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                found.insert(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
            }
        }
        return found
    }

    @Test("A renamed share code: the new poll moved in, the old one's files and folders gone, nothing left beside")
    func renamedShareCode() throws {
        let site = try rebuilds.site()
        try rebuilds.buildOnDisk(site)
        try rebuilds.edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\"") }
        try rebuilds.buildOnDisk(site)
        try rebuilds.buildOnDisk(site, into: "Cold")
        #expect(try fileTree(output(site)) == fileTree(site.root.appendingPathComponent("Cold")))
        #expect(folders(output(site)) == folders(site.root.appendingPathComponent("Cold")))
        #expect(!folders(output(site)).contains("polls/X7K9M2"))
        #expect(try workFiles(site) == [])
    }

    func record(_ fingerprint: String, files: Int) -> BuildRecord {
        BuildRecord(fingerprint: fingerprint, pages: 1, files: files, polls: 0, ballots: 0, diagnostics: [])
    }

    func publish(_ site: TemporarySite, _ fingerprint: String, _ files: [String: String], killed: Bool = false,
                 killedAfterJournal: Bool = false, changes: [String] = [], swapsFromChanges: Int = 1000,
                 killedAroundSwap: OutputFolder.KillPoint? = nil, killedPlacingList: Bool = false) throws {
        let folder = OutputFolder(output: output(site))
        folder.swapsFromChanges = swapsFromChanges
        folder.stopsAroundSwap = killedAroundSwap
        folder.stopsBeforeMoving = killed
        folder.stopsAfterJournal = killedAfterJournal
        folder.noteChanges(changes)
        try folder.open()
        #expect(try folder.lastBuild(matching: fingerprint) == nil)
        for (path, text) in files { try folder.write(path, Array(text.utf8)) }
        try folder.writeManifest(Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: [], hiddenPrefix: nil))
        // A build killed as it puts its --changes list in place: published, the list not.
        try folder.publish(record(fingerprint, files: files.count + 1)) { () throws(OutputError) in
            if killedPlacingList { throw OutputError(message: "killed") }
        }
    }

    func folderIdentity(_ site: TemporarySite) throws -> UInt64 {
        var info = stat()
        #expect(stat(output(site).path, &info) == 0)
        return UInt64(info.st_ino)
    }

    @Test("A rebuild changing most of the site swaps it in whole; one changing a little moves files in place")
    func mostChangedSwaps() throws {
        let site = try TemporarySite()
        let files = ["a.html": "a", "b/index.html": "b", "c/index.html": "c", "d.html": "d"]
        try publish(site, "one", files)
        let first = try folderIdentity(site)
        // One file of five (manifest.json is the fifth, and changes too): in place, the folder stays.
        try publish(site, "two", files.merging(["a.html": "a2"]) { $1 }, swapsFromChanges: 0)
        #expect(try folderIdentity(site) == first)
        // Most files: a new folder swapped in, with the unchanged file linked, not copied.
        let unchanged = try FileManager.default.attributesOfItem(atPath: output(site).appendingPathComponent("d.html").path)[.systemFileNumber] as? Int
        try publish(site, "three", ["a.html": "a3", "b/index.html": "b3", "c/index.html": "c3", "d.html": "d"], swapsFromChanges: 100)
        #expect(try folderIdentity(site) == first, "below the size where moves take long: in place")
        try publish(site, "three-b", ["a.html": "a3", "b/index.html": "b4", "c/index.html": "c3", "d.html": "d"], swapsFromChanges: 0)
        #expect(try folderIdentity(site) == first, "one file and the manifest of five: in place")
        try publish(site, "four", ["a.html": "a4", "b/index.html": "b3", "c/index.html": "c4", "d.html": "d"], swapsFromChanges: 0)
        #expect(try folderIdentity(site) != first)
        #expect(try FileManager.default.attributesOfItem(atPath: output(site).appendingPathComponent("d.html").path)[.systemFileNumber] as? Int == unchanged)
        let tree = try fileTree(output(site)).mapValues { String(decoding: $0, as: UTF8.self) }
        #expect(tree.filter { $0.key != "manifest.json" } == ["a.html": "a4", "b/index.html": "b3", "c/index.html": "c4", "d.html": "d"])
        #expect(try workFiles(site) == [])
        // A file of someone else's in the folder: it cannot be swapped, so the update is in place.
        try site.write("Output/notes.txt", "mine")
        let third = try folderIdentity(site)
        try publish(site, "five", ["a.html": "a5", "b/index.html": "b4", "c/index.html": "c5", "d.html": "d"], swapsFromChanges: 0)
        #expect(try folderIdentity(site) == third)
        #expect(try site.read("Output/notes.txt") == "mine" && site.read("Output/b/index.html") == "b4")
    }

    @Test("A build killed around its swap: the next one puts its state in place if the swap happened, drops it if not")
    func killedAroundSwap() throws {
        let files = ["a.html": "a", "b/index.html": "b", "c/index.html": "c"]
        let changed = ["a.html": "a2", "b/index.html": "b2", "c/index.html": "c2"]
        for point in [OutputFolder.KillPoint.before, .after] {
            let site = try TemporarySite()
            try publish(site, "one", files)
            let lines = ["M a.html", "M b/index.html", "M c/index.html", "M manifest.json"]
            try publish(site, "two", changed, changes: lines, swapsFromChanges: 0, killedAroundSwap: point)
            #expect(FileManager.default.fileExists(atPath: BuildState.swapPendingURL(for: output(site)).path))
            #expect(try site.read("Output/a.html") == (point == .before ? "a" : "a2"))
            // Half-written files of a build killed while saving them are dropped too.
            let pending = BuildState.swapPendingURL(for: output(site)).path
            for leftover in [pending + ".tmp", pending + ".changes.tmp"] {
                #expect(FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8)))
            }
            // The next build, opening the output, sees the site and its state agree again, and
            // lists the swapped build's changes (which it never wrote) with its own.
            let next = OutputFolder(output: output(site))
            try next.open()
            #expect(!FileManager.default.fileExists(atPath: pending))
            #expect(!FileManager.default.fileExists(atPath: pending + ".tmp") && !FileManager.default.fileExists(atPath: pending + ".changes.tmp"))
            #expect(next.carriedChanges == (point == .before ? [] : lines))
            let fingerprint = point == .before ? "one" : "two"
            #expect(try next.lastBuild(matching: fingerprint)?.fingerprint == fingerprint, "\(point)")
            next.abandon()
            // And a build of other inputs after it publishes as usual.
            try publish(site, "three", ["a.html": "a3", "b/index.html": "b2", "c/index.html": "c2"])
            #expect(try site.read("Output/a.html") == "a3")
            #expect(try workFiles(site).filter { !$0.contains("trash") } == [])
        }
    }

    @Test("A folder of someone else's with more than 10,000 files is refused after counting 10,000, not after walking it all")
    func hugeForeignFolder() throws {
        let site = try TemporarySite()
        for folder in 0..<11 {
            let url = output(site).appendingPathComponent("f\(folder)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for file in 0..<1000 { #expect(FileManager.default.createFile(atPath: url.appendingPathComponent("\(file)").path, contents: nil)) }
        }
        do {
            try publish(site, "one", ["a.html": "a"])
            Issue.record("the folder was replaced")
        } catch let error as OutputError {
            #expect(error.message.contains(": refusing to replace this folder: 10,000 files or more in it were not written by sitegen: "))
            #expect(error.message.contains(" and 9990 or more (there is no record of an earlier build here"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output(site).path).count == 11)
    }

    @Test("A folder replaced by a link to someone's files elsewhere: removing its recorded files never goes through it")
    func removalNeverFollowsLinks() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a/b/index.html": "ours", "a/b/other.html": "ours too", "c.html": "c"])
        let elsewhere = site.root.appendingPathComponent("Elsewhere")
        try site.write("Elsewhere/index.html", "theirs")
        try site.write("Elsewhere/other.html", "theirs too")
        try FileManager.default.removeItem(at: output(site).appendingPathComponent("a/b"))
        try FileManager.default.createSymbolicLink(at: output(site).appendingPathComponent("a/b"), withDestinationURL: elsewhere)
        try publish(site, "two", ["c.html": "c"])
        #expect(try site.read("Elsewhere/index.html") == "theirs" && site.read("Elsewhere/other.html") == "theirs too")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output(site).appendingPathComponent("a/b").path) == elsewhere.path)
    }

    @Test("A build state naming a path outside the output folder is unreadable: nothing outside is removed")
    func recordedPathOutside() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a.html": "a", "b.html": "b"])
        try site.write("victim.txt", "not sitegen's")
        let state = BuildState.url(for: output(site))
        let text = try String(contentsOf: state, encoding: .utf8)
        #expect(text.components(separatedBy: #""b.html""#).count == 2)
        try text.replacingOccurrences(of: #""b.html""#, with: #""../victim.txt""#).write(to: state, atomically: true, encoding: .utf8)
        // Without a readable record the folder's files are not known to be sitegen's.
        #expect(throws: OutputError.self) { try publish(site, "two", ["a.html": "a changed"]) }
        #expect(try site.read("victim.txt") == "not sitegen's")
    }

    @Test("A file where a folder was (or a folder where a file was) falls back to the full swap")
    func fileReplacesFolder() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a/index.html": "<p>a", "b": "b", "c/d.html": "d"])
        // The full swap replaces the whole folder, so a file of someone else's stops it.
        try site.write("Output/c/notes.txt", "mine")
        #expect(throws: OutputError.self) {
            try publish(site, "two", ["a": "a is a file now", "b/index.html": "b is a folder now", "c/d.html": "d"])
        }
        #expect(try site.read("Output/c/notes.txt") == "mine" && site.read("Output/a/index.html") == "<p>a")
        try FileManager.default.removeItem(at: output(site).appendingPathComponent("c/notes.txt"))
        try publish(site, "two", ["a": "a is a file now", "b/index.html": "b is a folder now", "c/d.html": "d"])
        let tree = try fileTree(output(site)).mapValues { String(decoding: $0, as: UTF8.self) }
        #expect(tree.filter { $0.key != "manifest.json" } == ["a": "a is a file now", "b/index.html": "b is a folder now", "c/d.html": "d"])
        #expect(try workFiles(site) == [])
        try publish(site, "three", ["a": "a is a file now", "b/index.html": "b changed", "c/d.html": "d"])
        #expect(try site.read("Output/b/index.html") == "b changed")
    }

    @Test("A file that becomes a folder is updated in place, beside files of someone else's")
    func fileBecomesFolderInPlace() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["assets/img": "a file", "index.html": "i", "x.html": "x"])
        try site.write("Output/mine.txt", "mine")
        let folder = try folderIdentity(site)
        try publish(site, "two", ["assets/img/x.png": "a folder now", "index.html": "i", "x.html": "x"])
        #expect(try site.read("Output/assets/img/x.png") == "a folder now")
        #expect(try site.read("Output/mine.txt") == "mine")
        #expect(try folderIdentity(site) == folder)
        #expect(try workFiles(site) == [])
    }

    @Test("A kept path that sitegen writes is a site.yml error before anything is written (exit 2), by check and build alike",
          arguments: [("tips", "site.yml:1:8: error: keep: sitegen writes \"tips\" itself; keep lists only what it does not write, such as CNAME or downloads"),
                      ("tips/index.html", "site.yml:1:8: error: keep: sitegen writes \"tips/index.html\" itself; keep lists only what it does not write, such as CNAME or downloads"),
                      ("tips/", "site.yml:1:8: error: keep: sitegen writes \"tips\" itself; keep lists only what it does not write, such as CNAME or downloads")])
    func keptAndWritten(_ kept: String, _ message: String) throws {
        let site = try rebuilds.site()
        try rebuilds.buildOnDisk(site)
        let before = try fileTree(output(site))
        try site.write("site.yml", "keep: [\(kept)]\n" + (try site.read("site.yml")))
        #expect(throws: BuildFailure.self) { try rebuilds.buildOnDisk(site) }
        for command in ["check", "build"] {
            let result = try SitegenProcess.run([command], in: site.root)
            #expect(result.status == 2)
            #expect(result.stderr == message + "\n")
        }
        #expect(try fileTree(output(site)) == before)
    }

    @Test("Each kept folder sitegen writes into is a site.yml error at its entry, in file order, naming the first path inside in path order, whichever thread planned it")
    func firstKeptAndWritten() throws {
        let site = try rebuilds.site()
        try rebuilds.buildOnDisk(site)
        let before = try fileTree(output(site))
        // A poll's trips folder: no file of that name, so only the paths inside it tell.
        let inTrips = before.keys.filter { $0.hasPrefix("polls/") && $0.contains("/trips/") }
        let folders = Set(inTrips.map { $0.components(separatedBy: "/trips/")[0] + "/trips" }).sorted()
        #expect(folders.count >= 2)
        let yaml = try site.read("site.yml")
        let line = yaml.split(separator: "\n", omittingEmptySubsequences: false).count
        let entry = "keep: [\(folders.joined(separator: ", "))]"
        try site.write("site.yml", yaml + entry + "\n")
        let expected = folders.map { folder in
            let first = inTrips.filter { $0.hasPrefix(folder + "/") }.min { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }!
            let column = entry.distance(from: entry.startIndex, to: entry.range(of: folder)!.lowerBound) + 1
            return "site.yml:\(line):\(column): error: keep: sitegen writes \"\(first)\" inside \"\(folder)\"; keep lists only what it does not write, such as CNAME or downloads\n"
        }.joined()
        for command in ["check", "build"] {
            let result = try SitegenProcess.run([command], in: site.root)
            #expect(result.status == 2)
            #expect(result.stderr == expected)
        }
        #expect(try fileTree(output(site)) == before)
        // Names sitegen writes at the top are site.yml errors when it is read, each of them.
        try site.write("site.yml", yaml + "keep: [tips, downloads, index.html]\n")
        let named = try SitegenProcess.run(["check"], in: site.root)
        #expect(named.status == 2)
        #expect(named.stderr == """
            site.yml:\(line):8: error: keep: sitegen writes "tips" itself; keep lists only what it does not write, such as CNAME or downloads
            site.yml:\(line):25: error: keep: sitegen writes "index.html" itself; keep lists only what it does not write, such as CNAME or downloads

            """)
    }

    func text(_ site: TemporarySite) throws -> [String: String] {
        try fileTree(output(site)).filter { $0.key != "manifest.json" }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    @Test("A rebuild killed while moving its files in is finished by the next build before anything else")
    func killedMidway() throws {
        let site = try TemporarySite()
        let first = ["a/index.html": "a", "b/index.html": "b", "c/index.html": "c"]
        let second = ["a/index.html": "a", "b/index.html": "b2", "d/e/index.html": "new"]
        try publish(site, "one", first)
        try publish(site, "two", second, killed: true)
        #expect(try text(site) == first)
        #expect(try workFiles(site) == [".Output.sitegen-journal", ".Output.sitegen-staging"])
        // The kill came after the first move.
        #expect(rename(site.root.appendingPathComponent(".Output.sitegen-staging/b/index.html").path,
                       output(site).appendingPathComponent("b/index.html").path) == 0)

        // A build failing after the journal was written leaves the staged files for the next.
        OutputFolder(output: output(site)).abandon()
        #expect(try workFiles(site) == [".Output.sitegen-journal", ".Output.sitegen-staging"])
        let next = OutputFolder(output: output(site))
        try next.open()
        #expect(try text(site) == second)
        #expect(!folders(output(site)).contains("c"))
        // The state saved before the moves describes the finished site: nothing to do.
        #expect(try next.lastBuild(matching: "two") != nil)
        #expect(try workFiles(site) == [])
    }

    @Test("A rebuild killed between its journal and its state: the next build puts both in place, and the files it moved in are sitegen's")
    func killedBeforeState() throws {
        let site = try TemporarySite()
        let first = ["a/index.html": "a", "b/index.html": "b"]
        let second = ["a/index.html": "a", "b/index.html": "b2", "faq/index.html": "new"]
        try publish(site, "one", first)
        try publish(site, "two", second, killedAfterJournal: true)
        #expect(try text(site) == first)
        #expect(try workFiles(site) == [".Output.sitegen-journal", ".Output.sitegen-staging", ".Output.sitegen-state.json.pending"])
        let next = OutputFolder(output: output(site))
        try next.open()
        #expect(try text(site) == second)
        #expect(try next.lastBuild(matching: "two") != nil, "the state that goes with the journal is in place")
        next.abandon()
        // Before, every later build refused faq/index.html as a file of someone else's (exit 3).
        try publish(site, "three", second.merging(["b/index.html": "b3"]) { $1 })
        #expect(try text(site) == ["a/index.html": "a", "b/index.html": "b3", "faq/index.html": "new"])
        #expect(try workFiles(site) == [])
    }

    @Test("A build killed once published but before its --changes list was in place: the next lists its changes", arguments: [true, false])
    func killedPlacingList(inPlace: Bool) throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a/index.html": "a", "b/index.html": "b", "c/index.html": "c"])
        let lines = ["M b/index.html", "M c/index.html", "M manifest.json"]
        // The journal was removed, or the swap's saved lines, before the list was placed:
        // the next build said nothing changed, and a deploy uploading the list never sent
        // the new pages.
        #expect(throws: OutputError.self) {
            try publish(site, "two", ["a/index.html": "a", "b/index.html": "b2", "c/index.html": "c2"], changes: lines,
                        swapsFromChanges: inPlace ? 1000 : 0, killedPlacingList: true)
        }
        #expect(try site.read("Output/b/index.html") == "b2", "published")
        let next = OutputFolder(output: output(site))
        try next.open()
        #expect(next.carriedChanges == lines)
        #expect(try next.lastBuild(matching: "two") != nil)
        next.abandon()
        #expect(try workFiles(site) == [])
    }

    @Test("A rebuild killed after its state was saved leaves its --changes lines in its journal for the build that finishes it")
    func killedKeepsChanges() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a/index.html": "a", "b/index.html": "b"])
        let lines = ["M b/index.html", "A c/index.html"]
        try publish(site, "two", ["a/index.html": "a", "b/index.html": "b2", "c/index.html": "c"], killed: true, changes: lines)
        let next = OutputFolder(output: output(site))
        try next.open()
        #expect(next.carriedChanges == lines)
        #expect(try next.lastBuild(matching: "two") != nil)
        #expect(try workFiles(site) == [])
    }

    @Test("A file renamed from one spelling of an accent to the other is listed removed and added")
    func changesByBytes() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["caf\u{E9}.css": "x", "a.html": "a"])
        let folder = OutputFolder(output: output(site))
        try folder.open()
        #expect(try folder.lastBuild(matching: "two") == nil)
        try folder.write("cafe\u{301}.css", Array("x".utf8))
        try folder.write("a.html", Array("a".utf8))
        try folder.writeManifest(Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: [], hiddenPrefix: nil))
        // As bytes: Swift compares strings by canonical equivalence, so "café" == "café".
        let changes = try folder.changes().map { Array($0.utf8) }
        #expect(changes == ["A cafe\u{301}.css", "D caf\u{E9}.css", "M manifest.json"].map { Array($0.utf8) })
        folder.abandon()
    }

    @Test("In place, the --changes lines come from what was staged and removed, the same as comparing both builds' whole lists")
    func changesFromStaged() throws {
        let site = try TemporarySite()
        func rebuild(_ fingerprint: String, _ files: [String: String]) throws -> [String] {
            let folder = OutputFolder(output: output(site))
            try folder.open()
            #expect(try folder.lastBuild(matching: fingerprint) == nil)
            for (path, text) in files.sorted(by: { $0.key < $1.key }) { try folder.write(path, Array(text.utf8)) }
            try folder.writeManifest(Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: [], hiddenPrefix: nil))
            #expect(folder.updatesInPlace)
            let lines = try folder.changes()
            #expect(lines == (try folder.changesFromLists()))
            try folder.publish(record(fingerprint, files: files.count + 1)) { () throws(OutputError) in }
            return lines
        }
        try publish(site, "one", ["a.html": "a", "b/index.html": "b", "c/index.html": "c", "d.html": "d", "caf\u{E9}.css": "x"])
        // c deleted by hand and a touched: written again with the bytes recorded, so not listed.
        try FileManager.default.removeItem(at: output(site).appendingPathComponent("c/index.html"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)],
                                              ofItemAtPath: output(site).appendingPathComponent("a.html").path)
        let second = ["a.html": "a", "b/index.html": "b2", "c/index.html": "c", "e/index.html": "e", "cafe\u{301}.css": "x"]
        #expect(try rebuild("two", second).map { Array($0.utf8) }
                == ["A cafe\u{301}.css", "M b/index.html", "D caf\u{E9}.css", "D d.html", "A e/index.html", "M manifest.json"]
                    .map { Array($0.utf8) }.sorted { $0.dropFirst(2).lexicographicallyPrecedes($1.dropFirst(2)) })
        // Nothing but the manifest's fingerprint-free bytes: the same files, no line.
        #expect(try rebuild("three", second) == [])
        #expect(try rebuild("four", ["a.html": "a2"]) == ["M a.html", "D b/index.html", "D c/index.html", "D cafe\u{301}.css", "D e/index.html", "M manifest.json"])
    }

    @Test("Two builds' --changes lines as one: what each path was before the first and is after the second")
    func mergedChanges() {
        #expect(OutputChanges.merged(carried: ["A a", "D b", "M c", "A e"], with: ["M a", "A b", "D c", "D e", "A f"])
            == ["A a", "M b", "D c", "A f"])
        #expect(OutputChanges.merged(carried: [], with: ["M x"]) == ["M x"])
        #expect(OutputChanges.merged(carried: ["M x", "D y"], with: []) == ["M x", "D y"])
    }

    @Test("A state saved by a build stopped short of its journal is dropped: the site and its state stay the last build's")
    func pendingStateWithoutJournal() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a/index.html": "a"])
        try site.write(".Output.sitegen-state.json.pending", "a state no journal goes with")
        let next = OutputFolder(output: output(site))
        try next.open()
        #expect(try next.lastBuild(matching: "one") != nil)
        next.abandon()
        #expect(try workFiles(site) == [])
    }

    @Test("An unreadable journal: the next build replaces the whole folder, which is all sitegen's, and drops it")
    func unreadableJournal() throws {
        let site = try TemporarySite()
        try publish(site, "one", ["a/index.html": "a", "c/index.html": "c"])
        try publish(site, "two", ["a/index.html": "a2", "d/index.html": "d"], killed: true)
        try site.write(".Output.sitegen-journal", "sitegen-journal 99\nX something\n")
        // Even with the same fingerprint: what is published is unknown.
        try publish(site, "two", ["a/index.html": "a2", "d/index.html": "d"])
        #expect(try text(site) == ["a/index.html": "a2", "d/index.html": "d"])
        #expect(try workFiles(site) == [])
    }

    @Test("The build state's file lines are read without a parse tree when they are as written, else by the JSON parser")
    func stateLines() throws {
        let site = try TemporarySite()
        let output = output(site)
        let hash = ContentHash(of: Array("x".utf8))
        let files: [(String, WrittenFile)] = [
            ("a/index.html", WrittenFile(hash: hash, size: 1, modified: 1_795_000_000_123_456_789)),
            ("caf\u{E9} \"quoted\"\nline/index.html", WrittenFile(hash: hash, size: 12, modified: 0)),
        ]
        try BuildState.save(for: output, record("f", files: 2), outputs: { body in for (path, file) in files { try body(Array(path.utf8), file) } })
        let lines = try String(contentsOf: BuildState.url(for: output), encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(lines.first == #"{"path": "a/index.html", "sha256": "\#(hash.hex)", "size": 1, "modified": "1795000000123456789"}"#)
        #expect(lines.last == #"{"path": "café \"quoted\"\nline/index.html", "sha256": "\#(hash.hex)", "size": 12, "modified": "0"}"#)
        #expect(BuildState.quickOutputLine(ArraySlice(Array(lines.first!.utf8)))?.0 == "a/index.html")
        #expect(BuildState.quickOutputLine(ArraySlice(Array(lines.first!.utf8)))?.1 == files[0].1)
        // Escapes in the path: left to the JSON parser.
        #expect(BuildState.quickOutputLine(ArraySlice(Array(lines.last!.utf8))) == nil)
        #expect(BuildState.quickOutputLine(ArraySlice(Array(#"{"path": "a", "sha256": "00", "size": 1, "modified": "1"}"#.utf8))) == nil)
        var read: [(String, WrittenFile)] = []
        try #require(BuildState.read(for: output)).forEachOutput { read.append(($0, $1)) }
        #expect(read.map(\.0) == files.map(\.0) && read.map(\.1) == files.map(\.1))
        // The index a rebuild looks files up in, read from the same lines.
        let state = try #require(BuildState.read(for: output))
        let index = try #require(state.outputIndex())
        #expect(index.count == 2)
        #expect(index[PathKey(files[0].0)] == files[0].1 && index[PathKey(files[1].0)] == files[1].1)
        #expect(index[PathKey("b/index.html")] == nil)
    }

    @Test("A folder is sitegen's by its manifest's head, even when the head ends inside a character")
    func manifestHead() throws {
        let site = try TemporarySite()
        let head = "{\n  \"generator\": \"sitegen 0.1.0\",\n  \"inputs\": [\n    {\"path\": \"Data/"
        // "é" is two bytes: its first is the head's 4096th.
        let name = String(repeating: "a", count: 4095 - head.utf8.count) + "é.json"
        try site.write("Out/manifest.json", head + name + "\"}\n  ]\n}\n")
        #expect(Array(try site.read("Out/manifest.json").utf8)[4095] == 0xC3)
        #expect(OutputFolder.isSitegenOutput(site.root.appendingPathComponent("Out")))
        try site.write("Other/manifest.json", "{\"generator\": \"hugo\"}\n")
        #expect(!OutputFolder.isSitegenOutput(site.root.appendingPathComponent("Other")))
        #expect(!OutputFolder.isSitegenOutput(site.root.appendingPathComponent("Missing")))
    }

    @Test("A group of paths is looked up from the deepest folder they all are in")
    func sharedFolder() {
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["polls/AB/index.html", "polls/AB/trips/3/index.html", "polls/AB/results.json"]) == 9)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["polls/AB/trips/3/index.html", "polls/AB/trips/4/index.html"]) == 15)
        // A folder whose name starts another's is not shared.
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["polls/AB/index.html", "polls/ABC/index.html"]) == 6)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["polls/AB/index.html", "polls/AB"]) == 6)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["index.html", "polls/AB/index.html"]) == 0)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["polls/AB/index.html"]) == 9)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["index.html"]) == 0)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength([]) == 0)
        #expect(OutputFolder.SharedFolder.sharedPrefixLength(["trips/é/a.html", "trips/é/b/c.html"]) == 9)
        #expect(OutputFolder.SharedFolder.none.descriptor == -1 && OutputFolder.SharedFolder.none.prefixLength == 0)
    }

    @Test("A path's key is the same from its string, its bytes and a slice of a line; other paths' keys differ")
    func pathKeys() {
        let path = "polls/AB2CDE/trips/1/index.html"
        let line = Array(("{\"path\": \"" + path + "\"").utf8)
        let slice = line[10..<(10 + path.utf8.count)]
        #expect(PathKey(path) == PathKey(Array(path.utf8)) && PathKey(path) == PathKey(slice))
        #expect(PathKey("trips/é/index.html") == PathKey(Array("trips/é/index.html".utf8)))
        let others = ["polls/ab2cde/trips/1/index.html", "polls/AB2CDE/trips/1/index.htm", "", "/"]
            + (0..<10_000).map { "polls/P\($0)/index.html" }
        #expect(Set(others.map(PathKey.init)).count == others.count)
        #expect(!others.map(PathKey.init).contains(PathKey(path)))
    }

    @Test("The last build's index finds each of many files and nothing else")
    func recordedFiles() {
        let files = (0..<5_000).map { number in
            (key: PathKey("polls/P\(number)/index.html"),
             file: WrittenFile(hash: ContentHash(of: Array(String(number).utf8)), size: number, modified: number + 1))
        }
        let index = RecordedFiles(entries: files)
        #expect(index.count == 5_000)
        #expect(files.allSatisfy { index[$0.key] == $0.file })
        #expect((5_000..<6_000).allSatisfy { index[PathKey("polls/P\($0)/index.html")] == nil })
        #expect(RecordedFiles.none[PathKey("index.html")] == nil && RecordedFiles.none.isEmpty)
        // Read in parts (one per core), the same files are found in each part, an empty
        // part included.
        let parts = RecordedFiles(parts: [Array(files[..<1_234]), [], Array(files[1_234..<4_000]), Array(files[4_000...])])
        #expect(parts.count == 5_000 && !parts.isEmpty)
        #expect(files.allSatisfy { parts[$0.key] == $0.file })
        #expect((5_000..<6_000).allSatisfy { parts[PathKey("polls/P\($0)/index.html")] == nil })
        #expect(RecordedFiles(parts: [[], []]).isEmpty)
    }
}
