import Foundation
import SitegenCore
import Yams

/// The YAML block between `---` lines at the top of a Markdown page (docs/site-config.md, "Markdown pages").
public struct FrontMatter: Sendable, Equatable {
    public var title: String
    /// Plain text for the meta description and link previews.
    public var description: String?
    /// The page's place in the site navigation; nil: published, but not in the menu.
    public var menu: Int?

    public init(title: String, description: String? = nil, menu: Int? = nil) {
        self.title = title
        self.description = description
        self.menu = menu
    }
}

/// A page file split into its front matter and its Markdown body.
public struct FrontMatterDocument: Sendable, Equatable {
    public var frontMatter: FrontMatter
    public var body: String
    /// The file's line the body starts on (after the closing "---").
    public var bodyLine = 1
}

/// A page file's problems, each with its position, in file order.
public struct FrontMatterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]
    /// The first problem.
    public var diagnostic: Diagnostic { diagnostics[0] }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    package init(diagnostic: Diagnostic) {
        diagnostics = [diagnostic]
    }

    package init(diagnostics: [Diagnostic]) {
        precondition(!diagnostics.isEmpty)
        self.diagnostics = diagnostics
    }
}

/// Reads front matter through Yams' node API, as site.yml is read, so unknown keys and
/// wrong values are reported with the line and column they have in the page file.
public enum FrontMatterParser {
    public static let keys = ["title", "description", "menu"]
    package static let delimiter = "---"

    /// `file` is the path shown in diagnostics.
    public static func parse(_ text: String, file: String) throws(FrontMatterError) -> FrontMatterDocument {
        func failure(line: Int? = 1, column: Int? = 1, field: String = "", _ message: String) -> FrontMatterError {
            FrontMatterError(diagnostic: Diagnostic(.error, file: file, line: line, column: column, field: field, message: message))
        }
        // Editors on some systems start UTF-8 files with a byte-order mark.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let lines = LineCursor(text)
        guard let opening = lines.next(), isDelimiter(opening.text) else {
            throw failure("a page starts with front matter: a line \"---\", then \"title: …\", then a line \"---\"")
        }
        var closing: LineCursor.Line?
        var closingLine = 1
        while let line = lines.next() {
            closingLine += 1
            if isDelimiter(line.text) { closing = line; break }
        }
        guard let closing else {
            throw failure("the front matter opened here has no closing \"---\" line")
        }
        let yaml = String(text[opening.end..<closing.start])
        // Yams counts lines from the start of the YAML, which is the file's line 2.
        let lineOffset = 1

        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
            // Yams finds these itself, before our own check could, and points at the mapping
            // that holds them: the second place is looked for in the text.
            let repeated = SiteConfigLoader.secondPlace(of: duplicates.sorted()[0], in: yaml, from: context.mark.line)
            throw failure(line: (repeated?.line ?? context.mark.line) + lineOffset, column: repeated?.column ?? context.mark.column,
                          field: duplicates.joined(separator: ", "), "key appears more than once")
        } catch let error as YamlError {
            var diagnostic = SiteConfigLoader.yamlDiagnostic(error, file: file)
            diagnostic.line = diagnostic.line.map { $0 + lineOffset }
            throw FrontMatterError(diagnostic: diagnostic)
        } catch {
            throw failure("not valid YAML: \(error)")
        }

        // The keys and values are checked one by one, so a page shows all its problems in one run.
        var problems: [Diagnostic] = []
        func noting<T>(_ fallback: T, _ read: () throws(FrontMatterError) -> T) -> T {
            do {
                return try read()
            } catch {
                problems += error.diagnostics
                return fallback
            }
        }
        var values: [String: Node] = [:]
        if let root, !isNull(root) {
            guard case .mapping(let mapping) = root else {
                throw failure(line: root.mark.map { $0.line + lineOffset }, column: root.mark?.column,
                              "expected front matter such as `title: About this site`")
            }
            for (keyNode, value) in mapping {
                let key = keyNode.string ?? ""
                let line = keyNode.mark.map { $0.line + lineOffset }, column = keyNode.mark?.column
                guard keys.contains(key) else {
                    let suggestion = keys.min { editDistance($0, key) < editDistance($1, key) }
                        .flatMap { isCloseSpelling($0, key) ? " (did you mean \"\($0)\"?)" : nil } ?? ""
                    problems += failure(line: line, column: column, field: key,
                                        "unknown key\(suggestion); expected one of: \(keys.joined(separator: ", "))").diagnostics
                    continue
                }
                values[key] = value
            }
        }

        func valueError(_ node: Node, _ key: String, _ message: String) -> FrontMatterError {
            failure(line: node.mark.map { $0.line + lineOffset }, column: node.mark?.column, field: key, message)
        }
        func scalarText(_ node: Node, _ key: String) throws(FrontMatterError) -> String {
            guard case .scalar(let scalar) = node else { throw valueError(node, key, "expected text") }
            return scalar.string
        }

        var title = ""
        if let titleNode = values["title"] {
            title = noting("") { () throws(FrontMatterError) in
                let title = isNull(titleNode) ? "" : try scalarText(titleNode, "title").trimmingCharacters(in: .whitespacesAndNewlines)
                if title.isEmpty { throw valueError(titleNode, "title", "must not be empty") }
                return title
            }
        } else {
            problems += failure(field: "title", "required key is missing; every page needs a title").diagnostics
        }

        let description = noting(nil) { () throws(FrontMatterError) -> String? in
            guard let node = values["description"], !isNull(node) else { return nil }
            // Folded YAML may span lines; a meta description is one line.
            let words = try scalarText(node, "description").split(whereSeparator: \.isWhitespace)
            return words.isEmpty ? nil : words.joined(separator: " ")
        }

        let menu = noting(nil) { () throws(FrontMatterError) -> Int? in
            guard let node = values["menu"], !isNull(node) else { return nil }
            guard case .scalar(let scalar) = node, scalar.style == .plain, let number = node.int else {
                throw valueError(node, "menu", "expected a whole number such as 1 (pages are listed in the menu by it)")
            }
            return number
        }

        if !problems.isEmpty {
            let ordered = problems.enumerated().sorted { a, b in
                (a.element.line ?? Int.max, a.element.column ?? Int.max, a.offset) < (b.element.line ?? Int.max, b.element.column ?? Int.max, b.offset)
            }
            throw FrontMatterError(diagnostics: ordered.map(\.element))
        }
        return FrontMatterDocument(frontMatter: FrontMatter(title: title, description: description, menu: menu),
                                   body: String(text[closing.end...]), bodyLine: closingLine + 1)
    }

    /// "---", trailing spaces allowed; an indented "---" belongs to the YAML.
    package static func isDelimiter(_ line: Substring) -> Bool {
        var line = line
        while line.last?.isWhitespace == true { line = line.dropLast() }
        return line == delimiter
    }

    package static func isNull(_ node: Node) -> Bool {
        if case .scalar(let scalar) = node, scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            return true
        }
        return false
    }
}

/// Walks a text line by line; "\r\n" is one Character in Swift, so CRLF files work too.
private final class LineCursor {
    struct Line {
        let text: Substring
        let start: String.Index
        /// After the line break.
        let end: String.Index
    }

    private let text: String
    private var position: String.Index

    init(_ text: String) {
        self.text = text
        position = text.startIndex
    }

    func next() -> Line? {
        guard position < text.endIndex else { return nil }
        let start = position
        let lineEnd = text[start...].firstIndex(where: \.isNewline) ?? text.endIndex
        position = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
        return Line(text: text[start..<lineEnd], start: start, end: position)
    }
}
