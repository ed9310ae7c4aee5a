import CMarkGFM
import Foundation
import SitegenCore

/// Markdown to HTML through cmark-gfm in safe mode: raw HTML is omitted, the tagfilter
/// extension is on, and on top of cmark's own URL filter only http, https, mailto, tel and
/// relative links survive (any other link is its text alone). Images from other sites become their alt text (a page never
/// loads anything from another site); relative images and raster images carried in the
/// text (`data:image/png;…`, as cmark's safe mode allows) stay.
///
/// cmark-gfm 0.29 is not thread-safe (docs/libraries.md: concurrent parses silently drop
/// extensions), so every call goes through one lock; it renders ~40 MB/s, so the lock
/// is not the bottleneck.
///
/// Bounded work (docs/robustness.md): the table extension pads every row to the header's
/// width, so a 64 KiB note with a wide header and many short lines took minutes and tens
/// of megabytes; such text is rendered without the table extension. Output that could be
/// larger than `maxOutputBytes` (deep quote nesting, a reference link used thousands of
/// times) is replaced by a short notice, decided from the parsed tree before rendering.
public enum MarkdownRenderer {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered = false
    private static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    /// Table cells (columns × following lines) above which tables are not parsed.
    public static let maxTableCells = 10_000
    public static let maxOutputBytes = 1 << 20
    public static let tooComplexNotice = "<p><em>This text is too long or complex to show here.</em></p>\n"

    /// Recently rendered texts: a poll's description appears on its page, its seven views
    /// and its link preview, all planned next to each other. Bounded, so memory stays flat.
    nonisolated(unsafe) private static var recent: [String: String] = [:]
    private static let recentLimit = 256

    /// `indexLinks` (`urls: files`): a relative link to a folder (`../tips/`) names its
    /// `index.html`, since a browser opening the site from disk shows a folder as a listing.
    /// `headingsBelow`: the level of the page's heading the text sits under; the text's
    /// top headings become the next level, the others keep their steps below them (capped
    /// at 6), so a `#` in a trip's notes is not a second `<h1>` inside a card.
    public static func html(_ markdown: String, indexLinks: Bool = false, headingsBelow: Int = 0) -> String {
        let key = (indexLinks ? "\u{1}" : "") + (headingsBelow > 0 ? String(UnicodeScalar(UInt8(0x10 + min(headingsBelow, 6)))) : "") + markdown
        lock.lock()
        if let cached = recent[key] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let rendered = render(markdown, indexLinks: indexLinks, headingsBelow: headingsBelow)
        lock.withLock {
            if recent.count >= recentLimit { recent.removeAll(keepingCapacity: true) }
            recent[key] = rendered
        }
        return rendered
    }

    private static func render(_ markdown: String, indexLinks: Bool, headingsBelow: Int) -> String {
        // cmark copies reference links while parsing: too many copies are refused unparsed.
        guard ReferenceExpansion.estimate(markdown) <= ReferenceExpansion.budget(forTextOf: markdown.utf8.count) else {
            return tooComplexNotice
        }
        let tables = estimatedTableCells(markdown) <= maxTableCells
        // CMARK_OPT_UNSAFE is deliberately never set.
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
        return withDocument(markdown, options: options, tables: tables) { document, parser in
            // Counted before rendering: one short reference definition used thousands of times
            // would otherwise render hundreds of megabytes first and be refused after.
            guard restrictLinks(in: document, indexLinks: indexLinks) else { return tooComplexNotice }
            if headingsBelow > 0 { placeHeadings(in: document, below: headingsBelow) }
            // Passing the parser's extension list matters: NULL silently disables tagfilter.
            guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
            defer { free(rendered) }
            if strlen(rendered) > maxOutputBytes { return tooComplexNotice }
            return scrollingTables(String(cString: rendered))
        } ?? ""
    }

