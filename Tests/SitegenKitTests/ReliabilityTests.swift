import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenOutput
import Testing

/// A build that fails — bad data, a full disk, a killed process — must leave the published
/// site exactly as it was (docs/robustness.md, "Writing the site"; issue #7).
@Suite("Failed builds never damage the output", .serialized)
struct ReliabilityTests {
    func goldenSite() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        return site
    }

    func output(_ site: TemporarySite) throws -> [String: Data] {
        try fileTree(site.root.appendingPathComponent("Output"))
    }

    func leftovers(_ site: TemporarySite) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("sitegen-staging") || $0.contains("sitegen-previous") }
    }

    @Test("A full disk in the middle of writing: exit 3, previous output intact, staging removed")
    func diskFull() throws {
        let site = try goldenSite()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        let before = try output(site)

        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var writes = 0
        }
        let counter = Counter()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.fileSystem = OutputFileSystem { path, bytes in
            let count = counter.lock.withLock { counter.writes += 1; return counter.writes }
            // Unchanged files are hard-linked, not written: only the changed ones reach this disk.
            if count >= 2 { throw CocoaError(.fileWriteOutOfSpace) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return 0
        }
        try site.write("Data/votes/new.json", #"{"id": "c0000000-0000-0000-0000-000000000001", "pollId": "7f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_x", "rankings": [1, 0], "votedAt": 0, "modifiedAt": 0}"#)
        #expect {
            _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        } throws: { error in
            guard case BuildFailure.io(let message) = error else { return false }
            return message.contains("cannot write") && (error as? BuildFailure)?.exitStatus == 3
        }
        #expect(try output(site) == before)
        #expect(try leftovers(site) == [])
    }

    @Test("SIGKILL during the write phase leaves the previous output; the next build cleans up and succeeds")
    func killedDuringWrite() throws {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        let before = try output(site)

        // Enough polls that writing takes a while (each poll writes ~15 files).
        try site.write("Data/polls/many.json", SiteFactory.polls(count: 1_500))
        let process = Process()
        process.executableURL = SitegenProcess.executable
        process.arguments = ["build"]
        process.currentDirectoryURL = site.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()

        let staging = site.root.appendingPathComponent(".Output.sitegen-staging")
        let deadline = Date().addingTimeInterval(60)
        var killedWhileWriting = false
        while Date() < deadline && process.isRunning {
            let written = (FileManager.default.enumerator(atPath: staging.path)?.allObjects.count) ?? 0
            if written > 200 {
                kill(process.processIdentifier, SIGKILL)
                killedWhileWriting = true
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        #expect(killedWhileWriting, "the build finished before it could be killed mid-write")
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try output(site) == before)
        #expect(try leftovers(site) == [".Output.sitegen-staging"])

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/polls/many.json"))
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        #expect(try leftovers(site) == [])
        #expect(try output(site) == before)
    }

    /// Waits up to 20 s for a detached removal to finish; the names still there.
    func trashAfterWaiting(_ site: TemporarySite) throws -> [String] {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let trash = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("sitegen-trash-") }
            if trash.isEmpty || Date() > deadline { return trash }
            usleep(20_000)
        }
    }

    @Test("Removing in the background: the replaced site and a removal cut short are gone soon after, the new site in place")
    func backgroundRemoval() throws {
        let site = try goldenSite()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.removesReplacedSiteInBackground = true
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        let first = try output(site)
        // What a killed `rm -rf` would leave, and a changed input so the build writes a new site.
        try site.write(".Output.sitegen-trash-left/polls/ABC/index.html", "old")
        try site.write("Data/votes/new.json", #"{"id": "c0000000-0000-0000-0000-000000000001", "pollId": "7f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_x", "rankings": [1, 0], "votedAt": 0, "modifiedAt": 0}"#)
        let report = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        #expect(report.wrote && !report.upToDate)
        #expect(try trashAfterWaiting(site) == [])
        #expect(try leftovers(site) == [])
        let second = try output(site)
        #expect(second != first)
        #expect(second["manifest.json"] != nil && second.count == first.count)

        // A folder handed to the detached removal loses its name at once.
        try site.write("old/a/b.txt", "x")
        let old = site.root.appendingPathComponent("old")
        OutputFolder(output: site.root.appendingPathComponent("Output"), removesInBackground: true).discard(old)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(try trashAfterWaiting(site) == [])
    }

    @Test("Two builds started at once on the same output never interleave")
    func concurrentBuilds() throws {
        let site = try goldenSite()
        let results = ConcurrentResults<Int32>(count: 2)
        let root = site.root
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results[index] = (try? SitegenProcess.run(["build"], in: root).status) ?? -1
        }
        #expect(results.values == [0, 0])
        // The output is one complete build: exactly the files the manifest lists, with its hashes.
        let tree = try output(site)
        let manifest = try JSONSerialization.jsonObject(with: tree["manifest.json"]!) as! [String: Any]
        let listed = (manifest["outputs"] as! [[String: String]]).map { ($0["path"]!, $0["sha256"]!) }
        #expect(Set(listed.map(\.0)) == Set(tree.keys).subtracting(["manifest.json"]))
        for (path, hash) in listed {
            #expect(sha256Hex(tree[path]!) == hash, "\(path)")
        }
        #expect(try leftovers(site) == [])
    }

    @Test("A build waiting for another build's lock says so, then builds")
    func waitsForTheLock() throws {
        let site = try goldenSite()
        let lock = open(site.root.appendingPathComponent(".Output.sitegen-lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        #expect(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { flock(lock, LOCK_UN) }
        let result = try SitegenProcess.run(["build", "--quiet"], in: site.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "Waiting for another build of Output/ to finish (it holds .Output.sitegen-lock)…\n")
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output/index.html").path))
    }

    @Test("A build that refuses a folder of someone else's files, or fails before its first site, leaves no lock file beside it")
    func noLockLeftBehind() throws {
        let site = try goldenSite()
        try site.write("Output/mine.txt", "mine")
        let before = try fileTree(site.root)
        let refused = try SitegenProcess.run(["build", "--quiet"], in: site.root)
        #expect(refused.status == 3)
        #expect(try fileTree(site.root) == before)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Output"))
        try site.write("Data/votes/broken.json", "[{")
        let withoutOutput = try fileTree(site.root)
        let failed = try SitegenProcess.run(["build", "--quiet"], in: site.root)
        #expect(failed.status == 1)
        #expect(try fileTree(site.root) == withoutOutput)
    }

    @Test("A build waiting on a lock file that its holder removes locks the path anew, then builds")
    func lockRemovedWhileWaiting() throws {
        let site = try goldenSite()
        let path = site.root.appendingPathComponent(".Output.sitegen-lock").path
        let lock = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        #expect(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        // Removed, then let go, as a build that gives up without a record does.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) {
            unlink(path)
            flock(lock, LOCK_UN)
        }
        let result = try SitegenProcess.run(["build", "--quiet"], in: site.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "Waiting for another build of Output/ to finish (it holds .Output.sitegen-lock)…\n")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output/index.html").path))
    }

    @Test("Output folders that hold or sit inside what sitegen reads are refused", arguments: [
        ".", "Data", "Data/polls", "Data/polls/out", "Templates", "Templates/x", "..", "/", "//",
    ])
    func refusedOutputs(path: String) throws {
        let site = try goldenSite()
        let before = try fileTree(site.root)
        let rootLock = FileManager.default.fileExists(atPath: "/.sitegen-lock")
        let result = try SitegenProcess.run(["build", "--output", path], in: site.root)
        #expect(result.status == 3)
        #expect(result.stderr.contains("refusing to use this output folder"), "\(result.stderr)")
        #expect(try fileTree(site.root) == before)
        // `--output /` got past the check and left a lock file in the root folder.
        #expect(FileManager.default.fileExists(atPath: "/.sitegen-lock") == rootLock)
    }

    @Test("sitegen check refuses the output folders build refuses, writing nothing")
    func checkRefusesOutput() throws {
        let site = try goldenSite()
        try site.write("site.yml", try site.read("site.yml") + "output: Data/polls\n")
        let before = try fileTree(site.root)
        let result = try SitegenProcess.run(["check"], in: site.root)
        #expect(result.status == 3)
        #expect(result.stderr.contains("Data/polls: refusing to use this output folder: it is or contains Data/polls, which sitegen reads"), "\(result.stderr)")
        #expect(try fileTree(site.root) == before)
    }

    @Test("A path is in a folder when it is the folder or below it; every absolute path is in /")
    func pathInFolder() {
        #expect(OutputFolder.path("/home/site", isIn: "/"))
        #expect(OutputFolder.path("/", isIn: "/"))
        #expect(OutputFolder.path("/home/site/Data", isIn: "/home/site"))
        #expect(OutputFolder.path("/home/site", isIn: "/home/site"))
        #expect(!OutputFolder.path("/home/site2", isIn: "/home/site"))
        #expect(!OutputFolder.path("/home", isIn: "/home/site"))
    }
}

