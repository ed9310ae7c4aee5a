import Foundation
import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenOutput
import Testing

/// Issue #19: the output folder, symlinks, manifest.json names, site.yml values and
/// SOURCE_DATE_EPOCH, through the real executable (exit status, message, files left alone).
@Suite("Hostile input, round 2 (issue #19)", .serialized)
struct HostileRoundTwoTests {
    func goldenSite() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        return site
    }

    func link(_ site: TemporarySite, _ path: String, to target: String) throws {
        let url = site.root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    @Test("SafePath refuses empty, absolute, '.' and '..' parts, backslashes and NULs, and nothing else")
    func safePaths() {
        for path in ["a", "a/b.html", "polls/X7K9M2/index.html", ".well-known/x", "a/..b/c", "a/b../c", "...", "caf\u{E9}/x", "a\nb"] {
            #expect(SafePath.isSafe(path), "\(path)")
        }
        for path in ["", "/a", "a/", "a//b", ".", "..", "./a", "a/./b", "a/..", "../a", "a\\b", "a\0b"] {
            #expect(!SafePath.isSafe(path), "\(path)")
        }
    }

    @Test(".git, CNAME and .nojekyll survive rebuilds; keep: adds paths; other strangers are never removed or written over")
    func keptFiles() throws {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        try site.write("Output/.git", "gitdir: ../.git/worktrees/gh-pages\n")
        try site.write("Output/CNAME", "trips.example.org\n")
        try site.write("Output/.nojekyll", "")
        try site.write("Data/polls/polls.json", try site.read("Data/polls/polls.json").replacingOccurrences(of: "Spec example", with: "Changed"))
        let rebuilt = try SitegenProcess.run(["build"], in: site.root)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try site.read("Output/.git") == "gitdir: ../.git/worktrees/gh-pages\n")
        #expect(try site.read("Output/CNAME") == "trips.example.org\n")
        #expect(try site.read("Output/polls/X7K9M2/index.html").contains("Changed"))

        // Strangers deep inside: a rebuild in place removes only what sitegen wrote, so
        // they stay where they are, untouched.
        try site.write("Output/polls/X7K9M2/notes.txt", "mine")
        try site.write("Output/downloads/map.pdf", "%PDF")
        try site.write("Data/polls/polls.json", try site.read("Data/polls/polls.json").replacingOccurrences(of: "Changed", with: "Again"))
        let inPlace = try SitegenProcess.run(["build"], in: site.root)
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        #expect(try site.read("Output/polls/X7K9M2/notes.txt") == "mine")
        #expect(try site.read("Output/downloads/map.pdf") == "%PDF")
        #expect(try site.read("Output/polls/X7K9M2/index.html").contains("Again"))

        // A new page where a stranger is: refused with exit 3, named, and nothing changes.
        try site.write("Output/polls/X7K9M3/index.html", "<p>mine</p>")
        try site.write("Data/polls/polls.json", try site.read("Data/polls/polls.json").replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\""))
        let before = try fileTree(site.root.appendingPathComponent("Output"))
        let refused = try SitegenProcess.run(["build"], in: site.root)
        #expect(refused.status == 3)
        #expect(refused.stderr == "error: Output: refusing to replace this folder: 1 file in it was not written by sitegen: "
                + "polls/X7K9M3/index.html. Move it away, or list it under `keep:` in site.yml\n")
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == before)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Output/polls/X7K9M3"))
        try site.write("Data/polls/polls.json", try site.read("Data/polls/polls.json").replacingOccurrences(of: "\"x7k9m3\"", with: "\"x7k9m2\""))

        // Listed under keep:, they are carried over, with the three kept by default.
        try site.write("site.yml", try site.read("site.yml") + "keep: [downloads, polls/X7K9M2/notes.txt]\n")
        let kept = try SitegenProcess.run(["build"], in: site.root)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try site.read("Output/downloads/map.pdf") == "%PDF")
        #expect(try site.read("Output/polls/X7K9M2/notes.txt") == "mine")
        #expect(try site.read("Output/polls/X7K9M2/index.html").contains("Again"))
        #expect(try site.read("Output/CNAME") == "trips.example.org\n")
    }

    @Test("An --output under a file names the file in the way, in sitegen's words (exit 3)")
    func outputUnderAFile() throws {
        let site = try goldenSite()
        try site.write("not-a-folder", "a file")
        let refused = try SitegenProcess.run(["build", "--quiet", "--output", "not-a-folder/deeper/out"], in: site.root)
        #expect(refused.status == 3)
        #expect(refused.stderr == "error: not-a-folder/deeper: cannot create folder: not-a-folder is a file, not a folder\n")
    }

    @Test("A manifest.json that says sitegen does not make a web root ours; a symlinked output is written through")
    func foreignAndLinkedOutput() throws {
        let site = try goldenSite()
        try site.write("www/manifest.json", "{\"generator\": \"sitegen 1.0\"}")
        try site.write("www/blog/index.html", "<p>my blog</p>")
        let refused = try SitegenProcess.run(["build", "--output", "www"], in: site.root)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("blog/index.html, manifest.json"))
        #expect(try site.read("www/blog/index.html") == "<p>my blog</p>")

        // Output -> web root: the web root is written and the link stays a link.
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("webroot"), withIntermediateDirectories: true)
        try link(site, "Output", to: site.root.appendingPathComponent("webroot").path)
        let built = try SitegenProcess.run(["build"], in: site.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: site.root.appendingPathComponent("Output").path)
                == site.root.appendingPathComponent("webroot").path)
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("webroot/polls/X7K9M2/index.html").path))

        // A link that makes the output an input folder is seen through.
        try link(site, "Sneaky", to: site.root.appendingPathComponent("Data/votes").path)
        let inside = try SitegenProcess.run(["build", "--output", "Sneaky"], in: site.root)
        #expect(inside.status == 3)
        #expect(inside.stderr.contains("refusing to use this output folder"))
    }

    /// Mounts a small tmpfs at `folder`; false where mounting is not allowed (not root).
    static func mountTmpfs(_ folder: URL) -> Bool {
        mount(["-t", "tmpfs", "-o", "size=16m", "tmpfs", folder.path], folders: [folder])
    }

    /// `folder` made a bind mount of `source` (same file system, same device number).
    static func mountBind(_ source: URL, at folder: URL) -> Bool {
        mount(["--bind", source.path, folder.path], folders: [source, folder])
    }

    /// `mount` with `arguments`, the `folders` made first; false where it cannot (not root).
    private static func mount(_ arguments: [String], folders: [URL]) -> Bool {
        for folder in folders { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = arguments
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return false }
        mount.waitUntilExit()
        return mount.terminationStatus == 0
    }

    static func unmount(_ folder: URL) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = [folder.path]
        try? umount.run()
        umount.waitUntilExit()
    }

    @Test("An output folder that is a mount point builds and rebuilds: its contents are swapped, not the folder")
    func mountPointOutput() throws {
        let site = try goldenSite()
        let output = site.root.appendingPathComponent("Output")
        guard Self.mountTmpfs(output) else { return }   // needs root; CI runs as root
        defer { Self.unmount(output) }
        try site.write("Output/CNAME", "trips.example.org\n")
        let first = try SitegenProcess.run(["build"], in: site.root)
        #expect(first.status == 0, "\(first.stderr)")
        try site.write("Data/polls/polls.json", try site.read("Data/polls/polls.json").replacingOccurrences(of: "Spec example", with: "Mounted"))
        let second = try SitegenProcess.run(["build"], in: site.root)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try site.read("Output/polls/X7K9M2/index.html").contains("Mounted"))
        #expect(try site.read("Output/CNAME") == "trips.example.org\n")
        // Only the site and the kept file: no staging folder, and the replaced site gone
        // when the build ends (a deploy step right after would upload it).
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).allSatisfy { !$0.contains("sitegen") })
        #expect(OutputFolder.isMountPoint(output.path))
    }

    @Test("An output folder that is a bind mount of the same file system builds, rebuilds and swaps in a template edit")
    func bindMountOutput() throws {
        let site = try goldenSite()
        let output = site.root.appendingPathComponent("Output")
        guard Self.mountBind(site.root.appendingPathComponent("web-root"), at: output) else { return }   // needs root; CI runs as root
        defer { Self.unmount(output) }
        // Its device number is its parent's: only the kernel's mount flag tells.
        #expect(OutputFolder.isMountPoint(output.path))
        #expect(!OutputFolder.isMountPoint(site.root.appendingPathComponent("Data").path))
        let first = try SitegenProcess.run(["build"], in: site.root)
        #expect(first.status == 0, "\(first.stderr)")
        try site.write("Templates/layout.mustache", try site.read("Templates/layout.mustache").replacingOccurrences(of: "Skip to content", with: "Skip to the content"))
        let second = try SitegenProcess.run(["build"], in: site.root)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try site.read("web-root/index.html").contains("Skip to the content"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).allSatisfy { !$0.contains("sitegen") })
    }

    @Test("An output path that is a link to nothing, or a loop of links, is refused by name, leaving nothing beside it")
    func danglingOutputLink() throws {
        let site = try goldenSite()
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("dang").path, withDestinationPath: "/nonexistent/out")
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("loop1").path, withDestinationPath: "loop2")
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("loop2").path, withDestinationPath: "loop1")
        let before = try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted()
        for name in ["dang", "loop1"] {
            let result = try SitegenProcess.run(["build", "--output", name], in: site.root)
            #expect(result.status == 3)
            #expect(result.stderr == "error: \(name): the output path is a link to nothing (or a loop of links): make the folder it names, or name another\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == before)
    }

    @Test("A link out of an input folder added after a build is the same error on the rebuild, not \"Nothing changed\"")
    func linkOutAfterBuild() throws {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        try site.write("outside/v.json", "[]")
        try link(site, "Data/votes/friend.json", to: site.root.appendingPathComponent("outside/v.json").path)
        for _ in 0..<2 {
            let rebuild = try SitegenProcess.run(["build"], in: site.root)
            #expect(rebuild.status == 1)
            #expect(rebuild.stderr.contains("Data/votes/friend.json: error: a link out of its folder"), "\(rebuild.stderr)")
        }
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/votes/friend.json"))
        try link(site, "Templates/assets/x.css", to: site.root.appendingPathComponent("outside/v.json").path)
        let assets = try SitegenProcess.run(["build"], in: site.root)
        #expect(assets.status == 2)
        #expect(assets.stderr.hasPrefix("Templates/assets/x.css: error: a link out of its folder"))
    }

    @Test("Links out of templates, assets and inputs are errors naming the link; special files are warnings")
    func symlinks() throws {
        let site = try goldenSite()
        try site.write("outside/secret.css", "root:x:0:0")
        try link(site, "Templates/assets/x.css", to: site.root.appendingPathComponent("outside/secret.css").path)
        let assets = try SitegenProcess.run(["build"], in: site.root)
        #expect(assets.status == 2)
        #expect(assets.stderr.hasPrefix("Templates/assets/x.css: error: a link out of its folder"))
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Templates/assets/x.css"))

        try site.write("outside/v.json", "[]")
        try link(site, "Data/votes/friend.json", to: site.root.appendingPathComponent("outside/v.json").path)
        let vote = try SitegenProcess.run(["build"], in: site.root)
        #expect(vote.status == 1)
        #expect(vote.stderr.contains("Data/votes/friend.json: error: a link out of its folder"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/votes/friend.json"))

        // A FIFO is skipped with a warning, not read (which would block) nor an NSCocoaErrorDomain error.
        #expect(mkfifo(site.root.appendingPathComponent("Data/votes/pipe.json").path, 0o644) == 0)
        #expect(mkfifo(site.root.appendingPathComponent("Templates/stray.mustache").path, 0o644) == 0)
        let fifo = try SitegenProcess.run(["build"], in: site.root)
        #expect(fifo.status == 0, "\(fifo.stderr)")
        #expect(fifo.stderr.contains("Data/votes/pipe.json: warning: skipped: not a regular file (a named pipe)"))
        #expect(fifo.stderr.contains("Templates/stray.mustache: warning: skipped: not a regular file (a named pipe)"))
        #expect(!fifo.stderr.contains("NSCocoaErrorDomain"))

        // A FIFO as tips.file: an error, not a build that blocks reading it.
        #expect(mkfifo(site.root.appendingPathComponent("tips.json").path, 0o644) == 0)
        try site.write("site.yml", try site.read("site.yml") + "tips:\n  file: tips.json\n")
        let tips = try SitegenProcess.run(["check"], in: site.root)
        #expect(tips.status == 1)
        #expect(tips.stderr.contains("tips.json: error: tips.file: cannot read the tips file site.yml names: it is missing or not a regular file"))

        // site.yml itself a FIFO or a folder: exit 2 with a reason, not a hang or error 256.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("site.yml"))
        #expect(mkfifo(site.root.appendingPathComponent("site.yml").path, 0o644) == 0)
        let config = try SitegenProcess.run(["check"], in: site.root)
        #expect(config.status == 2)
        #expect(config.stderr == "site.yml: error: cannot read the site configuration: it is not a regular file\n")
    }

    @Test("A linked votes folder is read; a linked template is fingerprinted, so editing it rebuilds")
    func linkedFoldersAndTemplates() throws {
        let site = try goldenSite()
        try FileManager.default.moveItem(at: site.root.appendingPathComponent("Data/votes"), to: site.root.appendingPathComponent("shared-votes"))
        try link(site, "Data/votes", to: "../shared-votes")
        let built = try SitegenProcess.run(["build"], in: site.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("from 2 polls and 8 ballots"))

        try FileManager.default.moveItem(at: site.root.appendingPathComponent("Templates/tips.mustache"),
                                         to: site.root.appendingPathComponent("Templates/partials-tips.real"))
        try link(site, "Templates/tips.mustache", to: "partials-tips.real")
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        try site.write("Templates/partials-tips.real", try site.read("Templates/partials-tips.real") + "<!-- edited -->")
        let edited = try SitegenProcess.run(["build"], in: site.root)
        #expect(edited.status == 0)
        #expect(!edited.stdout.hasPrefix("Nothing changed"))
        #expect(try site.read("Output/tips/index.html").contains("<!-- edited -->"))
    }

    @Test("manifest.json names no voter, no hidden page and nothing outside the site folder")
    func manifestNames() throws {
        let site = try goldenSite()
        try FileManager.default.moveItem(at: site.root.appendingPathComponent("Data/votes/tie.json"),
                                         to: site.root.appendingPathComponent("Data/votes/alice-smith.json"))
        try site.write("Pages/about.md", "---\ntitle: About\n---\nhello\n")
        try site.write("Pages/.draft-surprise.md", "---\ntitle: Surprise\n---\nhidden\n")
        let games = try TemporarySite()
        try FileManager.default.removeItem(at: games.root)
        try FileManager.default.moveItem(at: site.root.appendingPathComponent("Data/games"), to: games.root)
        try site.write("site.yml", try site.read("site.yml") + "pages: Pages\ninputs:\n  games: \(games.root.path)\n")
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try site.read("Output/manifest.json")
        #expect(!manifest.contains("alice"))
        #expect(!manifest.contains("surprise"))
        #expect(!manifest.contains(".."))
        #expect(!manifest.contains(site.root.path))
        #expect(manifest.contains("\"path\": \"Data/votes/"))
        #expect(manifest.contains("\"path\": \"inputs.games/"))
        #expect(manifest.contains("\"path\": \"Pages/about.md\""))
    }

    @Test("baseURL with user info, a query or a fragment is exit 2 at its position; huge values are errors",
          arguments: ["https://user:pw@example.org/", "https://example.org/?a=1", "https://example.org/#top", "ftp://example.org/", "https:///path"])
    func badBaseURL(url: String) throws {
        let site = try goldenSite()
        try site.write("site.yml", "title: T\nbaseURL: \(url)\n")
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("site.yml:2:10: error: baseURL: expected an http or https URL with a host"))
    }

    @Test("A 50 MB description, a 100 KB description and a huge site.yml are errors, not 'too long' on every page")
    func hugeConfigValues() throws {
        let site = try goldenSite()
        try site.write("site.yml", "title: T\ndescription: \"\(String(repeating: "a", count: 100_000))\"\n")
        let long = try SitegenProcess.run(["check"], in: site.root)
        #expect(long.status == 2)
        #expect(long.stderr == "site.yml:2:14: error: description: is 100000 bytes; at most 65536 bytes are allowed\n")
        try site.write("site.yml", "title: T\ndescription: \"\(String(repeating: "a", count: 50_000_000))\"\n")
        let huge = try SitegenProcess.run(["check"], in: site.root)
        #expect(huge.status == 2)
        #expect(huge.stderr == "site.yml:1:1: error: the file is 50000025 bytes; site.yml may be at most 1048576 bytes\n")
    }

    @Test("SOURCE_DATE_EPOCH must be whole seconds in range, else exit 2",
          arguments: ["abc", "0x10", "1e9", "-5", "99999999999999999999", "253402300800", " 1"])
    func badEpoch(value: String) throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["build"], in: site.root, environment: ["SOURCE_DATE_EPOCH": value])
        #expect(result.status == 2)
        #expect(result.stderr == "SOURCE_DATE_EPOCH: error: expected whole seconds since 1970 from 0 to 253402300799 (year 9999), found \"\(value)\"\n")
        #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output").path))
    }

    @Test("SOURCE_DATE_EPOCH set to nothing is not set: the build time comes from the inputs")
    func emptyEpoch() throws {
        let site = try goldenSite()
        let result = try SitegenProcess.run(["build"], in: site.root, environment: ["SOURCE_DATE_EPOCH": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try site.read("Output/manifest.json").contains("\"buildTime\": \"2026-05-09T06:13:20Z\""))
    }

    @Test("A record time no app can have saved (year 4852, 1908) is warned about at the field and does not date the site")
    func implausibleRecordTime() throws {
        let site = try goldenSite()
        let votes = try site.read("Data/votes/tie.json")
        try site.write("Data/votes/tie.json", votes
            .replacingOccurrences(of: #""votedAt": "2026-05-05T10:00:00Z", "modifiedAt": "2026-05-05T10:00:00Z""#, with: #""votedAt": -2.9e9, "modifiedAt": 9e10"#))
        let result = try SitegenProcess.run(["build"], in: site.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Data/votes/tie.json:2:155: warning: [0].votedAt: 1909-02-08T04:26:40Z is outside 2001–2100, not a time the app can have saved; it is shown as it is but does not date the site\n"))
        #expect(result.stderr.contains("Data/votes/tie.json:2:177: warning: [0].modifiedAt: 4852-12-26T16:00:00Z is outside 2001–2100, not a time the app can have saved; it is shown as it is but does not date the site\n"))
        #expect(try site.read("Output/manifest.json").contains("\"buildTime\": \"2026-05-09T06:13:20Z\""))
        #expect(!(try site.read("Output/tips/index.html")).contains("4852"))
        // Nor the poll's "last updated" (results.json's updatedAt): the newest other time, the poll's own.
        let results = try site.read("Output/polls/TWB2AA/results.json")
        #expect(results.contains("\"updatedAt\": \"2026-05-09T06:13:20Z\""), "\(results)")
        // The file's other ballot, newer than any other record, still dates it: one ballot's
        // 4852 had hidden every ballot of its file from the build time.
        try site.write("Data/votes/tie.json", try site.read("Data/votes/tie.json")
            .replacingOccurrences(of: #""votedAt": "2026-05-05T11:00:00Z", "modifiedAt": "2026-05-05T11:00:00Z""#, with: #""votedAt": "2026-06-01T08:00:00Z", "modifiedAt": "2026-06-01T08:00:00Z""#))
        let rebuilt = try SitegenProcess.run(["build", "--quiet"], in: site.root)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try site.read("Output/manifest.json").contains("\"buildTime\": \"2026-06-01T08:00:00Z\""))
    }

    @Test("An input changed while the build reads it is not published under its old hash")
    func changedDuringBuild() throws {
        let site = try goldenSite()
        let config = try SiteConfigLoader.load(site.root.appendingPathComponent("site.yml"))
        let fingerprint = BuildFingerprint.compute(config: config, options: BuildOptions(configFile: config.file))
        #expect(fingerprint.changedInputs().isEmpty)
        Thread.sleep(forTimeInterval: 0.01)
        try site.write("Data/votes/tie.json", try site.read("Data/votes/tie.json") + " ")
        #expect(fingerprint.changedInputs().map(\.lastPathComponent) == ["tie.json"])
    }
}
