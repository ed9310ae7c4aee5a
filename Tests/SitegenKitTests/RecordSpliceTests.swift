import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenOutput
import Testing

/// A rebuild in place writes the build state and manifest.json as the last build's bytes
/// with its changes made (RecordSplice): byte for byte what writing them whole gives, or,
/// when the last file is not as expected, nothing at all (the caller then writes it whole).
@Suite("Build state and manifest.json made from the last build's")
struct RecordSpliceTests {
    typealias Files = [(path: String, file: WrittenFile)]

    /// Paths that sort awkwardly: one the prefix of others, bytes either side of "/",
    /// escapes, non-ASCII; and many plain ones.
    static let paths: [String] = {
        var paths = ["a", "a/b", "a-b", "a.b", "a/b/c", "b\"quote\"", "back\\slash", "line\nbreak",
                     "caf\u{E9}/index.html", "z\u{2028}", "~last", "<tag>&"]
        for index in 0..<300 { paths.append("polls/P\(index * 7919 % 1000)/index.html") }
        return sorted(paths)
    }()

    static func sorted(_ paths: [String]) -> [String] {
        paths.sorted { OutputList.precedes(Array($0.utf8), Array($1.utf8)) }
    }

    static func file(_ seed: Int) -> WrittenFile {
        WrittenFile(hash: ContentHash(of: Array("\(seed)".utf8)), size: seed % 5000, modified: 1_795_000_000_000_000_000 + seed)
    }

    static let old: Files = paths.enumerated().map { ($1, file($0)) }

    /// The list after `changes`, and the changes in path order.
    static func applying(_ changed: [String: WrittenFile?]) -> (new: Files, changes: [RecordSplice.Change]) {
        var files = Dictionary(uniqueKeysWithValues: old.map { ($0.path, $0.file) })
        for (path, file) in changed { files[path] = file }
        let new = sorted(Array(files.keys)).map { ($0, files[$0]!) }
        let changes = sorted(Array(changed.keys)).map { RecordSplice.Change(path: Array($0.utf8), file: changed[$0]!) }
        return (new, changes)
    }

