import CMarkGFM
import Foundation

/// Markdown to HTML through cmark-gfm in safe mode: raw HTML is omitted, unsafe link
/// schemes (javascript:, vbscript:, data: other than images) get an empty href, and the
/// tagfilter extension is on.
///
/// cmark-gfm 0.29 is not thread-safe (FINDINGS: concurrent parses silently drop
/// extensions), so every call goes through one lock; it renders ~40 MB/s, so the lock
/// is not the bottleneck.
public enum MarkdownRenderer {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered = false
    private static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    public static func html(_ markdown: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if !registered {
            cmark_gfm_core_extensions_ensure_registered()
            registered = true
        }
        // CMARK_OPT_UNSAFE is deliberately never set.
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        for name in extensionNames {
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
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }
        // Passing the parser's extension list matters: NULL silently disables tagfilter.
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// One line of plain text from Markdown, for meta descriptions and link previews:
    /// rendered safely first (so raw HTML is already gone), then tags dropped.
    public static func plainText(_ markdown: String, limit: Int = 200) -> String {
        var text = ""
        var inTag = false
        for character in html(markdown) {
            if character == "<" { inTag = true; continue }
            if character == ">" && inTag { inTag = false; text.append(" "); continue }
            if !inTag { text.append(character) }
        }
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: value)
        }
        let words = text.split(whereSeparator: { $0.isWhitespace })
        var line = words.joined(separator: " ")
        for mark in [" .", " ,", " ;", " :", " !", " ?"] {
            line = line.replacingOccurrences(of: mark, with: String(mark.dropFirst()))
        }
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }
}
