import Foundation
import SitegenCore
import SitegenInput
import SitegenOutput

/// A template problem, with file, line and column when known.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public let diagnostic: Diagnostic
    public var description: String { diagnostic.description }
}

/// The site's Mustache templates, parsed once and shared by every render worker.
///
/// Mustache renders a misspelled partial, parent layout or variable as an empty string, so
/// every `{{> name}}` and `{{< name}}` is checked at load time (docs/libraries.md,
/// "swift-mustache"), and every template the site renders is checked against its model's
/// variables (TemplateCheck).
public struct TemplateSet: Sendable {
    package let renderer: MustacheRenderer
    public let names: Set<String>
    public let folder: URL
    package let engine: Engine?

    /// Whether any template writes the variable `name` ("layout.stylesheet"), in any tag.
    package func uses(_ name: String) -> Bool {
        func uses(_ nodes: [TemplateNode]) -> Bool {
            nodes.contains { node in
                switch node {
                case .variable(let tag, _): return tag.text == name
                case .section(let tag, let body), .invertedSection(let tag, let body): return tag.text == name || uses(body)
                case .partial(_, _, let overrides, _): return overrides?.values.contains(where: uses) ?? false
                case .block(_, let nodes, _), .blockDefinition(_, let nodes): return uses(nodes)
                case .text: return false
                }
            }
        }
        return renderer.templates.values.contains(where: uses)
    }

    /// Renders a template by name: a stand-in for sitegen's renderer (tests use swift-mustache).
    public typealias Engine = @Sendable (_ name: String, _ context: [String: Any]) -> [UInt8]

    /// `required`: the templates the site renders, each with the context it renders with.
    public static func load(from folder: URL, required: [TemplateRoot], engine: Engine? = nil) throws(TemplateError) -> TemplateSet {
        let shownFolder = displayPath(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TemplateError(diagnostic: Diagnostic(.error, file: shownFolder, message: "templates folder not found"))
        }
        var parsed: [String: [TemplateNode]] = [:]
        var texts: [String: (URL, String)] = [:]
        let listing = InputFolder.list(folder) { $0.hasSuffix(".mustache") }
        if let linkOut = listing.problems.first(where: { $0.severity == .error }) {
            throw TemplateError(diagnostic: linkOut)
        }
        for url in listing.files {
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            let name = String(relative.dropLast(".mustache".count))
            let text: String
            do {
                text = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw TemplateError(diagnostic: Diagnostic(.error, file: displayPath(url), message: "cannot read template: \(error.localizedDescription)"))
            }
            do {
                parsed[name] = try MustacheParser.parse(text)
            } catch {
                throw TemplateError(diagnostic: Diagnostic(.error, file: displayPath(url), line: error.line,
                                                           column: error.column, message: "template syntax error: \(error.message)"))
            }
            texts[name] = (url, text)
        }
        let names = Set(texts.keys)
        for name in required.map(\.template) where !names.contains(name) {
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
        try refuseCycles(texts)
        let check = TemplateCheck(templates: parsed, files: texts.mapValues { displayPath($0.0) })
        for root in required {
            do {
                try check.check(root)
            } catch {
                throw TemplateError(diagnostic: Diagnostic(.error, file: error.file, line: error.line, column: error.column, message: error.message))
            }
        }
        return TemplateSet(renderer: MustacheRenderer(templates: parsed), names: names, folder: folder, engine: engine)
    }

    /// A template that includes itself, directly or through others (`{{> x}}` or `{{< x}}`
    /// in x), would render forever: refused, naming the chain, at the reference that
    /// closes it. Sitegen's contexts are finite, so a partial that recurses over nested data
    /// has no use here.
    private static func refuseCycles(_ texts: [String: (URL, String)]) throws(TemplateError) {
        let references = texts.mapValues { self.references(in: $0.1) }
        var finished = Set<String>()
        func visit(_ name: String, _ chain: [String]) throws(TemplateError) {
            if finished.contains(name) { return }
            for reference in references[name] ?? [] {
                if let start = chain.firstIndex(of: reference.name) ?? (reference.name == name ? chain.count : nil) {
                    let loop = (chain[start...] + [name, reference.name]).joined(separator: " → ")
                    throw TemplateError(diagnostic: Diagnostic(
                        .error, file: displayPath(texts[name]!.0), line: reference.line, column: reference.column,
                        message: "template \"\(name)\" includes itself (\(loop)): it would never finish rendering"))
                }
                try visit(reference.name, chain + [name])
            }
            finished.insert(name)
        }
        for name in texts.keys.sorted() { try visit(name, []) }
    }

    /// Partials (`{{> x}}`) and parents (`{{< x}}`) named in a template, with positions.
    package static func references(in text: String) -> [(name: String, line: Int, column: Int)] {
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
        String(decoding: renderBytes(name, context), as: UTF8.self)
    }

    public func renderBytes(_ name: String, _ context: [String: Any]) -> [UInt8] {
        // Names are checked at load time; a missing one here is a programming error.
        precondition(names.contains(name), "template \(name) was not loaded")
        if let engine { return engine(name, context) }
        return renderer.render(name, context: context)
    }

    /// The same bytes, written to `sink` as they are rendered, a megabyte or so at a time
    /// (MustacheRenderer's `render(_:context:into:flush:)`).
    package func render<Sink: ByteSink>(_ name: String, _ context: [String: Any], into sink: inout Sink) throws {
        precondition(names.contains(name), "template \(name) was not loaded")
        if let engine {
            sink.bytes += engine(name, context)
            return try sink.flushIfFull()
        }
        var output: [UInt8] = []
        output.reserveCapacity(1 << 20 + 64 << 10)
        var failure: Error?
        renderer.render(name, context: context, into: &output) { output in
            guard failure == nil else { return output.removeAll(keepingCapacity: true) }
            sink.bytes += output
            output.removeAll(keepingCapacity: true)
            do { try sink.flushIfFull() } catch { failure = error }
        }
        if let failure { throw failure }
        sink.bytes += output
        try sink.flushIfFull()
    }
}