/// Synthetic exports for tests that need volume.
enum SiteFactory {
    static func polls(count: Int) -> String {
        let trip = { (n: Int, t: Int) in
            """
            {"id": "\(String(format: "%08X-0000-4000-8000-%012X", n, t))", "name": "Trip \(t) of poll \(n)",
             "preferences": {"startDate": "2026-06-12", "endDate": "2026-06-14"},
             "stops": [{"city": "Chicago", "state": "IL", "latitude": 41.9, "longitude": -87.6, "arrivalDate": "2026-06-12", "departureDate": "2026-06-14", "games": []}]}
            """
        }
        let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        let polls = (0..<count).map { n -> String in
            var code = "", value = n + 100_000
            for _ in 0..<6 { code.append(alphabet[value % alphabet.count]); value /= alphabet.count }
            return """
            {"id": "\(String(format: "%08X-1111-4000-8000-000000000000", n))", "title": "Poll \(n)", "shareCode": "\(code)",
             "createdAt": "2026-05-01T00:00:00Z", "modifiedAt": "2026-05-01T00:00:00Z",
             "tripSnapshots": [\(trip(n, 1)), \(trip(n, 2)), \(trip(n, 3))]}
            """
        }
        return "[\n" + polls.joined(separator: ",\n") + "\n]\n"
    }
}
