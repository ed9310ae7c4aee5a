import Foundation
@testable import SitegenCore
@testable import SitegenKit
import Testing

/// A site folder under the temporary directory, removed when the test ends.
final class TemporarySite {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("sitegen-test-\(UUID().uuidString)").standardizedFileURL
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The user and group id of `nobody` on Debian.
    static let nobody = 65534

    /// Run as root, hands every file to `nobody`, whom SitegenProcess runs as `withoutRoot`.
    func giveAway() throws {
        guard getuid() == 0 else { return }
        let paths = [root.path] + (FileManager.default.subpaths(atPath: root.path) ?? []).map { root.path + "/" + $0 }
        for path in paths where lchown(path, uid_t(Self.nobody), gid_t(Self.nobody)) != 0 {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The errors a `sitegen check` of the site reports, as printed, its paths relative to
    /// the site; the check must fail.
    func checkErrors(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let log = DiagnosticLog()
        var options = BuildOptions(configFile: root.appendingPathComponent("site.yml"))
        options.write = false
        #expect(throws: BuildFailure.self, sourceLocation: sourceLocation) { try SiteBuilder(options: options, log: log).run() }
        let shown = displayPath(root) + "/"
        return log.all.filter { $0.severity == .error }.map { $0.description.replacingOccurrences(of: shown, with: "") }
    }

    /// Builds the site into its Output folder; every diagnostic, as printed, its paths
    /// relative to the site.
    func buildDiagnostics() throws -> [String] {
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: root.appendingPathComponent("site.yml")), log: log).run()
        let shown = displayPath(root) + "/"
        return log.all.map { $0.description.replacingOccurrences(of: shown, with: "") }
    }

    /// Copies the repository's real templates, so tests exercise what users get.
    func copyTemplates() throws {
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Templates"),
                                         to: root.appendingPathComponent("Templates"))
    }

    func copy(from folder: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
    }
}

enum Repository {
    /// The package root, found from this file's path (fixtures are read in place).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/SitegenKitTests/Fixtures")
}

/// Every file below `folder` with its bytes, keyed by relative path.
func fileTree(_ folder: URL) throws -> [String: Data] {
    var tree: [String: Data] = [:]
    let base = folder.standardizedFileURL.path
    guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [:] }
    for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
        tree[String(url.standardizedFileURL.path.dropFirst(base.count + 1))] = try Data(contentsOf: url)
    }
    return tree
}

/// Compares files (path → bytes) with the golden copies in `folder`: no missing, unexpected
/// or different file. `SITEGEN_UPDATE_GOLDEN=1` first rewrites the copies from `actual`;
/// read their diff before committing it.
func expectGolden(_ actual: [String: Data], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if ProcessInfo.processInfo.environment["SITEGEN_UPDATE_GOLDEN"] == "1" {
        try? FileManager.default.removeItem(at: folder)
        for (path, data) in actual {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }
    let expected = try fileTree(folder)
    #expect(!expected.isEmpty, "run with SITEGEN_UPDATE_GOLDEN=1 to create \(folder.lastPathComponent), then read it", sourceLocation: sourceLocation)
    #expect(Set(actual.keys).subtracting(expected.keys).sorted() == [], "unexpected files", sourceLocation: sourceLocation)
    #expect(Set(expected.keys).subtracting(actual.keys).sorted() == [], "missing files", sourceLocation: sourceLocation)
    for path in Set(actual.keys).intersection(expected.keys).sorted() {
        #expect(actual[path] == expected[path], "\(path) differs from the golden copy", sourceLocation: sourceLocation)
    }
}
