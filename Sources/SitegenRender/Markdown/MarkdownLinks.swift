import CMarkGFM
import Foundation

/// A link or image destination written in Markdown, and where: line and column within the
/// text (1-based), as cmark-gfm records them.
package struct MarkdownLink: Sendable, Equatable {
    package let url: String
    package let line: Int
    package let column: Int
    package let isImage: Bool
}

extension MarkdownRenderer {
    /// Every link and image of `markdown`, in text order: what a page's links are checked
    /// against the site's files from (`SiteLinkCheck`).
    package static func links(in markdown: String) -> [MarkdownLink] {
        guard ReferenceExpansion.estimate(markdown) <= ReferenceExpansion.budget(forTextOf: markdown.utf8.count) else { return [] }
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
        let tables = estimatedTableCells(markdown) <= maxTableCells
        return withDocument(markdown, options: options, tables: tables) { document, _ in
            var links: [MarkdownLink] = []
            guard let iterator = cmark_iter_new(document) else { return links }
            defer { cmark_iter_free(iterator) }
            while true {
                let event = cmark_iter_next(iterator)
                if event == CMARK_EVENT_DONE { break }
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
                links.append(MarkdownLink(url: cmark_node_get_url(node).map { String(cString: $0) } ?? "",
                                          line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node)),
                                          isImage: type == CMARK_NODE_IMAGE))
            }
            return links
        } ?? []
    }
}
