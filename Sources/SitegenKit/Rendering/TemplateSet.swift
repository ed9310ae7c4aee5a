import Foundation
import Mustache

/// A template problem, with file, line and column when known.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public let diagnostic: Diagnostic
    public var description: String { diagnostic.description }
}

/// The site's Mustache templates, loaded once and shared by every render worker.
///
/// swift-mustache renders a misspelled partial or parent layout as an empty string, so
/// every `{{> name}}` and `{{< name}}` is checked at load time (FINDINGS).
public struct TemplateSet: Sendable {
    let library: MustacheLibrary
    public let names: Set<String>
    public let folder: URL

    public static func load(from folder: URL, required: [String]) throws(TemplateError) -> TemplateSet {
        let shownFolder = displayPath(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TemplateError(diagnostic: Diagnostic(.error, file: shownFolder, message: "templates folder not found"))
        }
        var library = MustacheLibrary()
        var texts: [String: (URL, String)] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var urls: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "mustache" { urls.append(url) }
        }
        for url in urls.sorted(by: { $0.path < $1.path }) {
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            let name = String(relative.dropLast(".mustache".count))
            let text: String
            do {
                text = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw TemplateError(diagnostic: Diagnostic(.error, file: displayPath(url), message: "cannot read template: \(error.localizedDescription)"))
            }
            do {
                library.register(try MustacheTemplate(string: text), named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw TemplateError(diagnostic: Diagnostic(.error, file: displayPath(url), line: error.context.lineNumber,
                                                           column: error.context.columnNumber, message: "template syntax error: \(error.error)"))
            } catch {
                throw TemplateError(diagnostic: Diagnostic(.error, file: displayPath(url), message: "template syntax error: \(error)"))
            }
            texts[name] = (url, text)
        }
        let names = Set(texts.keys)
        for name in required where !names.contains(name) {
            throw TemplateError(diagnostic: Diagnostic(.error, file: shownFolder,
                                                       message: "required template \(name).mustache is missing"))
        }
        for (name, (url, text)) in texts.sorted(by: { $0.key < $1.key }) {
            for reference in references(in: text) where !names.contains(reference.name) {
                throw TemplateError(diagnostic: Diagnostic(
                    .error, file: displayPath(url), line: reference.line, column: reference.column,
                    message: "template \"\(name)\" refers to \"\(reference.name)\", which does not exist in \(shownFolder)"))
            }
        }
        return TemplateSet(library: library, names: names, folder: folder)
    }

    /// Partials (`{{> x}}`) and parents (`{{< x}}`) named in a template, with positions.
    static func references(in text: String) -> [(name: String, line: Int, column: Int)] {
        var found: [(String, Int, Int)] = []
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let open = rest.range(of: "{{") {
                let afterOpen = rest[open.upperBound...]
                guard let close = afterOpen.range(of: "}}") else { break }
                let tag = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                if let first = tag.first, first == ">" || first == "<" {
                    let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                    let column = line.distance(from: line.startIndex, to: open.lowerBound) + 1
                    found.append((name, lineIndex + 1, column))
                }
                rest = afterOpen[close.upperBound...]
            }
        }
        return found
    }

    public func render(_ name: String, _ context: [String: Any]) -> String {
        // Names are checked at load time; a missing one here is a programming error.
        guard let html = library.render(context, withTemplate: name) else {
            preconditionFailure("template \(name) was not loaded")
        }
        return html
    }
}
