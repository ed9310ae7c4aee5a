import Foundation
import SitegenCore
import SitegenInput
import SitegenRender

/// Everything a build depends on, hashed into one value: every input file's bytes (site.yml,
/// templates, exports, pages, the tips file), the options that change output (`--date`,
/// `--seed`, `SOURCE_DATE_EPOCH`) and the sitegen binary itself.
public struct BuildFingerprint: Sendable, Equatable {
    public let value: String
    /// Every input file with its hash, under its published name (InputSource), for manifest.json.
    public let inputs: [InputFile]
    /// What every poll's files are rendered from besides the poll and its ballots: sitegen,
    /// site.yml, templates and assets, and the pages' front matter (their titles are the
    /// navigation). Not custom items, convoys, option sets, the tips file or a page's text,
    /// which no poll page shows: editing them rendered every poll again. Nor the itinerary
    /// and game files: what a poll's trip pages take from them (links, the games they list)
    /// is in each poll's own key (ItineraryLayout.linksDigest). `--date`, `--seed` and
    /// SOURCE_DATE_EPOCH are left out: polls render without the build time and tips
    /// (PollSteps.kit). Part of each poll's key (PollSteps) and of the poll cache's.
    let pollContext: String
    /// The itinerary and game files: while they are the last build's, no kept poll's links
    /// changed, and the poll cache's shares need no check of them (PollStream).
    let catalogContext: String
    /// What the site's other keyed files (itineraries, the sitemap: PlannedFile.key) are
    /// rendered from besides themselves: `pollContext`'s inputs and every other input but
    /// polls and votes.
    let siteContext: String
    /// Each input file's SHA-256, by standardized path (PollFileCache compares poll files by it).
    let hashes: [String: String]

    /// Each input file's size and modification time when it was hashed, to notice a file
    /// that changes while the build reads it.
    let stamps: [(URL, FileStamp)]
    /// What the next build may take instead of reading the inputs again (BuildRecord.inputHashes).
    let inputHashes: [HashedInput]

    public static func == (a: BuildFingerprint, b: BuildFingerprint) -> Bool {
        a.value == b.value && a.inputs == b.inputs
    }

