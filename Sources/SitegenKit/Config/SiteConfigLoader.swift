import Foundation
import Yams

/// A site.yml problem, with the key's position.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let diagnostic: Diagnostic
    public var description: String { diagnostic.description }
}

/// Reads site.yml through Yams' node API, so unknown keys and wrong values are reported
/// with their line and column (typos must not pass silently).
public enum SiteConfigLoader {
    static let topLevelKeys = ["title", "description", "baseURL", "language", "timeZone", "urls", "listPolls",
                               "numericDates", "templates", "output", "pages", "inputs", "privacy", "tips", "previews"]
    static let inputKeys = ["polls", "votes", "trips", "items", "games", "options", "convoys"]
    static let privacyKeys = ["minBallotsForBreakdown"]
    static let tipsKeys = ["file", "featured", "rotation", "seed"]

    public static func load(_ file: URL) throws(ConfigError) -> SiteConfig {
        let shown = displayPath(file)
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw ConfigError(diagnostic: Diagnostic(.error, file: shown, message: "cannot read the site configuration: \(error.localizedDescription)"))
        }
        return try parse(text, file: file)
    }

    public static func parse(_ text: String, file: URL) throws(ConfigError) -> SiteConfig {
        let shown = displayPath(file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigError(diagnostic: yamlDiagnostic(error, file: shown))
        } catch {
            throw ConfigError(diagnostic: Diagnostic(.error, file: shown, message: "not valid YAML: \(error)"))
        }
        guard let root, case .mapping = root else {
            throw ConfigError(diagnostic: Diagnostic(.error, file: shown, line: root?.mark?.line, column: root?.mark?.column,
                                                     message: "expected a mapping of settings such as `title: My trips`"))
        }
        let reader = NodeReader(file: shown)
        let top = try reader.mapping(root, keys: topLevelKeys, name: "")
        let folder = file.deletingLastPathComponent()

        func path(_ node: Node?, _ key: String, default value: String?) throws(ConfigError) -> URL? {
            guard let raw = try reader.optionalString(node, key) ?? value else { return nil }
            return URL(fileURLWithPath: raw, relativeTo: folder).standardizedFileURL
        }

        guard let titleNode = top["title"] else {
            throw ConfigError(diagnostic: Diagnostic(.error, file: shown, line: 1, column: 1, field: "title",
                                                     message: "required setting is missing"))
        }
        let title = try reader.string(titleNode, "title")
        if title.trimmingCharacters(in: .whitespaces).isEmpty { throw reader.error(titleNode, "title", "must not be empty") }

        var baseURL: URL?
        if let node = top["baseURL"], let raw = try reader.optionalString(node, "baseURL") {
            guard let url = URL(string: raw.hasSuffix("/") ? raw : raw + "/"),
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw reader.error(node, "baseURL", "expected an absolute http or https URL such as https://example.org/trips/")
            }
            baseURL = url
        }

        let timeZoneName = try reader.optionalString(top["timeZone"], "timeZone") ?? "UTC"
        guard let timeZone = TimeZone(identifier: timeZoneName) else {
            throw reader.error(top["timeZone"]!, "timeZone", "unknown time zone \"\(timeZoneName)\"; use an IANA name such as America/Chicago")
        }

        let inputs = try reader.mapping(top["inputs"], keys: inputKeys, name: "inputs")
        let privacy = try reader.mapping(top["privacy"], keys: privacyKeys, name: "privacy")
        let tips = try reader.mapping(top["tips"], keys: tipsKeys, name: "tips")

        let minBallots = try reader.optionalInt(privacy["minBallotsForBreakdown"], "privacy.minBallotsForBreakdown") ?? 3
        if minBallots < 1, let node = privacy["minBallotsForBreakdown"] {
            throw reader.error(node, "privacy.minBallotsForBreakdown", "must be at least 1")
        }
        let featured = try reader.optionalInt(tips["featured"], "tips.featured") ?? 3
        if featured < 1, let node = tips["featured"] { throw reader.error(node, "tips.featured", "must be at least 1") }
        let seed = try reader.optionalInt(tips["seed"], "tips.seed") ?? 0
        if seed < 0, let node = tips["seed"] { throw reader.error(node, "tips.seed", "must not be negative") }

        return SiteConfig(
            file: file.standardizedFileURL,
            folder: folder.standardizedFileURL,
            title: title,
            description: try reader.optionalString(top["description"], "description"),
            baseURL: baseURL,
            language: try reader.optionalString(top["language"], "language") ?? "en",
            timeZone: timeZone,
            urls: try reader.choice(top["urls"], "urls", default: .pretty),
            listPolls: try reader.optionalBool(top["listPolls"], "listPolls") ?? true,
            numericDates: try reader.choice(top["numericDates"], "numericDates", default: .reference),
            templates: try path(top["templates"], "templates", default: "Templates")!,
            output: try path(top["output"], "output", default: "Output")!,
            pages: try path(top["pages"], "pages", default: nil),
            inputs: SiteConfig.Inputs(
                polls: try path(inputs["polls"], "inputs.polls", default: "Data/polls")!,
                votes: try path(inputs["votes"], "inputs.votes", default: "Data/votes")!,
                trips: try path(inputs["trips"], "inputs.trips", default: "Data/trips")!,
                items: try path(inputs["items"], "inputs.items", default: "Data/items")!,
                games: try path(inputs["games"], "inputs.games", default: "Data/games")!,
                options: try path(inputs["options"], "inputs.options", default: "Data/options")!,
                convoys: try path(inputs["convoys"], "inputs.convoys", default: "Data/convoys")!
            ),
            minBallotsForBreakdown: minBallots,
            tips: SiteConfig.Tips(
                file: try path(tips["file"], "tips.file", default: nil),
                featured: featured,
                rotation: try reader.choice(tips["rotation"], "tips.rotation", default: .daily),
                seed: UInt64(seed)
            ),
            previews: try reader.optionalBool(top["previews"], "previews") ?? true
        )
    }

    static func yamlDiagnostic(_ error: YamlError, file: String) -> Diagnostic {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
            return Diagnostic(.error, file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(problem)")
        case .composer(_, let problem, let mark, _):
            return Diagnostic(.error, file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return Diagnostic(.error, file: file, line: context.mark.line, column: context.mark.column,
                              message: "\(duplicates.count == 1 ? "key" : "keys") \(keys) \(duplicates.count == 1 ? "appears" : "appear") more than once")
        default:
            return Diagnostic(.error, file: file, message: "not valid YAML: \(error)")
        }
    }
}