    /// `body` with the parsed tree of `markdown` (and its parser), under the lock; nil when
    /// cmark could not parse it.
    static func withDocument<T>(_ markdown: String, options: Int32, tables: Bool,
                                _ body: (_ document: OpaquePointer, _ parser: OpaquePointer) -> T) -> T? {
        lock.lock()
        defer { lock.unlock() }
        if !registered {
            cmark_gfm_core_extensions_ensure_registered()
            registered = true
        }
        guard let parser = cmark_parser_new(options) else { return nil }
        defer { cmark_parser_free(parser) }
        for name in extensionNames where tables || name != "table" {
            if let syntaxExtension = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntaxExtension)
            }
        }
        var text = markdown
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                cmark_parser_feed(parser, chars.baseAddress, chars.count)
            }
        }
        guard let document = cmark_parser_finish(parser) else { return nil }
        defer { cmark_node_free(document) }
        return body(document, parser)
    }

    /// Moves the text's headings so the highest is one level below `level`, keeping their
    /// steps (capped at 6): see `html(_:indexLinks:headingsBelow:)`.
    private static func placeHeadings(in document: OpaquePointer, below level: Int) {
        var headings: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_HEADING {
                headings.append(node)
            }
        }
        cmark_iter_free(iterator)
        guard let top = headings.map({ cmark_node_get_heading_level($0) }).min() else { return }
        let shift = Int32(level) + 1 - top
        for heading in headings {
            cmark_node_set_heading_level(heading, min(6, max(1, cmark_node_get_heading_level(heading) + shift)))
        }
    }

    /// Each table in a box of its own that scrolls sideways (the theme's `.table-scroll`,
    /// as the ballots table has), taking focus for the keyboard: a six-column table in a
    /// poll's description made the whole page 592 px wide on a 360 px phone. Safe mode
    /// leaves no raw HTML, so every `<table>` here is one of GFM's.
    static func scrollingTables(_ html: String) -> String {
        guard html.contains("<table>") else { return html }
        return html
            .replacingOccurrences(of: "<table>\n", with: "<div class=\"table-scroll\" role=\"region\" aria-label=\"Table\" tabindex=\"0\">\n<table>\n")
            .replacingOccurrences(of: "</table>\n", with: "</table>\n</div>\n")
    }

    /// Link destinations allowed from exports.
    package static func isAllowedLink(_ url: String) -> Bool {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let colon = trimmed.firstIndex(of: ":") else { return true }   // relative
        let scheme = trimmed[..<colon]
        // A ':' after '/', '?' or '#' is not a scheme separator ("page#a:b", "/x:y").
        if scheme.contains(where: { "/?#".contains($0) }) { return true }
        return ["http", "https", "mailto", "tel", "webcal"].contains(scheme.lowercased())
    }

    /// Output bytes charged per node (its tags), before its text.
    package static let bytesPerNode = 32

    /// Turns links to disallowed targets into their text, and non-relative images into their alt text.
    /// Returns false, leaving the tree half-walked, as soon as the HTML it would render
    /// could exceed `maxOutputBytes`: every node's tags, and every link's URL and title,
    /// which a reference link repeats at each use. The walk stops there, so the work and
    /// memory spent on a hostile text are bounded by the limit, not by its expansion.
    private static func restrictLinks(in document: OpaquePointer, indexLinks: Bool) -> Bool {
        var unwrapped: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return true }
        defer { cmark_iter_free(iterator) }
        var estimate = 0
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            estimate += bytesPerNode
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else {
                if estimate > maxOutputBytes { return false }
                continue
            }
            let rawURL = cmark_node_get_url(node)
            estimate += (rawURL.map { strlen($0) } ?? 0) + (cmark_node_get_title(node).map { strlen($0) } ?? 0)
            if estimate > maxOutputBytes { return false }
            let url = rawURL.map { String(cString: $0) } ?? ""
            if type == CMARK_NODE_LINK, !isAllowedLink(url) {
                // Its text without the link: an empty href was a dead link to the page itself.
                unwrapped.append(node)
            } else if type == CMARK_NODE_LINK, indexLinks, let indexed = indexFileLink(url) {
                estimate += indexed.utf8.count - url.utf8.count
                cmark_node_set_url(node, indexed)
            } else if type == CMARK_NODE_IMAGE, !isInlineImage(url), !isAllowedLink(url) || url.contains(":") || url.hasPrefix("//") {
                unwrapped.append(node)
            }
        }
        // Modify the tree only after iterating it.
        for node in unwrapped {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_free(node)
        }
        return true
    }

    /// A relative link to a folder, naming its `index.html` (`../tips/` → `../tips/index.html`,
    /// `..#x` → `../index.html#x`); nil for any other link: with a scheme, from the root
    /// (`/tips/` works from no folder on disk), to a file, or only a fragment.
    package static func indexFileLink(_ url: String) -> String? {
        guard !url.hasPrefix("/"), !url.hasPrefix("#") else { return nil }
        let end = url.firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let path = url[..<end]
        // A scheme ends before the first '/', '?' or '#'.
        if let colon = path.firstIndex(of: ":"), !path[..<colon].contains("/") { return nil }
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if path.hasSuffix("/") { return path + "index.html" + url[end...] }
        if last == "." || last == ".." { return path + "/index.html" + url[end...] }
        // A name without a slash may be a file of one's own (downloads/LICENSE, CNAME): left
        // as written.
        return nil
    }

    /// An image carried in the text itself (`data:image/png;base64,…`), which loads nothing
    /// from anywhere: the raster types cmark-gfm's safe mode lets through, and no other
    /// (an SVG is a document of its own).
    package static func isInlineImage(_ url: String) -> Bool {
        let lowered = url.prefix(20).lowercased()
        return ["data:image/png;", "data:image/gif;", "data:image/jpeg;", "data:image/webp;"].contains { lowered.hasPrefix($0) }
    }

    /// Columns of the widest table delimiter row times the lines that follow it: the
    /// number of cells the table extension would produce, at most.
    package static func estimatedTableCells(_ markdown: String) -> Int {
        // Lines as cmark sees them (\n, \r\n or \r end a line), scanned as bytes.
        var rows: [(pipes: Int, isDelimiter: Bool)] = []
        var pipes = 0, sawDash = false, onlyDelimiterBytes = true
        var previous: UInt8 = 0
        for byte in markdown.utf8 {
            if byte == UInt8(ascii: "\n") && previous == UInt8(ascii: "\r") {
                previous = byte
                continue
            }
            previous = byte
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                rows.append((pipes, onlyDelimiterBytes && sawDash && pipes > 0))
                pipes = 0; sawDash = false; onlyDelimiterBytes = true
            case UInt8(ascii: "-"): sawDash = true
            case UInt8(ascii: "|"): pipes += 1
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"): break
            default: onlyDelimiterBytes = false
            }
        }
        rows.append((pipes, onlyDelimiterBytes && sawDash && pipes > 0))
        var worst = 0
        for (index, row) in rows.enumerated() where row.isDelimiter {
            worst = max(worst, (row.pipes + 1) * (rows.count - index))
        }
        return worst
    }

    /// One line of plain text from Markdown, for meta descriptions and link previews:
    /// rendered safely first (so raw HTML is already gone), then tags dropped. Each block
    /// (paragraph, heading, list item, quote, table row) is a sentence of its own, ended with
    /// a full stop unless it ends in punctuation already, and a row's cells are joined with
    /// commas: a heading "Who votes" and a table of terms read "Who votes. Term, Meaning.
    /// Borda, points per position.", not "Who votes Term Meaning Borda points per position".
    /// Inline tags add nothing, so "**fall**." stays "fall.".
    public static func plainText(_ markdown: String, limit: Int = 200) -> String {
        var blocks: [String] = [], cells: [String] = [], text = ""
        func words(_ piece: String) -> String {
            decodedEntities(piece).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        func endBlock() {
            let block = (cells + [text]).map(words).filter { !$0.isEmpty }.joined(separator: ", ")
            cells = []
            text = ""
            guard !block.isEmpty else { return }
            blocks.append(block.last.map { ":;,".contains($0) } == true ? block : sentence(block))
        }
        let html = html(markdown)
        var index = html.startIndex
        while index < html.endIndex {
            guard html[index] == "<", let close = html[index...].firstIndex(of: ">") else {
                let next = html[index...].firstIndex(of: "<") ?? html.endIndex
                text += html[index..<next]
                // A "<" with no ">" after it is text (cmark escapes it, so this is only a guard).
                if next == index { text.append("<"); index = html.index(after: index) } else { index = next }
                continue
            }
            let tag = html[html.index(after: index)..<close]
            let closing = tag.hasPrefix("/")
            let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
            switch name {
            case "td", "th":
                if closing { cells.append(text); text = "" }
            case "br":
                text.append(" ")
            case "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre", "ul", "ol", "tr", "table", "hr", "div", "dl", "dt", "dd":
                endBlock()
            default:
                break
            }
            index = html.index(after: close)
        }
        endBlock()
        // Cut at a word, as every other description is (`shortened`): "…the descriptio…" was
        // cut mid-word.
        return shortened(blocks.joined(separator: " "), toAtMost: limit)
    }

    /// The text of HTML with the entities cmark writes (`&amp;`, `&#39;`, `&#x1F600;`…) read.
    private static func decodedEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = "", rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[amp...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let entity = after[after.index(after: amp)..<semicolon]
                let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "][String(entity)]
                var numeric: String?
                if entity.hasPrefix("#") {
                    let digits = entity.dropFirst()
                    let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                    numeric = value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
                if let decoded = named ?? numeric {
                    result += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            result.append("&")
            rest = after.dropFirst()
        }
        return result + rest
    }
}
