import SitegenInput
/// A template the site renders on its own, and the context it renders with.
public struct TemplateRoot: Sendable {
    /// "poll", "partials/trip-card".
    public let template: String
    /// What the context is, for messages: "a poll page".
    public let kind: String
    public let shape: ContextShape

    public init(template: String, kind: String, shape: ContextShape) {
        self.template = template
        self.kind = kind
        self.shape = shape
    }
}

/// Checks a template, with the partials and parents it uses, against the context it renders
/// with: every tag must name a variable of that context, or of a section it is inside, as
/// Mustache looks names up. Without this check a misspelt name renders as empty text.
///
/// Done once when templates load, whether or not the site has such a page, so a template
/// error never waits for the data that would show it.
package struct TemplateCheck {
    package let templates: [String: [TemplateNode]]
    /// Template name → file as shown in diagnostics.
    package let files: [String: String]

    /// Where a problem is: the file, and the tag (its position and text).
    package struct Problem: Error {
        package let file: String
        package let line: Int
        package let column: Int
        package let message: String
    }

    /// One context on the stack: a model's variables (with the section that opened it, nil
    /// for the root), or a plain value such as a string in `{{#notesHTML}}`, which has none.
    private enum Frame {
        case shape(ContextShape, section: String?)
        /// `isMarkup`: HTML sitegen made safe, which `{{{.}}}` may write.
        case value(isMarkup: Bool)
    }

    private struct Scope {
        var frames: [Frame]
        /// The root's kind: "a poll page".
        let kind: String
        /// Blocks overridden by the templates that use this one as a parent, outermost first.
        var overrides: [String: (template: String, nodes: [TemplateNode])] = [:]
        /// Partials being checked, so that a partial including itself is checked once.
        var partials: Set<String> = []
    }

    package func check(_ root: TemplateRoot) throws(Problem) {
        var scope = Scope(frames: [.shape(root.shape, section: nil)], kind: root.kind)
        try check(templates[root.template] ?? [], in: root.template, scope: &scope)
    }

    private func check(_ nodes: [TemplateNode], in template: String, scope: inout Scope) throws(Problem) {
        for node in nodes {
            switch node {
            case .text, .blockDefinition:
                break

            case .variable(let name, let escaped):
                let tag = escaped ? "{{\(name.text)}}" : name.ampersand ? "{{&\(name.text)}}" : "{{{\(name.text)}}}"
                let variable = try resolve(name, tag: tag, in: template, scope: scope)
                switch variable {
                case .object, .list:
                    let message = name.parts.isEmpty ? "the current item holds variables, not text"
                        : "\"\(name.text)\" holds variables, not text: use {{#\(name.text)}}…{{/\(name.text)}}"
                    throw problem(in: template, at: name, "\(tag): \(message)")
                default:
                    break
                }
                // Unescaped, only HTML sitegen made safe: {{{title}}} published a poll title's
                // <img onerror=…> from the export as it was.
                if !escaped {
                    var isMarkup = false
                    if case .markup = variable { isMarkup = true }
                    if variable == nil, case .value(let markup) = scope.frames.last! { isMarkup = markup }
                    guard isMarkup else {
                        throw problem(in: template, at: name, "\(tag): writes \(name.parts.isEmpty ? "the current item" : "\"\(name.text)\"") without escaping, which only HTML that sitegen made safe (fields ending in HTML) may be; use {{\(name.text)}}")
                    }
                }

            case .section(let name, let body):
                let tag = "{{#\(name.text)}}"
                var inner = scope
                switch try resolve(name, tag: tag, in: template, scope: scope) {
                case .object(let shape, _), .list(let shape): inner.frames.append(.shape(shape, section: tag))
                case .text, .texts: inner.frames.append(.value(isMarkup: false))
                case .markup, .markups: inner.frames.append(.value(isMarkup: true))
                case nil: inner.frames.append(scope.frames.last!)
                case .flag: break
                }
                try check(body, in: template, scope: &inner)

            case .invertedSection(let name, let body):
                _ = try resolve(name, tag: "{{^\(name.text)}}", in: template, scope: scope)
                try check(body, in: template, scope: &scope)

            case .partial(let partial, _, let overrides, let overrideTags):
                // A block the parent does not have is never shown: a misspelt {{$mian}}, or a
                // layout without {{$main}}, published every page empty.
                if overrides != nil {
                    let defined = blocks(in: partial)
                    for tag in overrideTags where !defined.contains(tag.text) {
                        throw problem(in: template, at: tag, "{{$\(tag.text)}}: \"\(partial)\" has no block \"\(tag.text)\" to fill, so nothing here would be shown\(suggestion(for: tag.text, among: Array(defined)))")
                    }
                }
                guard !scope.partials.contains(partial) else { break }
                var inner = scope
                inner.partials.insert(partial)
                for (block, nodes) in overrides ?? [:] where inner.overrides[block] == nil {
                    inner.overrides[block] = (template, nodes)
                }
                try check(templates[partial] ?? [], in: partial, scope: &inner)

            case .block(let block, let defaultNodes, _):
                if let (overriding, nodes) = scope.overrides[block] {
                    try check(nodes, in: overriding, scope: &scope)
                } else {
                    try check(defaultNodes, in: template, scope: &scope)
                }
            }
        }
    }

    /// The blocks (`{{$name}}`) a template defines for the templates that use it as a parent,
    /// its partials' and parents' included.
    private func blocks(in template: String) -> Set<String> {
        var found = Set<String>(), visited = Set<String>()
        func walk(_ nodes: [TemplateNode]) {
            for node in nodes {
                switch node {
                case .section(_, let body), .invertedSection(_, let body): walk(body)
                case .block(let name, let defaultNodes, _):
                    found.insert(name)
                    walk(defaultNodes)
                case .partial(let name, _, let overrides, _):
                    overrides?.values.forEach(walk)
                    if visited.insert(name).inserted { walk(templates[name] ?? []) }
                case .blockDefinition(_, let body): walk(body)
                case .text, .variable: break
                }
            }
        }
        visited.insert(template)
        walk(templates[template] ?? [])
        return found
    }

    /// What `name` finds, as the renderer looks it up: its first part from the innermost
    /// context outwards (or the current item only, for `.a`), the rest inside it.
    /// nil: the current item (`.`) when it is a plain value.
    private func resolve(_ name: TemplateName, tag: String, in template: String, scope: Scope) throws(Problem) -> TemplateVariable? {
        guard let first = name.parts.first else {
            guard case .shape(let shape, _) = scope.frames.last! else { return nil }
            return .object(shape, optional: false)
        }
        let searched = name.searchesStack ? Array(scope.frames.reversed()) : [scope.frames.last!]
        var found: TemplateVariable?
        var visible: [String] = []
        for case .shape(let shape, _) in searched {
            if let variable = shape.variables[first] {
                found = variable
                break
            }
            visible += shape.variables.keys
        }
        guard var variable = found else {
            let sections = searched.compactMap { frame -> String? in
                if case .shape(_, let section?) = frame { return section }
                return nil
            }
            let place = name.searchesStack
                ? (sections.isEmpty ? "" : "in \(sections.joined(separator: ", ")) or ") + "on \(scope.kind)"
                : (sections.first.map { "in \($0)" } ?? "on \(scope.kind)")
            throw problem(in: template, at: name, "\(tag): no such variable \(place)\(suggestion(for: first, among: visible))")
        }
        for (index, part) in name.parts.enumerated().dropFirst() {
            let parent = name.parts[..<index].joined(separator: ".")
            guard case .object(let shape, _) = variable else {
                throw problem(in: template, at: name, "\(tag): \"\(parent)\" has no variables (it is \(variable.description))")
            }
            guard let child = shape.variables[part] else {
                throw problem(in: template, at: name, "\(tag): \"\(parent)\" has no variable \"\(part)\"\(suggestion(for: part, among: Array(shape.variables.keys)))")
            }
            variable = child
        }
        return variable
    }

    private func suggestion(for name: String, among names: [String]) -> String {
        // Sorted first, so that of two equally close names the same one is always offered.
        guard let closest = names.sorted().min(by: { editDistance($0, name) < editDistance($1, name) }),
              isCloseSpelling(closest, name) else { return "" }
        return " (did you mean \"\(closest)\"?)"
    }

    private func problem(in template: String, at name: TemplateName, _ message: String) -> Problem {
        Problem(file: files[template] ?? template, line: name.line, column: name.column, message: message)
    }
}

extension TemplateVariable: CustomStringConvertible {
    public var description: String {
        switch self {
        case .text: return "text"
        case .flag: return "true or false"
        case .texts: return "a list of texts"
        case .markup: return "HTML"
        case .markups: return "a list of HTML pieces"
        case .object: return "a group of variables"
        case .list: return "a list"
        }
    }
}
