import Foundation
import SitegenCore
import Yams

/// site.yml's problems, each with its key's position, in file order: a file with a
/// misspelt key and a wrong value names both in one run.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]
    /// The first problem.
    public var diagnostic: Diagnostic { diagnostics[0] }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    public init(diagnostic: Diagnostic) {
        diagnostics = [diagnostic]
    }

    init(diagnostics: [Diagnostic]) {
        precondition(!diagnostics.isEmpty)
        self.diagnostics = diagnostics
    }
}

/// Reads site.yml through Yams' node API, so unknown keys and wrong values are reported
/// with their line and column (typos must not pass silently).
public enum SiteConfigLoader {
    package static let topLevelKeys = ["title", "description", "baseURL", "language", "timeZone", "urls", "listPolls",
                               "numericDates", "templates", "output", "keep", "pages", "inputs", "privacy", "tips", "previews"]
    package static let inputKeys = ["polls", "votes", "trips", "items", "games", "options", "convoys"]
    package static let privacyKeys = ["minBallotsForBreakdown"]
    package static let tipsKeys = ["file", "featured", "rotation", "seed"]

    /// The section whose key `key` is ("inputs" for "games").
    static func sectionHolding(_ key: String) -> String? {
        [("inputs", inputKeys), ("privacy", privacyKeys), ("tips", tipsKeys)].first { $0.1.contains(key) }?.0
    }

