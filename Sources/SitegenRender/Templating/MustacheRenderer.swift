/// Renders parsed Mustache templates over `[String: Any]` contexts, straight into bytes.
///
/// sitegen first used swift-mustache's renderer, which resolves every tag through several
/// protocol casts (`Any` → lambda, custom renderable, optional, …) and escapes character by
/// character. At 10,000 polls that was over half of the build's CPU (docs/performance.md).
/// This renderer knows only the values sitegen's page code makes — strings, integers,
/// booleans, dictionaries, arrays and lists of models (ContextList) — and produces the same bytes; the test
/// `sameBytesAsSwiftMustache` checks that on every page of the sample and hostile sites.
///
/// Values, as in swift-mustache:
/// - `{{name}}` writes a string or number, HTML-escaped (`& < > " '`); `{{{name}}}` and
///   `{{& name}}` write it as it is.
/// - `{{#name}}` renders its body once per array element, once if `true`, once with the
///   value on top of the context stack if it is any other present value, and not at all
///   if it is absent, `false` or an empty array. `{{^name}}` renders when `{{#name}}` would not.
/// - A name is looked up from the innermost context outwards; `a.b` looks up `a` that way
///   and `b` inside it; `.` is the current item.
package struct MustacheRenderer: Sendable {
    package let templates: [String: [TemplateNode]]

    package func render(_ name: String, context: [String: Any]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(32 * 1024)
        var frame = Frame(stack: [ContextItem(context)], indentation: nil, overrides: nil, flush: nil)
        render(templates[name] ?? [], frame: &frame, into: &output)
        return output
    }

    /// Renders into `output`, handing it to `flush` (which empties it) whenever a megabyte
    /// or more has gathered between two items of a list, and nothing written can still be
    /// indented (no standalone partial with indentation is open): a page as long as the home
    /// page of a large site (2.9 MB at 10,000 polls; growing one buffer to hold it took up to
    /// 6 MB) is then never held whole.
    package func render(_ name: String, context: [String: Any], into output: inout [UInt8], flush: (inout [UInt8]) -> Void) {
        withoutActuallyEscaping(flush) { flush in
            var frame = Frame(stack: [ContextItem(context)], indentation: nil, overrides: nil, flush: flush)
            render(templates[name] ?? [], frame: &frame, into: &output)
        }
    }

    /// Where a list item ends: passes the output on when it is large and may be.
    private func itemEnded(_ frame: Frame, _ output: inout [UInt8]) {
        if let flush = frame.flush, output.count >= 1 << 20, frame.indentation?.isEmpty ?? true { flush(&output) }
    }

    /// What a template renders against: the context stack, the indentation of the
    /// standalone partials it sits in, and the blocks its children override.
    /// A context on the stack, cast to a dictionary once when it is pushed rather than at
    /// every lookup that passes it.
    private struct ContextItem {
        let value: Any
        let dictionary: [String: Any]?

        init(_ value: Any) {
            self.value = value
            dictionary = value as? [String: Any]
        }

        init(_ dictionary: [String: Any]) {
            value = dictionary
            self.dictionary = dictionary
        }
    }

    private struct Frame {
        var stack: [ContextItem]
        var indentation: String?
        var overrides: [String: [TemplateNode]]?
        /// Where output goes on when it grows large (`render(_:context:into:flush:)`).
        var flush: ((inout [UInt8]) -> Void)?
    }

    private func render(_ nodes: [TemplateNode], frame: inout Frame, into output: inout [UInt8]) {
        guard let indentation = frame.indentation, !indentation.isEmpty else {
            for node in nodes { render(node, frame: &frame, into: &output) }
            return
        }
        // Inside an indented standalone partial, output that starts a new line (of this
        // template's own output) is indented.
        let start = output.count
        for node in nodes {
            let before = output.count
            render(node, frame: &frame, into: &output)
            if output.count > before, before > start, output[before - 1] == UInt8(ascii: "\n"),
               !(before - 2 >= start && output[before - 2] == UInt8(ascii: "\r")) {
                output.insert(contentsOf: indentation.utf8, at: before)
            }
        }
    }

    private func render(_ node: TemplateNode, frame: inout Frame, into output: inout [UInt8]) {
        switch node {
        case .text(let bytes):
            output.append(contentsOf: bytes)

        case .variable(let name, let escaped):
            guard let value = lookUp(name, in: frame.stack) else { return }
            write(value, escaped: escaped, into: &output)

        case .section(let name, let body):
            switch lookUp(name, in: frame.stack) {
            case nil:
                return
            case let flag as Bool:
                if flag { render(body, frame: &frame, into: &output) }
            case let items as ContextList:
                for index in 0..<items.count {
                    renderPushing(ContextItem(items[index]), body, frame: &frame, into: &output)
                    itemEnded(frame, &output)
                }
            case let items as [[String: Any]]:
                for item in items {
                    renderPushing(ContextItem(item), body, frame: &frame, into: &output)
                    itemEnded(frame, &output)
                }
            case let items as [Any]:
                for item in items { renderPushing(ContextItem(item), body, frame: &frame, into: &output) }
            case let value?:
                renderPushing(ContextItem(value), body, frame: &frame, into: &output)
            }

        case .invertedSection(let name, let body):
            let show: Bool = switch lookUp(name, in: frame.stack) {
            case nil: true
            case let flag as Bool: !flag
            case let items as [Any]: items.isEmpty
            case let items as ContextList: items.count == 0
            default: false
            }
            if show { render(body, frame: &frame, into: &output) }

        case .partial(let name, let indentation, let overrides, _):
            var inner = frame
            if let indentation { inner.indentation = (frame.indentation ?? "") + indentation }
            if let overrides {
                // The outermost override of a block wins.
                inner.overrides = frame.overrides?.merging(overrides) { outer, _ in outer } ?? overrides
            }
            render(templates[name] ?? [], frame: &inner, into: &output)

        case .block(let name, let defaultNodes, let indentation):
            var inner = frame
            inner.indentation = (frame.indentation ?? "") + indentation
            render(frame.overrides?[name] ?? defaultNodes, frame: &inner, into: &output)

        case .blockDefinition:
            return
        }
    }

    private func renderPushing(_ item: ContextItem, _ body: [TemplateNode], frame: inout Frame, into output: inout [UInt8]) {
        frame.stack.append(item)
        render(body, frame: &frame, into: &output)
        frame.stack.removeLast()
    }

    private func lookUp(_ name: TemplateName, in stack: [ContextItem]) -> Any? {
        guard let first = name.parts.first else { return stack.last?.value }
        var value: Any?
        if name.searchesStack {
            for item in stack.reversed() {
                if let found = item.dictionary?[first] {
                    value = found
                    break
                }
            }
        } else if let top = stack.last {
            value = top.dictionary?[first]
        }
        for part in name.parts.dropFirst() {
            guard let object = value else { return nil }
            value = child(part, of: object)
        }
        return value
    }

    private func child(_ key: String, of object: Any) -> Any? {
        guard let dictionary = object as? [String: Any] else { return nil }
        return dictionary[key]
    }

    private func write(_ value: Any, escaped: Bool, into output: inout [UInt8]) {
        var text: String
        switch value {
        case let string as String: text = string
        case let number as Int: text = String(number)
        case let flag as Bool: text = flag ? "true" : "false"
        default: text = String(describing: value)
        }
        if escaped {
            HTMLEscaping.append(text, to: &output)
        } else {
            text.withUTF8 { output.append(contentsOf: $0) }
        }
    }
}

/// HTML escaping of text and attribute values: `& < > " '`, byte by byte (these five are
/// ASCII, so they never occur inside a multi-byte UTF-8 sequence).
package enum HTMLEscaping {
    package static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    package static func escaped(_ text: String) -> String {
        var output: [UInt8] = []
        append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
