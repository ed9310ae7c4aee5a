import Foundation
@testable import SitegenKit
import Testing

@Suite("sitegen init", .serialized)
struct InitTests {
    static let regenerate = "run `make embed` (scripts/embed-default-site.py) and commit Sources/SitegenKit/Init/DefaultSite+Generated.swift"

    @Test("The embedded starter site matches Templates/ and the sample exports it was made from")
    func embeddedFilesAreCurrent() throws {
        let templates = Repository.root.appendingPathComponent("Templates")
        let onDisk = try fileTree(templates).filter { !$0.key.split(separator: "/").contains { $0.hasPrefix(".") } }
        let embeddedTemplates = DefaultSite.files.map(\.path).filter { $0.hasPrefix("Templates/") }
        #expect(embeddedTemplates.sorted() == onDisk.keys.map { "Templates/" + $0 }.sorted(),
                "Templates/ gained or lost files: \(Self.regenerate)")
        // Every embedded template (and sample export) against its file, byte for byte.
        for file in DefaultSite.files {
            guard let source = file.source else { continue }
            let current = try? Data(contentsOf: Repository.root.appendingPathComponent(source))
            #expect(current == Data(file.bytes), "\(source) changed since it was embedded: \(Self.regenerate)")
        }
        #expect(DefaultSite.files.first?.path == "site.yml")
        #expect(DefaultSite.files.filter { $0.source == nil }.count == 1, "only site.yml has no source file")
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
