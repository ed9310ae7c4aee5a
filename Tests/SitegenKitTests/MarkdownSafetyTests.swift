import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenRender
import Testing

@Suite("Markdown from exports is safe and bounded (docs/robustness.md)")
struct MarkdownSafetyTests {
    @Test("Raw HTML is omitted and tagfilter is on", arguments: [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "\"><script>alert(1)</script>",
        "<iframe src=javascript:alert(1)>",
        "</title><script>x</script>",
        "<svg onload=alert(1)>",
    ])
    func rawHTML(payload: String) {
        let html = MarkdownRenderer.html("Hello \(payload) world\n\n\(payload)\n")
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.lowercased().contains("<img"))
        #expect(!html.lowercased().contains("<iframe"))
        #expect(!html.lowercased().contains("<svg"))
    }

    @Test("Only http, https, mailto, tel, webcal and relative links stay links; others are their text alone", arguments: [
        ("[a](https://example.org/x)", "<p><a href=\"https://example.org/x\">a</a></p>\n"),
        ("[a](http://example.org)", "<p><a href=\"http://example.org\">a</a></p>\n"),
        ("[a](mailto:ann@example.org)", "<p><a href=\"mailto:ann@example.org\">a</a></p>\n"),
        ("[call Ann](tel:+1-555-0100)", "<p><a href=\"tel:+1-555-0100\">call Ann</a></p>\n"),
        ("[Subscribe](webcal://example.org/trips/t/calendar.ics)", "<p><a href=\"webcal://example.org/trips/t/calendar.ics\">Subscribe</a></p>\n"),
        ("[a](#day-2)", "<p><a href=\"#day-2\">a</a></p>\n"),
        ("[a](../tips/)", "<p><a href=\"../tips/\">a</a></p>\n"),
        ("[a](javascript:alert(1))", "<p>a</p>\n"),
        ("[a](JaVaScRiPt:alert(1))", "<p>a</p>\n"),
        ("[a](&#106;avascript:alert(1))", "<p>a</p>\n"),
        ("[a](java%0ascript:alert(1))", "<p>a</p>\n"),
        ("[a](vbscript:msgbox(1))", "<p>a</p>\n"),
        ("[a](data:text/html;base64,PHNjcmlwdD4=)", "<p>a</p>\n"),
        ("[a](file:///etc/passwd)", "<p>a</p>\n"),
        ("[a](sportstime://poll/X7K9M2)", "<p>a</p>\n"),
        ("<javascript:alert(1)>", "<p>javascript:alert(1)</p>\n"),
    ])
    func links(markdown: String, expected: String) {
        #expect(MarkdownRenderer.html(markdown) == expected)
    }

    @Test("Images from other sites become their alt text; relative images and raster images in the text stay (SPEC §6)")
    func images() {
        #expect(MarkdownRenderer.html("See ![the *park*](https://example.org/p.png) now") == "<p>See the <em>park</em> now</p>\n")
        #expect(MarkdownRenderer.html("![x](//evil.example/p.png)") == "<p>x</p>\n")
        #expect(MarkdownRenderer.html("![x](data:image/png;base64,AAAA)") == "<p><img src=\"data:image/png;base64,AAAA\" alt=\"x\" /></p>\n")
        #expect(MarkdownRenderer.html("![x](DATA:image/JPEG;base64,AAAA)") == "<p><img src=\"DATA:image/JPEG;base64,AAAA\" alt=\"x\" /></p>\n")
        // Not a raster image: an SVG (a document of its own) or HTML.
        #expect(MarkdownRenderer.html("![x](data:image/svg+xml;base64,PHN2Zz4=)") == "<p>x</p>\n")
        #expect(MarkdownRenderer.html("![x](data:text/html;base64,PHNjcmlwdD4=)") == "<p>x</p>\n")
        #expect(MarkdownRenderer.html("![map](map.png)") == "<p><img src=\"map.png\" alt=\"map\" /></p>\n")
    }

    @Test("With urls: files a relative link to a folder names its index.html; other links are left as written", arguments: [
        ("../tips/", "../tips/index.html"), ("tips/#today", "tips/index.html#today"), ("..", "../index.html"),
        ("./?x=1", "./index.html?x=1"), ("polls/X7K9M2/.", "polls/X7K9M2/./index.html")
    ])
    func folderLinks(link: String, expected: String) {
        #expect(MarkdownRenderer.indexFileLink(link) == expected)
        #expect(MarkdownRenderer.html("[a](\(link))", indexLinks: true) == "<p><a href=\"\(expected.replacingOccurrences(of: "&", with: "&amp;"))\">a</a></p>\n")
        // Without urls: files the link is kept: a web server serves the folder's index.html.
        #expect(MarkdownRenderer.html("[a](\(link))") == "<p><a href=\"\(link)\">a</a></p>\n")
    }

    @Test("Links that are not relative links to a folder are never given an index.html", arguments: [
        "/tips/", "#top", "https://example.org/", "mailto:a@b.c", "notes.html", "../assets/site.css", "../tips", "../downloads/LICENSE", "a:b/", "",
    ])
    func otherLinks(link: String) {
        #expect(MarkdownRenderer.indexFileLink(link) == nil)
    }

    @Test("Headings are placed below the heading the text sits under, keeping their steps, at most h6")
    func headingsBelow() {
        let text = "# One\n\n## Two\n\n#### Four\n"
        #expect(MarkdownRenderer.html(text, headingsBelow: 1) == "<h2>One</h2>\n<h3>Two</h3>\n<h5>Four</h5>\n")
        #expect(MarkdownRenderer.html(text, headingsBelow: 3) == "<h4>One</h4>\n<h5>Two</h5>\n<h6>Four</h6>\n")
        // A text whose top heading is ## starts at the next level all the same.
        #expect(MarkdownRenderer.html("## Plan\n\n### Day\n", headingsBelow: 1) == "<h2>Plan</h2>\n<h3>Day</h3>\n")
        #expect(MarkdownRenderer.html("Setext\n===\n", headingsBelow: 2) == "<h3>Setext</h3>\n")
        #expect(MarkdownRenderer.html(text) == "<h1>One</h1>\n<h2>Two</h2>\n<h4>Four</h4>\n")
        // Cached apart: the same text under another heading is rendered again.
        #expect(MarkdownRenderer.html(text, headingsBelow: 1) != MarkdownRenderer.html(text, headingsBelow: 2))
    }

    @Test("GFM extensions work: tables, strikethrough, autolinks, task lists")
    func extensions() {
        #expect(MarkdownRenderer.html("| a | b |\n|---|---|\n| 1 | 2 |\n").contains("<table>"))
        #expect(MarkdownRenderer.html("~~gone~~") == "<p><del>gone</del></p>\n")
        #expect(MarkdownRenderer.html("www.example.org") == "<p><a href=\"http://www.example.org\">www.example.org</a></p>\n")
        #expect(MarkdownRenderer.html("- [x] done").contains("checked=\"\" disabled=\"\""))
    }

    @Test("A wide table header over many lines is not parsed as a table (it took minutes in cmark-gfm 0.29)")
    func pathologicalTable() {
        let columns = 10_000
        var text = "|" + String(repeating: "a|", count: columns) + "\n|" + String(repeating: "-|", count: columns) + "\n"
        text += String(repeating: "x\n", count: (ExportDecoder.maxMarkdownBytes - text.utf8.count) / 2)
        #expect(MarkdownRenderer.estimatedTableCells(text) > MarkdownRenderer.maxTableCells)
        // Were the table extension used, this render alone would take minutes.
        #expect(!MarkdownRenderer.html(text).contains("<table>"))
        // An upper bound (edge pipes count as columns): 4 columns × 3 lines from the delimiter row.
        #expect(MarkdownRenderer.estimatedTableCells("| a | b |\n|---|---|\n| 1 | 2 |\n") == 12)
        #expect(MarkdownRenderer.html("| a | b |\n|---|---|\n| 1 | 2 |\n").contains("<table>"))
    }

    @Test("Output is bounded: deep quote nesting gives a short notice instead of megabytes")
    func amplification() {
        let text = String(repeating: ">", count: ExportDecoder.maxMarkdownBytes)
        #expect(MarkdownRenderer.html(text) == MarkdownRenderer.tooComplexNotice)
    }

    @Test("A reference link with a 32 KB URL used 11,000 times in 64 KiB is refused before rendering, in milliseconds")
    func referenceExpansion() {
        let url = "https://example.org/" + String(repeating: "a", count: 32_000)
        let text = "[r]: \(url)\n\n" + String(repeating: "[r]", count: 11_000)
        #expect(text.utf8.count <= ExportDecoder.maxMarkdownBytes)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(MarkdownRenderer.html(text) == MarkdownRenderer.tooComplexNotice)
        #expect(clock.now - started < .seconds(1))
        // The same link used twice is fine; so are many uses of a short one.
        #expect(MarkdownRenderer.html("[r]: \(url)\n\n[r] and [R]\n").contains(url))
        let short = MarkdownRenderer.html("[Home]: https://example.org/\n\n" + String(repeating: "[home] ", count: 1_000))
        #expect(short.components(separatedBy: "<a href=\"https://example.org/\">").count == 1_001)
        // Also with the definition's URL on its own line and a title below.
        #expect(MarkdownRenderer.html("[r]:\n  \(url)\n  \"t\"\n\n" + String(repeating: "[r]", count: 11_000)) == MarkdownRenderer.tooComplexNotice)
    }

    @Test("The reference estimate counts uses of defined labels only, case- and space-insensitively")
    func referenceEstimate() {
        #expect(ReferenceExpansion.estimate("no references [x] here") == 0)
        #expect(ReferenceExpansion.estimate("[a b]: 12345\n\n[A  b] [a b] [c]") == 2 * " 12345".count)
        #expect(ReferenceExpansion.estimate("    [a]: indented code, not a definition\n[a]") == 0)
    }

    @Test("Concurrent renders give the same result as serial ones (cmark-gfm is not thread-safe)")
    func concurrency() {
        let text = "~~strike~~ and www.example.org and | a |\n|---|\n| b |\n"
        let expected = MarkdownRenderer.html(text)
        let results = ConcurrentResults<String>(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { results[$0] = MarkdownRenderer.html(text) }
        #expect(results.values.allSatisfy { $0 == expected })
    }
}
