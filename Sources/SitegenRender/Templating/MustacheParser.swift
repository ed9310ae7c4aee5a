/// A parsed Mustache template: text lines, tags and nested sections.
///
/// The syntax and its whitespace rules (standalone tags, partial indentation, parents and
/// blocks) are those of swift-mustache 2.1.1, which rendered sitegen's pages before this
/// renderer did; a test renders every template both ways and compares the bytes.
/// Lambdas, transforms (`{{f(x)}}`), dynamic partials (`{{>*x}}`) and pragmas are not
/// supported and are reported as errors.
package indirect enum TemplateNode: Sendable {
    case text([UInt8])
    case variable(TemplateName, escaped: Bool)
    case section(TemplateName, [TemplateNode])
    case invertedSection(TemplateName, [TemplateNode])
    /// `{{> name}}`, or `{{< name}}` with the blocks it overrides and their tags, in order
    /// (for TemplateCheck's errors).
    case partial(String, indentation: String?, overrides: [String: [TemplateNode]]?, overrideTags: [TemplateName] = [])
    /// `{{$ name}}default{{/ name}}` in a parent template.
    case block(String, defaultNodes: [TemplateNode], indentation: String)
    /// A block override inside `{{< name}}`; only seen while parsing.
    case blockDefinition(TemplateName, [TemplateNode])
}

/// A tag's name: `.` (the current item), `a.b` (looked up through the context stack) or
/// `.a.b` (the current item only); and where the tag starts, for TemplateCheck's errors.
package struct TemplateName: Sendable, Equatable {
    package let parts: [String]
    package let searchesStack: Bool
    package let text: String
    package let line: Int
    package let column: Int
    /// Written `{{&name}}` rather than `{{{name}}}`, for messages that quote the tag.
    package var ampersand = false

    package init(_ text: String, line: Int = 1, column: Int = 1) {
        parts = text.split(separator: ".").map(String.init)
        searchesStack = !text.hasPrefix(".")
        self.text = text
        self.line = line
        self.column = column
    }

    package var isCurrentItem: Bool { parts.isEmpty }
}

/// Where and why a template failed to parse.
package struct MustacheSyntaxError: Error, Equatable {
    package let message: String
    package let line: Int
    package let column: Int
}

