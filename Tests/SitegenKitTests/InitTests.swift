import Foundation
import SitegenInit
@testable import SitegenKit
import Testing

@Suite("sitegen init", .serialized)
struct InitTests {
    static let starterSite = Repository.root.appendingPathComponent("Sources/SitegenInit/StarterSite")

    @Test("sitegen init writes every file SwiftPM embeds from StarterSite/, each with its own bytes")
    func everyEmbeddedFileIsWritten() throws {
        let embedded = try Self.filesFollowingSymlinks(in: Self.starterSite)
        let written = Dictionary(DefaultSite.files.map { ($0.path, Data($0.bytes)) }) { first, _ in first }
        #expect(written.count == DefaultSite.files.count, "a path is listed twice")
        let unlisted = Set(embedded.keys).subtracting(written.keys).sorted()
        #expect(unlisted == [], "each file of StarterSite/ needs its line in DefaultSite.files (Sources/SitegenInit/DefaultSite.swift)")
        #expect(Set(written.keys).subtracting(embedded.keys).sorted() == [])
        // A line pairing a path with another file's bytes fails here.
        for (path, bytes) in embedded where written[path] != nil {
            #expect(written[path] == bytes, "\(path)")
        }
        #expect(DefaultSite.files.first?.path == "site.yml")
        #expect(DefaultSite.files.filter { $0.path.hasPrefix("Data/") }.count == 8)
    }

    @Test("The starter site's templates are the repository's Templates/ itself, not a copy")
    func templatesAreTheRepositorys() {
        let link = Self.starterSite.appendingPathComponent("Templates")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "../../../Templates")
        #expect(link.resolvingSymlinksInPath().path == Repository.root.appendingPathComponent("Templates").resolvingSymlinksInPath().path)
    }

    /// The files below `folder` as SwiftPM embeds them: symlinks followed, hidden files skipped.
    static func filesFollowingSymlinks(in folder: URL, prefix: String = "") throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            if isFolder.boolValue {
                files.merge(try filesFollowingSymlinks(in: url, prefix: prefix + name + "/")) { first, _ in first }
            } else {
                files[prefix + name] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("sitegen init DIR, then sitegen build --config DIR/site.yml, works")
    func initThenBuild() throws {
        let temporary = try TemporarySite()
        let folder = temporary.root.appendingPathComponent("new")
        let created = try SitegenProcess.run(["init", folder.path], in: temporary.root)
        #expect(created.status == 0)
        #expect(created.stderr == "")
        #expect(created.stdout == """
        Created a new site in new/: site.yml, \(DefaultSite.files.count - 9) template files and 8 sample exports.
        Next: sitegen build --config new/site.yml, or cd new && sitegen serve

        """)
        let tree = try fileTree(folder)
        #expect(tree.keys.sorted() == DefaultSite.files.map(\.path).sorted())
        let templates = try fileTree(Repository.root.appendingPathComponent("Templates"))
        for (path, bytes) in templates where !path.hasPrefix(".") {
            #expect(tree["Templates/" + path] == bytes, "Templates/\(path)")
        }

        let built = try SitegenProcess.run(["build", "--config", folder.appendingPathComponent("site.yml").path],
                                           in: FileManager.default.temporaryDirectory)
        #expect(built.status == 0)
        #expect(built.stderr == "", "the starter site should build without a warning")
        #expect(built.stdout.contains("from 1 poll and 12 ballots for \"Our Road Trips\""))
        for page in ["index.html", "404.html", "polls/MW6BPS/index.html", "assets/site.css", "manifest.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Output/\(page)").path), "\(page)")
        }
    }

    @Test("init refuses a folder that is not empty (exit 2) and leaves it untouched")
    func refusesNonEmptyFolder() throws {
        let site = try TemporarySite()
        try site.write("notes.txt", "mine")
        let result = try SitegenProcess.run(["init"], in: site.root)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(site.root.path): error: the folder is not empty; sitegen init creates a site only in a new or empty folder\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path) == ["notes.txt"])

        let file = try SitegenProcess.run(["init", "notes.txt"], in: site.root)
        #expect(file.status == 2)
        #expect(file.stderr == "notes.txt: error: exists and is not a folder\n")
    }

    @Test("init fills a folder holding only .git (git init first), and leaves .git as it was")
    func initAfterGitInit() throws {
        let site = try TemporarySite()
        try site.write(".git/HEAD", "ref: refs/heads/main\n")
        let result = try SitegenProcess.run(["init"], in: site.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try site.read(".git/HEAD") == "ref: refs/heads/main\n")
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("site.yml").path))
    }

    @Test("init with no argument fills the current (empty) folder")
    func initHere() throws {
        let site = try TemporarySite()
        let result = try SitegenProcess.run(["init"], in: site.root)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Created a new site in the current folder: site.yml, "))
        #expect(result.stdout.hasSuffix("Next: sitegen build, or sitegen serve to preview it while you edit.\n"))
        #expect(try site.read("site.yml").hasPrefix("# sitegen site configuration."))
        #expect(try SitegenProcess.run(["check"], in: site.root).status == 0)
    }
}