    /// A control character (a bell, an escape) in the title went raw into every page, which
    /// no HTML allows; in a description, line breaks and tabs are text.
    fileprivate static func refuseControlCharacters(_ text: String, reader: NodeReader, node: Node, key: String, allowingLines: Bool = false) throws(ConfigError) {
        let allowed: Set<Unicode.Scalar> = allowingLines ? ["\n", "\t", "\r"] : []
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) {
            throw reader.error(node, key, "contains the control character U+\(String(format: "%04X", control.value)), which a page cannot show; remove it")
        }
    }

    /// The top-level names of the output folder that sitegen writes, whatever the inputs:
    /// no Markdown page may take one (`MarkdownPages.reservedNames`) and `keep:` may not name
    /// one or a path below it.
    package static let siteTopLevelNames = ["polls", "trips", "options", "convoys", "tips", "assets",
                                            "index.html", "404.html", "robots.txt", "sitemap.xml", "manifest.json"]

    /// Always kept in the output folder, besides site.yml's `keep:` list: a gh-pages
    /// worktree's `.git` and the files GitHub Pages reads.
    public static let defaultKeep = [".git", "CNAME", ".nojekyll"]
    /// site.yml is a page of settings: anything larger is a mistake, refused before it is parsed.
    public static let maxFileBytes = 1024 * 1024
    /// Like export values (ExportDecoder): a title 1 KiB, the Markdown description 64 KiB.
    package static let maxTitleBytes = ExportDecoder.maxTextBytes
    package static let maxDescriptionBytes = ExportDecoder.maxMarkdownBytes
    package static let maxURLBytes = 2048

    public static func load(_ file: URL) throws(ConfigError) -> SiteConfig {
        let shown = displayPath(file)
        func failure(_ message: String, line: Int? = nil) -> ConfigError {
            ConfigError(diagnostic: Diagnostic(.error, file: shown, line: line, column: line.map { _ in 1 }, message: message))
        }
        // open(2) rather than Foundation: the system's reason ("Too many open files") instead
        // of "NSCocoaErrorDomain error 256", and a FIFO is refused instead of blocking.
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            // Someone's first command, in a folder without a site: say how to make one.
            let hint = errno == ENOENT ? " (`sitegen init` makes a starter site; --config names another file)" : ""
            throw failure("cannot read the site configuration: \(reason)\(hint)")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw failure("cannot read the site configuration: it is not a regular file")
        }
        guard Int(info.st_size) <= maxFileBytes else {
            throw failure("the file is \(info.st_size) bytes; site.yml may be at most \(maxFileBytes) bytes", line: 1)
        }
        var bytes = [UInt8](repeating: 0, count: maxFileBytes + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { throw failure("cannot read the site configuration: \(String(cString: strerror(errno)))") }
            if read == 0 { break }
            count += read
        }
        guard count <= maxFileBytes else {
            throw failure("the file is over \(maxFileBytes) bytes; site.yml may be at most \(maxFileBytes) bytes", line: 1)
        }
        guard let text = String(bytes: bytes[..<count], encoding: .utf8) else {
            throw failure("cannot read the site configuration: it is not UTF-8 text")
        }
        return try parse(text, file: file)
    }

    public static func parse(_ text: String, file: URL) throws(ConfigError) -> SiteConfig {
        let shown = displayPath(file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigError(diagnostic: yamlDiagnostic(error, file: shown, text: text))
        } catch {
            throw ConfigError(diagnostic: Diagnostic(.error, file: shown, message: "not valid YAML: \(error)"))
        }
        guard let root, case .mapping = root else {
            throw ConfigError(diagnostic: Diagnostic(.error, file: shown, line: root?.mark?.line, column: root?.mark?.column,
                                                     message: "expected a mapping of settings such as `title: My trips`"))
        }
        // Each setting is read on its own: a problem is noted and the setting's default
        // stands in, so every problem of the file is reported in one run.
        let reader = NodeReader(file: shown)
        let top = reader.mapping(root, keys: topLevelKeys, name: "")
        let folder = file.deletingLastPathComponent()

        // Keys whose path site.yml gives (not a default): such a folder that does not exist is
        // a typo to warn about.
        var named: Set<String> = []
        func path(_ node: Node?, _ key: String, default value: String?) -> URL? {
            let raw = reader.noting(value) { () throws(ConfigError) in
                // An empty value is not set, as null is: "" was the site folder itself.
                guard let given = try reader.optionalString(node, key), !given.isEmpty else { return value }
                // A folder of inputs that names a file ("votes: site.yml") was an input error
                // naming the file alone, with no word of the setting.
                var info = stat()
                if key != "output", key != "tips.file", stat(URL(fileURLWithPath: given, relativeTo: folder).path, &info) == 0,
                   (info.st_mode & S_IFMT) != S_IFDIR {
                    throw reader.error(node!, key, "expected a folder, found a file: \"\(given)\"")
                }
                named.insert(key)
                return given
            }
            return raw.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
        }

        var title = ""
        if let titleNode = top["title"] {
            title = reader.noting("") { () throws(ConfigError) in
                let title = try reader.string(titleNode, "title")
                // Zero-width characters and fillers (U+3164) alone are as empty as spaces, as in exports.
                if title.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }) {
                    throw reader.error(titleNode, "title", "must not be empty")
                }
                try Self.refuseControlCharacters(title, reader: reader, node: titleNode, key: "title")
                try reader.limit(titleNode, "title", title, maxTitleBytes)
                return title
            }
        } else {
            reader.note(Diagnostic(.error, file: shown, line: 1, column: 1, field: "title", message: "required setting is missing"))
        }
        let description = reader.noting(nil) { () throws(ConfigError) in
            let description = try reader.optionalString(top["description"], "description")
            if let description {
                try reader.limit(top["description"]!, "description", description, maxDescriptionBytes)
                try Self.refuseControlCharacters(description, reader: reader, node: top["description"]!, key: "description", allowingLines: true)
            }
            return description
        }

        let baseURL = reader.noting(nil) { () throws(ConfigError) -> URL? in
            guard let node = top["baseURL"], let raw = try reader.optionalString(node, "baseURL") else { return nil }
            try reader.limit(node, "baseURL", raw, maxURLBytes)
            guard let url = publishedURL(raw) else {
                throw reader.error(node, "baseURL", "expected an http or https URL with a host and an optional path, such as https://example.org/trips/ (no user name, password, query or fragment: it is printed on every page)")
            }
            return url
        }
        let language = reader.noting("en") { () throws(ConfigError) in
            let language = try reader.optionalString(top["language"], "language") ?? "en"
            guard !language.isEmpty, language.utf8.count <= 35,
                  language.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-") }) else {
                throw reader.error(top["language"]!, "language", "expected a language tag such as en or en-US")
            }
            return language
        }
        var keepMarks: [String: (line: Int?, column: Int?)] = [:]
        let listed: [String] = reader.noting([]) { () throws(ConfigError) in
            // "downloads/", "./downloads" and "downloads//x" name what "downloads" and
            // "downloads/x" do; ".." and absolute paths stay what they are, and are refused.
            let listed = (try reader.optionalStrings(top["keep"], "keep") ?? []).map { path -> String in
                guard !path.hasPrefix("/") else { return path }
                let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
                return parts.isEmpty ? path : parts.joined(separator: "/")
            }
            for (index, path) in listed.enumerated() where !SafePath.isSafe(path) || path.utf8.count > maxTitleBytes {
                throw reader.error(reader.item(top["keep"]!, index), "keep", "expected a path inside the output folder such as CNAME or downloads/map.pdf, found \"\(path)\"")
            }
            // A path sitegen writes passed the first build, then failed every build that
            // changed it: a scheduled job stuck on exit 3. (A file of one's own inside one of
            // its folders, polls/X7K9M2/notes.txt, may be kept; PlanStage checks the rest.)
            // sitemap.xml is written only with a baseURL.
            // Each such entry is named, in file order, as every other problem of the file is.
            for (index, path) in listed.enumerated() where Self.siteTopLevelNames.contains(path)
                && !(path == "sitemap.xml" && baseURL == nil) {
                reader.error(reader.item(top["keep"]!, index), "keep", "sitegen writes \"\(path)\" itself; keep lists only what it does not write, such as CNAME or downloads")
                    .diagnostics.forEach(reader.note)
            }
            for (index, path) in listed.enumerated() where keepMarks[path] == nil {
                let mark = reader.item(top["keep"]!, index).mark
                keepMarks[path] = (mark?.line, mark?.column)
            }
            return listed
        }

        let timeZone = reader.noting(TimeZone.gmt) { () throws(ConfigError) in
            let timeZoneName = try reader.optionalString(top["timeZone"], "timeZone") ?? "UTC"
            guard let timeZone = TimeZone.named(timeZoneName) else {
                throw reader.error(top["timeZone"]!, "timeZone", "unknown time zone \"\(timeZoneName)\"; use an IANA name such as America/Chicago")
            }
            return timeZone
        }

        let inputs = reader.mapping(top["inputs"], keys: inputKeys, name: "inputs")
        let privacy = reader.mapping(top["privacy"], keys: privacyKeys, name: "privacy")
        let tips = reader.mapping(top["tips"], keys: tipsKeys, name: "tips")

        let minBallots = reader.noting(3) { () throws(ConfigError) in
            let minBallots = try reader.optionalInt(privacy["minBallotsForBreakdown"], "privacy.minBallotsForBreakdown") ?? 3
            if minBallots < 1, let node = privacy["minBallotsForBreakdown"] {
                throw reader.error(node, "privacy.minBallotsForBreakdown", "must be at least 1")
            }
            return minBallots
        }
        let featured = reader.noting(3) { () throws(ConfigError) in
            let featured = try reader.optionalInt(tips["featured"], "tips.featured") ?? 3
            if featured < 1, let node = tips["featured"] { throw reader.error(node, "tips.featured", "must be at least 1") }
            return featured
        }
        let seed = reader.noting(0) { () throws(ConfigError) in try reader.optionalSeed(tips["seed"], "tips.seed") ?? 0 }

        var config = SiteConfig(
            file: file.standardizedFileURL,
            folder: folder.standardizedFileURL,
            title: title,
            description: description,
            baseURL: baseURL,
            language: language,
            timeZone: timeZone,
            urls: reader.noting(.pretty) { () throws(ConfigError) in try reader.choice(top["urls"], "urls", default: .pretty) },
            listPolls: reader.noting(true) { () throws(ConfigError) in try reader.optionalBool(top["listPolls"], "listPolls") ?? true },
            numericDates: reader.noting(.reference) { () throws(ConfigError) in try reader.choice(top["numericDates"], "numericDates", default: .reference) },
            templates: path(top["templates"], "templates", default: "Templates")!,
            output: path(top["output"], "output", default: "Output")!,
            keep: SiteConfigLoader.defaultKeep + listed.filter { !SiteConfigLoader.defaultKeep.contains($0) },
            pages: path(top["pages"], "pages", default: nil),
            inputs: SiteConfig.Inputs(
                polls: path(inputs["polls"], "inputs.polls", default: "Data/polls")!,
                votes: path(inputs["votes"], "inputs.votes", default: "Data/votes")!,
                trips: path(inputs["trips"], "inputs.trips", default: "Data/trips")!,
                items: path(inputs["items"], "inputs.items", default: "Data/items")!,
                games: path(inputs["games"], "inputs.games", default: "Data/games")!,
                options: path(inputs["options"], "inputs.options", default: "Data/options")!,
                convoys: path(inputs["convoys"], "inputs.convoys", default: "Data/convoys")!,
                named: named.filter { $0.hasPrefix("inputs.") }
            ),
            minBallotsForBreakdown: minBallots,
            tips: SiteConfig.Tips(
                file: path(tips["file"], "tips.file", default: nil),
                featured: featured,
                rotation: reader.noting(.daily) { () throws(ConfigError) in try reader.choice(tips["rotation"], "tips.rotation", default: .daily) },
                seed: seed
            ),
            previews: reader.noting(true) { () throws(ConfigError) in try reader.optionalBool(top["previews"], "previews") ?? true }
        )
        if let problems = reader.problems { throw problems }
        config.keepMarks = keepMarks
        return config
    }

    /// Where `key` is written a second time at the indentation of its first place, from line
    /// `first` (1-based) on: a line that starts, after its indentation, with `key:` (or the key
    /// quoted). nil when the text does not show it so (a flow mapping, a key spelt otherwise).
    package static func secondPlace(of key: String, in text: String, from first: Int) -> (line: Int, column: Int)? {
        var indentation: Int?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where index + 1 >= first {
            let content = line.drop { $0 == " " }
            let spaces = line.count - content.count
            guard ["\(key):", "\"\(key)\":", "'\(key)':"].contains(where: { content.hasPrefix($0) }) else { continue }
            if let indentation {
                if spaces == indentation { return (index + 1, spaces + 1) }
            } else {
                indentation = spaces
            }
        }
        return nil
    }

    /// `raw` as a base URL for links: http(s), a host, an optional port and path, and nothing
    /// that would publish a password or change what every link means (user info, query, fragment).
    package static func publishedURL(_ raw: String) -> URL? {
        guard let parts = URLComponents(string: raw), let scheme = parts.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty,
              parts.user == nil, parts.password == nil, parts.query == nil, parts.fragment == nil,
              !raw.contains("@"), !raw.contains("?"), !raw.contains("#") else { return nil }
        // A port a URL can have; no "." or ".." folder, however spelt (`%2e%2e` is ".." to a
        // browser, which would put every link above the site).
        if let port = parts.port, !(1...65535).contains(port) { return nil }
        let segments = parts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { ($0.removingPercentEncoding ?? String($0)) == "." || ($0.removingPercentEncoding ?? String($0)) == ".." }) {
            return nil
        }
        return URL(string: raw.hasSuffix("/") ? raw : raw + "/")
    }

    /// `text`, when given, is searched for a repeated key's second place: Yams reports it at
    /// the mapping that holds it, which is line 1 for any top-level key.
    package static func yamlDiagnostic(_ error: YamlError, file: String, text: String? = nil) -> Diagnostic {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
            return Diagnostic(.error, file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(problem)")
        case .composer(_, let problem, let mark, _):
            return Diagnostic(.error, file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            let repeated = text.flatMap { secondPlace(of: duplicates.sorted()[0], in: $0, from: context.mark.line) }
            return Diagnostic(.error, file: file, line: repeated?.line ?? context.mark.line, column: repeated?.column ?? context.mark.column,
                              message: "\(duplicates.count == 1 ? "key" : "keys") \(keys) \(duplicates.count == 1 ? "appears" : "appear") more than once")
        default:
            return Diagnostic(.error, file: file, message: "not valid YAML: \(error)")
        }
    }
}