package struct MustacheParser {
    private let characters: [Character]
    private var position = 0
    /// Where each line starts, for positions of tags and errors.
    private let lineStarts: [Int]

    private struct State {
        var sectionName: String?
        /// Where the open section's tag is: an unclosed section is reported there, not at
        /// the end of the file.
        var sectionStart: (line: Int, column: Int)?
        var newLine = true
        var isPartialDefinition = false
        var isPartialDefinitionTopLevel = false
        var partialDefinitionIndent: String?
        var startDelimiter: [Character] = ["{", "{"]
        var endDelimiter: [Character] = ["}", "}"]

        func inSection(_ name: String, newLine: Bool, at start: (line: Int, column: Int)) -> State {
            var state = self
            state.sectionName = name
            state.sectionStart = start
            state.isPartialDefinitionTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func inParent(_ name: String, at start: (line: Int, column: Int)) -> State {
            var state = self
            state.sectionName = name
            state.sectionStart = start
            state.newLine = true
            state.isPartialDefinition = true
            state.isPartialDefinitionTopLevel = true
            return state
        }
    }

    private struct Failure: Error {
        let message: String
        /// Where to report it, when not where the parser stopped.
        var at: (line: Int, column: Int)? = nil
    }

    package static func parse(_ text: String) throws(MustacheSyntaxError) -> [TemplateNode] {
        var parser = MustacheParser(characters: Array(text))
        do {
            return try parser.parse(state: State())
        } catch {
            let (line, column) = error.at ?? parser.lineAndColumn(at: parser.position)
            throw MustacheSyntaxError(message: error.message, line: line, column: column)
        }
    }

    private init(characters: [Character]) {
        self.characters = characters
        lineStarts = [0] + characters.indices.filter { characters[$0].isNewline }.map { $0 + 1 }
    }

    // MARK: - Grammar

    /// Sections, parents and blocks open around the one being read.
    private var depth = 0
    /// Deeper nesting is refused: parsing and rendering recurse once a level, and five
    /// thousand levels overflowed the stack. Sitegen's own templates nest five deep.
    package static let maxDepth = 100

    private mutating func parse(state initial: State) throws(Failure) -> [TemplateNode] {
        guard depth <= Self.maxDepth else {
            throw Failure(message: "sections, parents and blocks nested more than \(Self.maxDepth) deep")
        }
        depth += 1
        defer { depth -= 1 }
        var nodes: [TemplateNode] = []
        var state = initial
        var whiteSpaceBefore = ""
        while !atEnd {
            if state.newLine {
                let whiteSpace = read(while: { $0 == " " || $0 == "\t" })
                if state.isPartialDefinition && !state.isPartialDefinitionTopLevel {
                    if let indent = state.partialDefinitionIndent {
                        whiteSpaceBefore = String(whiteSpace.dropFirst(indent.count))
                    } else {
                        state.partialDefinitionIndent = whiteSpace
                    }
                } else {
                    whiteSpaceBefore = whiteSpace
                }
            }
            let text = readUntilTagOrNewline(state)
            if current.isNewline {
                nodes.append(.text(Array((whiteSpaceBefore + text + String(current)).utf8)))
                state.newLine = true
                position += 1
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(Array((whiteSpaceBefore + text).utf8)))
                whiteSpaceBefore = ""
                state.newLine = false
            }
            if atEnd { break }

            var setNewLine = false
            let tagStart = lineAndColumn(at: position - state.startDelimiter.count)
            func tagName(_ text: String) -> TemplateName { TemplateName(text, line: tagStart.line, column: tagStart.column) }
            func flushWhiteSpace() {
                if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(Array(whiteSpaceBefore.utf8)))
                    whiteSpaceBefore = ""
                }
            }
            switch current {
            case "#", "^":
                let inverted = current == "^"
                position += 1
                let name = try readName(state)
                if isStandalone(state) {
                    setNewLine = true
                } else {
                    flushWhiteSpace()
                }
                let body = try parse(state: state.inSection(name, newLine: setNewLine, at: tagStart))
                nodes.append(inverted ? .invertedSection(tagName(name), body) : .section(tagName(name), body))

            case "/":
                position += 1
                let closing = position
                let name = try readName(state)
                guard name == state.sectionName else {
                    position = closing
                    throw Failure(message: state.sectionName.map { "{{/\(name)}} closes {{#\($0)}}" } ?? "{{/\(name)}} closes nothing")
                }
                if !isStandalone(state) {
                    flushWhiteSpace()
                }
                return nodes

            case "!":
                position += 1
                try skipComment(state)
                setNewLine = isStandalone(state)

            case "{":
                flushWhiteSpace()
                position += 1
                let name = try readName(state, closing: "}")
                nodes.append(.variable(tagName(name), escaped: false))

            case "&":
                flushWhiteSpace()
                position += 1
                var name = tagName(try readName(state))
                name.ampersand = true
                nodes.append(.variable(name, escaped: false))

            case ">", "<":
                // A partial, or a parent whose blocks follow. Unlike other tags, the
                // whitespace before a standalone one is kept (and indents the partial).
                let isParent = current == "<"
                position += 1
                _ = read(while: \.isWhitespace)
                let name = try readPartialName(state)
                if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(Array(whiteSpaceBefore.utf8)))
                }
                setNewLine = isStandalone(state)
                guard isParent else {
                    nodes.append(.partial(name, indentation: setNewLine ? whiteSpaceBefore : nil, overrides: nil))
                    whiteSpaceBefore = ""
                    break
                }
                var overrides: [String: [TemplateNode]] = [:]
                var overrideTags: [TemplateName] = []
                for node in try parse(state: state.inParent(name, at: tagStart)) {
                    switch node {
                    case .blockDefinition(let block, let body):
                        overrides[block.text] = body
                        overrideTags.append(block)
                    case .text: break
                    default: throw Failure(message: "only {{$block}} overrides may appear inside {{<\(name)}}")
                    }
                }
                nodes.append(.partial(name, indentation: whiteSpaceBefore, overrides: overrides, overrideTags: overrideTags))
                whiteSpaceBefore = ""

            case "$":
                position += 1
                let name = try readName(state)
                if state.isPartialDefinitionTopLevel {
                    if isStandalone(state) { setNewLine = true }
                    let body = try parse(state: state.inSection(name, newLine: setNewLine, at: tagStart))
                    nodes.append(.blockDefinition(tagName(name), body))
                } else {
                    if !whiteSpaceBefore.isEmpty {
                        nodes.append(.text(Array(whiteSpaceBefore.utf8)))
                    }
                    if isStandalone(state) { setNewLine = true }
                    let body = try parse(state: state.inSection(name, newLine: setNewLine, at: tagStart))
                    nodes.append(.block(name, defaultNodes: body, indentation: whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }

            case "=":
                position += 1
                state = try readDelimiters(state)
                state.isPartialDefinitionTopLevel = false
                setNewLine = isStandalone(state)

            case "%":
                throw Failure(message: "pragmas ({{% …}}) are not supported")

            default:
                flushWhiteSpace()
                nodes.append(.variable(tagName(try readName(state)), escaped: true))
            }
            state.newLine = setNewLine
        }
        if let open = state.sectionName {
            throw Failure(message: "{{#\(open)}} is never closed", at: state.sectionStart)
        }
        return nodes
    }

    // MARK: - Reading

    private var atEnd: Bool { position == characters.count }
    /// The current character, or NUL at the end (as swift-mustache's parser does).
    private var current: Character { atEnd ? "\0" : characters[position] }

    private mutating func read(while accept: (Character) -> Bool) -> String {
        let start = position
        while !atEnd && accept(characters[position]) { position += 1 }
        return String(characters[start..<position])
    }

    /// Skips `delimiter` when it comes next.
    private mutating func read(_ delimiter: [Character]) -> Bool {
        guard characters.count - position >= delimiter.count,
              characters[position..<(position + delimiter.count)].elementsEqual(delimiter) else { return false }
        position += delimiter.count
        return true
    }

    /// Text up to a newline (not consumed) or a tag's opening delimiter (consumed).
    private mutating func readUntilTagOrNewline(_ state: State) -> String {
        var text = ""
        let first = state.startDelimiter[0]
        while !atEnd {
            text += read(while: { $0 != "\n" && $0 != "\r\n" && $0 != first })
            if current.isNewline { break }
            if current == first {
                if read(state.startDelimiter) { break }
                text.append(first)
                position += 1
            }
        }
        return text
    }

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    private static let partialNameCharacters = nameCharacters.union("/")

    private mutating func readName(_ state: State, closing: Character? = nil) throws(Failure) -> String {
        let tagStart = position
        _ = read(while: \.isWhitespace)
        let name = read(while: { Self.nameCharacters.contains($0) })
        _ = read(while: \.isWhitespace)
        if current == "(" || current == ")" {
            throw Failure(message: "transforms such as {{\(name)(…)}} are not supported")
        }
        if let closing {
            guard current == closing else { throw Failure(message: "expected \"\(closing)\(String(state.endDelimiter))\" to close the tag") }
            position += 1
        }
        guard read(state.endDelimiter) else {
            position = tagStart
            throw Failure(message: "unfinished tag: expected a name and \"\(String(state.endDelimiter))\"")
        }
        if name.isEmpty {
            position = tagStart
            throw Failure(message: "empty tag name")
        }
        return name
    }

    private mutating func readPartialName(_ state: State) throws(Failure) -> String {
        if current == "*" { throw Failure(message: "dynamic partials ({{>*name}}) are not supported") }
        let name = read(while: { Self.partialNameCharacters.contains($0) })
        _ = read(while: \.isWhitespace)
        guard !name.isEmpty, read(state.endDelimiter) else {
            throw Failure(message: "unfinished partial tag: expected a template name and \"\(String(state.endDelimiter))\"")
        }
        return name
    }

    private mutating func skipComment(_ state: State) throws(Failure) {
        while !atEnd {
            if read(state.endDelimiter) { return }
            position += 1
        }
        throw Failure(message: "unfinished comment")
    }

    private mutating func readDelimiters(_ state: State) throws(Failure) -> State {
        _ = read(while: \.isWhitespace)
        let start = read(while: { !$0.isWhitespace })
        _ = read(while: \.isWhitespace)
        let end = read(while: { $0 != "=" && !$0.isWhitespace })
        _ = read(while: \.isWhitespace)
        guard current == "=", !start.isEmpty, !end.isEmpty else {
            throw Failure(message: "bad delimiter tag: expected {{=<start> <end>=}}")
        }
        position += 1
        guard read(state.endDelimiter) else {
            throw Failure(message: "bad delimiter tag: expected {{=<start> <end>=}}")
        }
        var state = state
        state.startDelimiter = Array(start)
        state.endDelimiter = Array(end)
        return state
    }

    /// A tag alone on its line (only spaces or tabs around it) leaves no trace in the
    /// output: the rest of its line, newline included, is skipped.
    private mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if atEnd { return true }
        var probe = position
        while probe < characters.count && (characters[probe] == " " || characters[probe] == "\t") { probe += 1 }
        if probe < characters.count && characters[probe].isNewline {
            position = probe + 1
            return true
        }
        return false
    }

    /// 1-based line and column (in characters) of the character at `offset`.
    private func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
        let offset = min(offset, characters.count)
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }
}
