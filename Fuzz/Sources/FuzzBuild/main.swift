import Foundation
import SitegenKit

/// The whole build over one hostile export: decode → validate → count → lay out → format →
/// render → write → swap, as `sitegen build` runs it. The decoder targets stop at decoding;
/// a value that decodes fine can still trap later (a date of 1e300 seconds, a distance of
/// 1.5e22 m formatted as miles), which only this target reaches.
///
/// An input is `KIND\n` followed by the export file's bytes; KIND is one of the input
/// folders (polls, votes, trips, items, games, options, convoys; anything else means
/// polls). The file joins the golden test site, whose polls give votes something to count;
/// polls replace the site's polls file, so a mutated copy of it is not a duplicate.
let kinds = ["polls", "votes", "trips", "items", "games", "options", "convoys"]
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let site = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-fuzz-build-\(getpid())")

/// The golden site and the real templates, copied once per fuzzing process.
let prepared: Void = {
    let fileManager = FileManager.default
    try? fileManager.removeItem(at: site)
    try! fileManager.copyItem(at: repository.appendingPathComponent("Tests/SitegenKitTests/Fixtures/golden/site"), to: site)
    try! fileManager.copyItem(at: repository.appendingPathComponent("Templates"), to: site.appendingPathComponent("Templates"))
    for kind in kinds {
        try! fileManager.createDirectory(at: site.appendingPathComponent("Data/\(kind)"), withIntermediateDirectories: true)
    }
    atexit { try? FileManager.default.removeItem(at: site) }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBuild(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = prepared
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let named = String(decoding: bytes[..<newline], as: UTF8.self)
    let kind = kinds.contains(named) ? named : "polls"
    let file = site.appendingPathComponent(kind == "polls" ? "Data/polls/polls.json" : "Data/\(kind)/zz-fuzz.json")
    let original = FileManager.default.contents(atPath: file.path)
    FileManager.default.createFile(atPath: file.path, contents: Data(bytes[min(newline + 1, bytes.count)...]))
    defer {
        if let original { FileManager.default.createFile(atPath: file.path, contents: original) } else { try? FileManager.default.removeItem(at: file) }
    }

    // Every run a first build: reading the last build's state is most of a small rebuild's
    // time under ASan, and each run should render every page anyway.
    let output = site.appendingPathComponent("Output")
    try? FileManager.default.removeItem(at: output)
    BuildState.remove(for: output)

    var options = BuildOptions(configFile: site.appendingPathComponent("site.yml"))
    options.environment = ["SOURCE_DATE_EPOCH": "1781291100"]
    options.date = Date(timeIntervalSince1970: 1_781_291_100)
    options.seed = 1
    // Input errors, warnings and I/O failures are all fine; a trap, a leak or a hang is not.
    _ = try? SiteBuilder(options: options, log: DiagnosticLog()).run()
    return 0
}