    /// `known`: the last build's hashes (BuildRecord.inputHashes); an input whose stamp is
    /// the one recorded there is not read again. `now` (nanoseconds since 1970, the clock
    /// unless a test sets it) decides which inputs have settled (FileStamp.isSettled).
    package static func compute(config: SiteConfig, options: BuildOptions, known: [HashedInput] = [],
                                now: Int? = nil) -> BuildFingerprint {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let started = now ?? nanoseconds(clock)
        // Asking fontconfig for the cards' fonts takes a few milliseconds: done beside the inputs' stamps.
        let fonts = DispatchGroup()
        if config.previews { DispatchQueue.global().async(group: fonts) { _ = PreviewCard.drawingCode } }
        var problems: [String] = []
        let sources = inputSources(config, problems: &problems)
        let hashed = ConcurrentResults<(fingerprint: InputFile, published: InputFile, stamp: FileStamp)>(count: sources.count)
        let loader = ExportLoader(siteFolder: config.folder, decoder: ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference)), log: DiagnosticLog())
        let knownByPath = Dictionary(known.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let paths = sources.map { $0.url.standardizedFileURL.path }
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            let source = sources[index]
            // Stamped before reading: a change after this point shows in `changedInputs`.
            let stamp = FileStamp(source.url.path)
            let hash: String
            if let last = knownByPath[paths[index]], last.stamp == stamp {
                hash = last.sha256
            } else {
                // An unreadable or special file (a FIFO would block) hashes as missing; the
                // build proper reports it.
                let readable = InputFolder.regularFileSize(source.url) != nil
                hash = sha256Hex((readable ? try? Data(contentsOf: source.url) : nil) ?? Data())
            }
            hashed[index] = (InputFile(path: loader.relativePath(of: source.url), sha256: hash),
                             InputFile(path: source.publishedName(hash: hash), sha256: hash), stamp)
        }
        let values = hashed.values
        fonts.wait()
        let tools = toolLines(previews: config.previews)
        var lines = tools
        lines.append("date \(options.date.map(Formatting.iso8601) ?? "-")")
        lines.append("seed \(options.seed.map(String.init) ?? "-")")
        lines.append("epoch \(options.environment["SOURCE_DATE_EPOCH"] ?? "-")")
        // What listing the inputs found wrong (a link out of its folder, a name that cannot
        // be published): a build that had none is not "up to date" once one appears, so
        // the error is reported on every build, not only the first.
        lines += problems.sorted().map { "problem \($0)" }
        let common = tools
        lines += values.map(\.fingerprint).sorted { $0.path < $1.path }.map { "\($0.path) \($0.sha256)" }
        let siteLines = common + zip(sources, values).filter { !["inputs.polls", "inputs.votes"].contains($0.0.key) }
            .map(\.1.fingerprint).sorted { $0.path < $1.path }.map { "\($0.path) \($0.sha256)" }
        let catalogLines = zip(sources, values).filter { ["inputs.trips", "inputs.games"].contains($0.0.key) }
            .map { "\($0.1.fingerprint.path) \($0.1.fingerprint.sha256)" }.sorted()
        let pollLines = common + zip(sources, values).compactMap { source, value -> String? in
            switch source.key {
            case "site.yml", "templates": return "\(value.fingerprint.path) \(value.fingerprint.sha256)"
            case "pages": return "\(value.fingerprint.path) front matter \(frontMatterDigest(source.url) ?? value.fingerprint.sha256)"
            default: return nil
            }
        }.sorted()
        return BuildFingerprint(value: sha256Hex(Array(lines.joined(separator: "\n").utf8)),
                                inputs: values.map(\.published).sorted { $0.path < $1.path },
                                pollContext: sha256Hex(Array(pollLines.joined(separator: "\n").utf8)),
                                catalogContext: sha256Hex(Array(catalogLines.joined(separator: "\n").utf8)),
                                siteContext: sha256Hex(Array(siteLines.joined(separator: "\n").utf8)),
                                hashes: Dictionary(zip(sources, values).map { ($0.0.url.standardizedFileURL.path, $0.1.fingerprint.sha256) },
                                                   uniquingKeysWith: { first, _ in first }),
                                stamps: zip(sources, values).map { ($0.url, $1.stamp) },
                                // Only inputs settled before this build began are taken by their stamp next time.
                                inputHashes: zip(paths, values).filter { $1.stamp.isSettled(at: started) }
                                    .map { HashedInput(path: $0, stamp: $1.stamp, sha256: $1.fingerprint.sha256) })
    }

    /// The SHA-256 of a page's front matter (from its first line to the closing `---` line),
    /// which is all a poll page shows of it (its title in the navigation); nil when the file
    /// cannot be read or has none (the whole file counts then).
    static func frontMatterDigest(_ url: URL) -> String? {
        guard InputFolder.regularFileSize(url) != nil, let bytes = try? [UInt8](Data(contentsOf: url)) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        guard let first = lines.next(), first.trimmingCharacters(in: .whitespaces) == "---" else { return nil }
        var frontMatter = String(first)
        while let line = lines.next() {
            frontMatter += "\n" + line
            if line.trimmingCharacters(in: .whitespaces) == "---" { return sha256Hex(Array(frontMatter.utf8)) }
        }
        return nil
    }

    /// Inputs whose size or modification time differ from when they were hashed: what the
    /// build read may not be what manifest.json and the build state record.
    public func changedInputs() -> [URL] {
        stamps.filter { FileStamp($0.0.path) != $0.1 }.map(\.0)
    }

    /// What makes the files besides the inputs: sitegen itself, the tz database that names
    /// time zones (Formatting.abbreviation), and with preview cards their drawing code,
    /// libraries and fonts (a cairo, font or tzdata upgrade changes pages, not the binary).
    /// A site without cards does not depend on them, nor pay for asking fontconfig.
    static func toolLines(previews: Bool) -> [String] {
        ["sitegen \(SitegenVersion.current)", "binary \(executableIdentity())", "tzdata \(ZoneAbbreviations.shared.version ?? "-")"]
            + (previews ? ["cards \(PreviewCard.drawingCode)"] : [])
    }

    static func inputURLs(_ config: SiteConfig) -> [URL] {
        var problems: [String] = []
        return inputSources(config, problems: &problems).map(\.url)
    }

    /// Every input file; `problems` gets what listing them found wrong (the build proper
    /// reports it).
    static func inputSources(_ config: SiteConfig, problems: inout [String]) -> [InputSource] {
        var sources = [InputSource(url: config.file, folder: config.folder, key: "site.yml")]
        let templates = InputFolder.list(config.templates)
        problems += templates.problems.map(\.description)
        sources += templates.files.map { InputSource(url: $0, folder: config.templates, key: "templates") }
        let log = DiagnosticLog(keepsEvery: true)
        let exports = [("inputs.polls", config.inputs.polls), ("inputs.votes", config.inputs.votes),
                       ("inputs.trips", config.inputs.trips), ("inputs.items", config.inputs.items),
                       ("inputs.games", config.inputs.games), ("inputs.options", config.inputs.options),
                       ("inputs.convoys", config.inputs.convoys)]
        // Named in manifest.json by their hash, not their names: vote files (often named
        // after the voter), convoy files (a private convoy's is often its id or title, and
        // it is not published), and poll files of an unlisted site (often the share code).
        let hashNamed: Set<String> = config.listPolls ? ["inputs.votes", "inputs.convoys"] : ["inputs.votes", "inputs.convoys", "inputs.polls"]
        for (key, folder) in exports {
            sources += ExportLoader.jsonFiles(below: folder, log: log).map {
                InputSource(url: $0, folder: folder, key: key, namedByHash: hashNamed.contains(key))
            }
        }
        if let pages = config.pages {
            let listing = InputFolder.list(pages, recursive: false) { $0.hasSuffix(".md") }
            problems += listing.problems.map(\.description)
            sources += listing.files.map { InputSource(url: $0, folder: pages, key: "pages") }
        }
        problems += log.all.map(\.description)
        if let tips = config.tips.file {
            sources.append(InputSource(url: tips, folder: tips.deletingLastPathComponent(), key: "tips.file"))
        }
        return sources.map { $0.inside(config.folder) }
    }

    /// A new sitegen build may render differently: its size and modification time stand in
    /// for its bytes (hashing a 20 MB binary on every build would cost more than it saves).
    static func executableIdentity() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return path }
        let size = (attributes[.size] as? Int) ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path) \(size) \(modified)"
    }
}