/// Typed access to YAML nodes with positioned errors.
private struct NodeReader {
    let file: String

    func error(_ node: Node, _ key: String, _ message: String) -> ConfigError {
        ConfigError(diagnostic: Diagnostic(.error, file: file, line: node.mark?.line, column: node.mark?.column,
                                           field: key, message: message))
    }

    /// The mapping's values by key; a key not in `keys` is an error naming it.
    func mapping(_ node: Node?, keys: [String], name: String) throws(ConfigError) -> [String: Node] {
        guard let node, !isNull(node) else { return [:] }
        guard case .mapping(let mapping) = node else {
            throw error(node, name, "expected a mapping with keys \(keys.joined(separator: ", "))")
        }
        var values: [String: Node] = [:]
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let qualified = name.isEmpty ? key : "\(name).\(key)"
            guard keys.contains(key) else {
                let suggestion = keys.min { editDistance($0, key) < editDistance($1, key) }
                    .flatMap { editDistance($0, key) <= 2 ? " (did you mean \"\($0)\"?)" : nil } ?? ""
                throw ConfigError(diagnostic: Diagnostic(
                    .error, file: file, line: keyNode.mark?.line, column: keyNode.mark?.column, field: qualified,
                    message: "unknown key\(suggestion); expected one of: \(keys.joined(separator: ", "))"))
            }
            guard values[key] == nil else {
                throw error(keyNode, qualified, "key appears more than once")
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

    func string(_ node: Node, _ key: String) throws(ConfigError) -> String {
        guard case .scalar(let scalar) = node else { throw error(node, key, "expected text") }
        return scalar.string
    }

    func optionalString(_ node: Node?, _ key: String) throws(ConfigError) -> String? {
        guard let node, !isNull(node) else { return nil }
        return try string(node, key)
    }

    func optionalInt(_ node: Node?, _ key: String) throws(ConfigError) -> Int? {
        guard let node, !isNull(node) else { return nil }
        guard let value = node.int else { throw error(node, key, "expected a whole number") }
        return value
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

/// Levenshtein distance, for "did you mean" on misspelled keys.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased()), b = Array(b.lowercased())
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