/// Typed access to YAML nodes with positioned errors, and the problems noted so far.
private final class NodeReader {
    let file: String
    private var noted: [Diagnostic] = []

    init(file: String) {
        self.file = file
    }

    func note(_ diagnostic: Diagnostic) {
        noted.append(diagnostic)
    }

    /// `read`'s value, or `fallback` with its problem noted.
    func noting<T>(_ fallback: T, _ read: () throws(ConfigError) -> T) -> T {
        do {
            return try read()
        } catch {
            noted += error.diagnostics
            return fallback
        }
    }

    /// Every problem noted, in file order; nil when there is none.
    var problems: ConfigError? {
        guard !noted.isEmpty else { return nil }
        let ordered = noted.enumerated().sorted { a, b in
            let first = (a.element.line ?? Int.max, a.element.column ?? Int.max, a.offset)
            let second = (b.element.line ?? Int.max, b.element.column ?? Int.max, b.offset)
            return first < second
        }
        return ConfigError(diagnostics: ordered.map(\.element))
    }

    func error(_ node: Node, _ key: String, _ message: String) -> ConfigError {
        ConfigError(diagnostic: Diagnostic(.error, file: file, line: node.mark?.line, column: node.mark?.column,
                                           field: key, message: message))
    }

    /// The mapping's values by key; a key not in `keys` is noted as an error naming it, and
    /// left out.
    func mapping(_ node: Node?, keys: [String], name: String) -> [String: Node] {
        guard let node, !isNull(node) else { return [:] }
        guard case .mapping(let mapping) = node else {
            noted += error(node, name, "expected a mapping with keys \(keys.joined(separator: ", "))").diagnostics
            return [:]
        }
        var values: [String: Node] = [:]
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let qualified = name.isEmpty ? key : "\(name).\(key)"
            guard keys.contains(key) else {
                // Against the whole key, or (for 4 letters or more) its start: `minBalots` is
                // far from `minBallotsForBreakdown` but one letter from its start. A start two
                // letters off is anything's: "items" was asked whether it meant "templates".
                func distance(_ candidate: String) -> Int {
                    var best = editDistance(candidate, key)
                    if key.count >= 4 {
                        for length in max(1, key.count - 1)...(key.count + 1) where length < candidate.count
                            && editDistance(String(candidate.prefix(length)), key) <= 1 {
                            best = min(best, 1)
                        }
                    }
                    return best
                }
                var suggestion = keys.min { distance($0) < distance($1) }
                    .flatMap { isCloseSpelling($0, key, distance: distance($0)) ? " (did you mean \"\($0)\"?)" : nil } ?? ""
                // A setting of a section written at the top ("games:" for inputs.games).
                if suggestion.isEmpty, name.isEmpty, let section = SiteConfigLoader.sectionHolding(key) {
                    suggestion = " (did you mean \"\(section).\(key)\", under \(section):?)"
                }
                note(Diagnostic(
                    .error, file: file, line: keyNode.mark?.line, column: keyNode.mark?.column, field: qualified,
                    message: "unknown key\(suggestion); expected one of: \(keys.joined(separator: ", "))"))
                continue
            }
            guard values[key] == nil else {
                noted += error(keyNode, qualified, "key appears more than once").diagnostics
                continue
            }
            values[key] = value
        }
        return values
    }

    func isNull(_ node: Node) -> Bool {
        if case .scalar(let scalar) = node, scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            return true
        }
        return false
    }

    /// Text; YAML's null (`~`, `null`, nothing) is not text, even where it is required.
    func string(_ node: Node, _ key: String) throws(ConfigError) -> String {
        guard case .scalar(let scalar) = node else { throw error(node, key, "expected text") }
        if isNull(node) {
            // `title:` with nothing after it: "found YAML's null (\"\")" said it in YAML's terms.
            if scalar.string.isEmpty { throw error(node, key, "must not be empty") }
            throw error(node, key, "expected text, found YAML's null (\"\(scalar.string)\"); quote it to mean the characters")
        }
        return scalar.string
    }

    /// An empty value (`""`, quoted or not) is not set, as null is (docs/site-config.md): a
    /// CI template that leaves `baseURL: "${BASE}"` empty gets the default, not an error.
    func optionalString(_ node: Node?, _ key: String) throws(ConfigError) -> String? {
        guard let node, !isNull(node) else { return nil }
        let value = try string(node, key)
        return value.isEmpty ? nil : value
    }

    /// Values are bounded like export values, so a huge setting is an error at its position
    /// rather than work and memory on every page.
    func limit(_ node: Node, _ key: String, _ value: String, _ bytes: Int) throws(ConfigError) {
        guard value.utf8.count > bytes else { return }
        throw error(node, key, "is \(value.utf8.count) bytes; at most \(bytes) bytes are allowed")
    }

    /// A list of strings; a single string counts as a list of one.
    func optionalStrings(_ node: Node?, _ key: String) throws(ConfigError) -> [String]? {
        guard let node, !isNull(node) else { return nil }
        if case .scalar = node { return try optionalString(node, key).map { [$0] } }
        guard case .sequence(let sequence) = node else { throw error(node, key, "expected a list such as [CNAME, .nojekyll]") }
        var values: [String] = []
        for item in sequence { values.append(try string(item, key)) }
        return values
    }

    /// The list's item at `index`, for its position; the list itself otherwise.
    func item(_ node: Node, _ index: Int) -> Node {
        if case .sequence(let sequence) = node, index < sequence.count { return sequence[index] }
        return node
    }

    func optionalInt(_ node: Node?, _ key: String) throws(ConfigError) -> Int? {
        guard let node, !isNull(node) else { return nil }
        guard let value = node.int else { throw error(node, key, "expected a whole number") }
        return value
    }

    /// A seed: any whole number `--seed` takes, 0 to 2^64 − 1 (an Int stopped at 2^63 − 1,
    /// and called the rest "not a whole number").
    func optionalSeed(_ node: Node?, _ key: String) throws(ConfigError) -> UInt64? {
        guard let node, !isNull(node) else { return nil }
        if case .scalar(let scalar) = node, let value = UInt64(scalar.string) { return value }
        if let value = node.int, value < 0 { throw error(node, key, "must not be negative") }
        throw error(node, key, "expected a whole number from 0 to \(UInt64.max)")
    }

    func optionalBool(_ node: Node?, _ key: String) throws(ConfigError) -> Bool? {
        guard let node, !isNull(node) else { return nil }
        guard let value = node.bool else { throw error(node, key, "expected true or false") }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: Node?, _ key: String, default value: T) throws(ConfigError) -> T
    where T.RawValue == String {
        guard let raw = try optionalString(node, key) else { return value }
        guard let choice = T(rawValue: raw) else {
            let options = T.allCases.map(\.rawValue).joined(separator: " or ")
            throw error(node!, key, "expected \(options), found \"\(raw)\"")
        }
        return choice
    }
}

/// Whether `written` is close enough to `known` to suggest it ("did you mean"): within two
/// edits, and fewer edits than the shorter has letters. Two edits turn any two-letter key
/// into any other: "zz" was asked whether it meant "id".
package func isCloseSpelling(_ known: String, _ written: String, distance: Int? = nil) -> Bool {
    let edits = distance ?? editDistance(known, written)
    let shorter = min(known.count, written.count)
    // Two edits in a word of four letters leave half of it: "seed" is not "keep".
    return edits <= (shorter <= 4 ? 1 : 2) && edits < shorter
}

/// Edit distance with two neighbouring letters swapped as one edit (optimal string
/// alignment), case aside, for "did you mean" on misspelled keys: "mian" is one edit from
/// "main", as "titel" is from "title".
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased()), b = Array(b.lowercased())
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious: [Int] = [], previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        beforePrevious = previous
        previous = current
    }
    return previous[b.count]
}