    /// Named change sets: at both ends, in the middle, added before the first and after the
    /// last, escaped paths, everything, and a pseudo-random mix.
    static let changeSets: [(String, [String: WrittenFile?])] = {
        let gone: WrittenFile? = nil
        var mix: [String: WrittenFile?] = [:]
        var random = SplitMix64(seed: 16)
        for path in paths where random.next(below: 3) == 0 { mix[path] = random.next(below: 2) == 0 ? file(9000 + mix.count) : gone }
        for index in 0..<20 { mix["polls/P\(index)x/index.html"] = file(8000 + index) }
        let first = paths.first!, last = paths.last!
        return [
            ("nothing", [:]),
            ("the first and the last changed", [first: file(1), last: file(2)]),
            ("the first and the last removed", [first: gone, last: gone]),
            ("added before the first, after the last, inside", ["!": file(3), "~~~": file(4), "a/b/b": file(5), "polls/P5/index.htm": file(6)]),
            ("escaped paths changed, one removed, one added", ["b\"quote\"": file(7), "line\nbreak": gone, "new\\one\"": file(8)]),
            ("all removed but one", Dictionary(uniqueKeysWithValues: paths.dropFirst(5).map { ($0, gone) } + paths.prefix(4).map { ($0, gone) })),
            ("every path changed", Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, file(10_000 + $0)) })),
            ("a mix", mix),
        ]
    }()

    static func record(files: Int) -> BuildRecord {
        var record = BuildRecord(fingerprint: "f", pages: 3, files: files, polls: 2, ballots: 9, diagnostics: [],
                                 pollKeys: [String(repeating: "a", count: 64), "sitemap x"])
        record.inputHashes = [HashedInput(path: "/site/Data/polls/a.json", stamp: FileStamp(size: 10, modified: 20, changed: 30, inode: 40),
                                          sha256: String(repeating: "b", count: 64))]
        return record
    }

    func save(_ files: Files, to output: URL, files count: Int? = nil) throws {
        try BuildState.save(for: output, Self.record(files: count ?? files.count), outputs: { body in
            for (path, file) in files { try body(Array(path.utf8), file) }
        })
    }

    func stateBytes(_ output: URL) throws -> Data { try Data(contentsOf: BuildState.url(for: output)) }

    @Test("The spliced build state is the state written whole", arguments: changeSets.map(\.0))
    func state(_ name: String) throws {
        let (new, changes) = Self.applying(Self.changeSets.first { $0.0 == name }!.1)
        let site = try TemporarySite()
        let spliced = site.root.appendingPathComponent("Spliced"), whole = site.root.appendingPathComponent("Whole")
        try save(Self.old, to: spliced)
        let last = try #require(BuildState.read(for: spliced))
        #expect(try BuildState.saveSpliced(for: spliced, Self.record(files: new.count), last: last, lastFiles: Self.old.count, changes: changes))
        try save(new, to: whole)
        #expect(try stateBytes(spliced) == stateBytes(whole))
    }

    @Test("The spliced manifest.json is the manifest written whole", arguments: changeSets.map(\.0))
    func manifest(_ name: String) throws {
        let (new, changes) = Self.applying(Self.changeSets.first { $0.0 == name }!.1)
        let entries = { (files: Files) in files.map { Manifest.Entry(path: $0.path, hash: $0.file.hash) } }
        let last = Manifest(buildTime: Date(timeIntervalSince1970: 1_781_291_100), inputs: ManifestTests.inputs).bytes(outputs: entries(Self.old))
        let manifest = Manifest(buildTime: Date(timeIntervalSince1970: 1_781_300_000), inputs: Array(ManifestTests.inputs.prefix(1)))
        var spliced = ByteBuffer()
        #expect(try last.withUnsafeBytes { try manifest.writeSpliced(last: .memory($0), changes: changes, to: &spliced) })
        #expect(String(decoding: spliced.bytes, as: UTF8.self) == String(decoding: manifest.bytes(outputs: entries(new)), as: UTF8.self))
    }

    @Test("A state that is not the one read, a removal it does not list, or a wrong count: nothing written")
    func stateRefusals() throws {
        let site = try TemporarySite()
        let output = site.root.appendingPathComponent("Output")
        try save(Self.old, to: output)
        let last = try #require(BuildState.read(for: output))
        let before = try stateBytes(output)
        let gone = [RecordSplice.Change(path: Array("not/there".utf8), file: nil)]
        #expect(try !BuildState.saveSpliced(for: output, Self.record(files: Self.old.count - 1), last: last, lastFiles: Self.old.count, changes: gone))
        let changed = [RecordSplice.Change(path: Array("a".utf8), file: Self.file(1))]
        #expect(try !BuildState.saveSpliced(for: output, Self.record(files: Self.old.count + 1), last: last, lastFiles: Self.old.count, changes: changed))
        #expect(try stateBytes(output) == before)
        // Written again (another size and time) after it was read.
        try save(Array(Self.old.dropLast()), to: output, files: Self.old.count)
        #expect(try !BuildState.saveSpliced(for: output, Self.record(files: Self.old.count), last: last, lastFiles: Self.old.count, changes: changed))
        #expect(try stateBytes(output) != before)
    }

    @Test("A manifest with unlisted polls, one that is not sitegen's, or nothing left listed: nothing written")
    func manifestRefusals() throws {
        let entries = Self.old.map { Manifest.Entry(path: $0.path, hash: $0.file.hash) }
        let manifest = Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: [])
        let change = [RecordSplice.Change(path: Array("a".utf8), file: Self.file(1))]
        let hidden = Manifest(buildTime: Date(timeIntervalSince1970: 0), inputs: [], hiddenPrefix: "polls/")
        let removeAll = Self.paths.map { RecordSplice.Change(path: Array($0.utf8), file: nil) }
        let bytes = manifest.bytes(outputs: entries)
        let cases: [(Manifest, [UInt8], [RecordSplice.Change])] = [
            (hidden, bytes, change),
            (manifest, hidden.bytes(outputs: entries), change),
            // Cut inside an entry (the middle falls between two).
            (manifest, Array(bytes.prefix(bytes.count / 2 + 7)) + Array("\n  ]\n}\n".utf8), change),
            (manifest, Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"sha256\"", with: "\"sha-256\"").utf8), change),
            (manifest, bytes, removeAll),
        ]
        for (index, (manifest, last, changes)) in cases.enumerated() {
            var sink = ByteBuffer()
            #expect(try !last.withUnsafeBytes { try manifest.writeSpliced(last: .memory($0), changes: changes, to: &sink) }, "case \(index)")
            #expect(sink.bytes.isEmpty, "case \(index)")
        }
    }

    /// Rebuilds on disk after `change`; `manifest`: whether manifest.json can be spliced
    /// (not when paths are removed).
    static let diskChanges: [(String, Bool, @Sendable (DependencyRebuildTests, TemporarySite) throws -> Void)] = [
        ("one new ballot", true, { try $0.newBallot($1) }),
        ("a renamed share code", false, { rebuilds, site in
            try rebuilds.edit(site, "Data/polls/a.json") { $0.replacingOccurrences(of: "\"x7k9m2\"", with: "\"x7k9m3\"") }
        }),
        ("a poll deleted", false, { _, site in
            try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/polls/b.json"))
        }),
    ]

    @Test("On disk, a rebuild splices the lists, and the state names every file as it is", arguments: diskChanges.map(\.0))
    func onDisk(_ name: String) throws {
        let (_, manifest, change) = Self.diskChanges.first { $0.0 == name }!
        let rebuilds = DependencyRebuildTests()
        let site = try rebuilds.site()
        try rebuilds.buildOnDisk(site)
        try change(rebuilds, site)
        let output = site.root.appendingPathComponent("Output")
        let folder = OutputFolder(output: output)
        folder.splicesAnyChange = true
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.siteOutput = folder
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        #expect(folder.spliced.manifest == manifest && folder.spliced.state)

        // Every file with its hash, size and time; nothing else.
        let state = try #require(BuildState.read(for: output))
        var listed: Files = []
        try state.forEachOutput { listed.append(($0, $1)) }
        let tree = try fileTree(output)
        #expect(Set(listed.map(\.path)) == Set(tree.keys))
        for (path, file) in listed {
            var info = stat()
            #expect(stat(output.appendingPathComponent(path).path, &info) == 0)
            #expect(file == WrittenFile(hash: ContentHash(of: [UInt8](tree[path] ?? Data())), size: Int(info.st_size), modified: nanoseconds(info.st_mtim)), "\(path)")
        }
        // Byte for byte what saving it whole writes.
        let whole = site.root.appendingPathComponent("Whole")
        try BuildState.save(for: whole, state.record, outputs: { body in for (path, file) in listed { try body(Array(path.utf8), file) } })
        #expect(try stateBytes(output) == stateBytes(whole))
        // And manifest.json is a cold build's.
        try rebuilds.buildOnDisk(site, into: "Cold")
        #expect(try fileTree(output) == fileTree(site.root.appendingPathComponent("Cold")))
    }

    @Test("On disk, a template edit that rewrites most files writes both lists whole")
    func mostFilesChanged() throws {
        let rebuilds = DependencyRebuildTests()
        let site = try rebuilds.site()
        try rebuilds.buildOnDisk(site)
        try rebuilds.edit(site, "Templates/layout.mustache") { $0.replacingOccurrences(of: "</body>", with: "<!-- edited --></body>") }
        let output = site.root.appendingPathComponent("Output")
        let folder = OutputFolder(output: output)
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.siteOutput = folder
        _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
        #expect(!folder.spliced.manifest && !folder.spliced.state)
        try rebuilds.buildOnDisk(site, into: "Cold")
        #expect(try fileTree(output) == fileTree(site.root.appendingPathComponent("Cold")))
    }
}
