import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenRender
import Testing

/// Titles that start in Arabic or Hebrew and go on in English, as friends wrote them: laid out
/// as a right-to-left paragraph in their own element with the "?" after the English that it
/// ends, and plain in the page's metadata (docs/pages.md, "Right-to-left text").
@Suite("Right-to-left titles: headings, cards and metadata")
struct RightToLeftTitleTests {
    static let fsi = "\u{2068}", pdi = "\u{2069}", lrm = "\u{200E}", rlm = "\u{200F}"
    static let stadium = "🏟️ نهاية الأسبوع في الملاعب ⚾ — which September weekend?"
    static let texas = "מי בא לטקסס?"
    static let convoy = "🚐 קרוואן לשיקגו — Detroit to Wrigley"
    static let faq = "שאלות — FAQ for the group 🤔"

    @Test("Closing punctuation stays with the words it ends, when the last words run the other way from the first")
    func trailingMarks() {
        let (fsi, pdi) = (Self.fsi, Self.pdi)
        // Right to left, ending in English and "?": the "?" is kept after "weekend".
        #expect(BidiIsolation.isolated(Self.stadium) == "\(fsi)\(Self.stadium)\(Self.lrm)\(pdi)")
        #expect(BidiIsolation.isolated("Texas trip — מי בא?") == "\(fsi)Texas trip — מי בא?\(Self.rlm)\(pdi)")
        #expect(BidiIsolation.isolated("שלום — and goodbye!)") == "\(fsi)שלום — and goodbye!)\(Self.lrm)\(pdi)")
        // One direction throughout, no punctuation after the last letter, or only emoji: no mark.
        for text in [Self.texas, Self.convoy, Self.faq, "Friends' trips 2026 — رحلات 🧳", "מי בא? Texas", "Denver \u{202E}26 points!"] {
            #expect(BidiIsolation.isolated(text) == "\(fsi)\(text)\(pdi)", "\(text)")
        }
    }

    @Test("Plain text for metadata has no isolate, control or mark left")
    func plain() {
        let isolated = "\(Self.fsi)\(Self.stadium)\(Self.lrm)\(Self.pdi) · \(Self.fsi)Friends — رحلات\(Self.pdi)"
        #expect(BidiIsolation.plain(isolated) == "\(Self.stadium) · Friends — رحلات")
        #expect(BidiIsolation.plain("Denver \u{202E}26\u{202C} \u{2067}x\u{200F}\u{061C}") == "Denver 26 x")
        #expect(BidiIsolation.plain("Lone Star Loop") == "Lone Star Loop")
    }

    @Test("A sentence that ends in ?, ! or . gets no second full stop")
    func sentences() {
        #expect(sentence("The standings of the poll \(Self.texas)") == "The standings of the poll \(Self.texas)")
        #expect(sentence("The standings of the poll \(Self.fsi)\(Self.texas)\(Self.pdi)") == "The standings of the poll \(Self.fsi)\(Self.texas)\(Self.pdi)")
        #expect(sentence("Stops: St. Louis, Mo.") == "Stops: St. Louis, Mo.")
        #expect(sentence("We go (again!)") == "We go (again!)")
        #expect(sentence("هل تأتي؟") == "هل تأتي؟")
        #expect(sentence("Road trip…") == "Road trip…")
        #expect(sentence("Stops in order: A → B") == "Stops in order: A → B.")
        #expect(sentence("Trip polls and plans for Friends 🧳") == "Trip polls and plans for Friends 🧳.")
    }

    @Test("A card's alt text puts no colon or number straight after a name, so a right-to-left title or trip reads in order with no control character")
    func altText() {
        let title = "من سيفوز؟", east = "رحلة الساحل الشرقي"
        // Shown left to right, "من سيفوز؟: 3 people…" drew the "3" before the title and ":" beside "؟",
        // and "east, 6 points" the "6" before the trip's name.
        let voted = PreviewTests.published([east, "Texas Triangle", "Great Lakes"], [[1, 0, 2], [1, 2, 0], [0, 1, 2]], title: title)
        #expect(PreviewCard.poll(voted, siteTitle: "Site").altText
            == "من سيفوز؟ Poll standings: 3 people have voted. 1st Texas Triangle with 8 points; 2nd \(east) with 6 points; 3rd Great Lakes with 4 points.")
        let none = PreviewTests.published([east, "Texas Triangle"], [], title: title)
        #expect(PreviewCard.poll(none, siteTitle: "Site").altText == "من سيفوز؟ Poll standings: Nobody has voted yet.")
        // A title that is no sentence yet becomes one; in English too there is no "?:".
        let summer = PreviewTests.published(["A", "B"], [], title: "رحلات الصيف")
        #expect(PreviewCard.poll(summer, siteTitle: "Site").altText == "رحلات الصيف. Poll standings: Nobody has voted yet.")
        let weekend = PreviewTests.published(["A", "B"], [], title: "Which September weekend?")
        #expect(PreviewCard.poll(weekend, siteTitle: "Site").altText == "Which September weekend? Poll standings: Nobody has voted yet.")
    }

    /// The audit's FAQ page, with its Hebrew paragraph's full stop left out.
    static let faqBody = """
        ## Who sees my vote?

        Nobody. Only totals are shown; see the [Hebrew poll](../polls/HBRW2V/) and the [tips](../tips/).

        שלום לכולם! הדף הזה מסביר איך ההצבעה עובדת

        | Term | Meaning |
        |---|---|
        | Borda | points per position |
        | Tie | equal points |
        """

    @Test("Plain text from Markdown keeps blocks and table cells apart")
    func markdownPlainText() {
        #expect(MarkdownRenderer.plainText(Self.faqBody) == "Who sees my vote? Nobody. Only totals are shown; see the Hebrew poll and the tips. "
            + "שלום לכולם! הדף הזה מסביר איך ההצבעה עובדת. Term, Meaning. Borda, points per position. Tie, equal points.")
        #expect(MarkdownRenderer.plainText("### Rules:\n\n- Rank *every* trip\n- One ballot each\n\n> Quoted\n\n    code\n---\nEnd")
            == "Rules: Rank every trip. One ballot each. Quoted. code. End.")
        #expect(MarkdownRenderer.plainText("Our **fall** ideas. Rank *every* option &amp; `code` in the app.")
            == "Our fall ideas. Rank every option & code in the app.")
        #expect(MarkdownRenderer.plainText("A line  \nbroken, then &lt;b&gt; &#x1F600;") == "A line broken, then <b> 😀.")
        // Past the limit, cut at a word (a description read "…so that the descriptio…").
        let words = (0..<60).map { String(format: "word%02d", $0) }.joined(separator: " ")
        #expect(MarkdownRenderer.plainText(words, limit: 40) == "word00 word01 word02 word03 word04…")
        #expect(MarkdownRenderer.plainText(words).hasSuffix(" word27…"))
    }

    @Test("On the pages: a heading and cards of their own direction; title, og and twitter tags, descriptions and alt text plain; never \"?.\"")
    func onThePages() throws {
        let (fsi, pdi, lrm) = (Self.fsi, Self.pdi, Self.lrm)
        let site = try MarkdownPagesTests().siteWithPages(["faq.md": "---\ntitle: \(Self.faq)\n---\n\(Self.faqBody)\n"])
        var polls = try site.read("Data/polls/polls.json")
        polls = polls.replacingOccurrences(of: "\"Spec example <3 trips>\"", with: "\"\(Self.stadium)\"")
            .replacingOccurrences(of: "\"Two ballots, tie\"", with: "\"\(Self.texas)\"")
        try site.write("Data/polls/polls.json", polls)
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        let tree = try fileTree(site.root.appendingPathComponent("Output")).mapValues { String(decoding: $0, as: UTF8.self) }

        let poll = try #require(tree["polls/X7K9M2/index.html"])
        #expect(poll.contains("<h1 dir=\"auto\">\(fsi)\(Self.stadium)\(lrm)\(pdi)</h1>"))
        #expect(poll.contains("<title>\(Self.stadium) · Golden Trips</title>"))
        #expect(poll.contains("<meta property=\"og:title\" content=\"\(Self.stadium)\">"))
        #expect(poll.contains("<meta name=\"twitter:title\" content=\"\(Self.stadium)\">"))
        #expect(poll.contains("<meta property=\"og:site_name\" content=\"Golden Trips\">"))
        #expect(poll.contains("<meta property=\"og:image:alt\" content=\"\(Self.stadium) Poll standings: "))
        let home = try #require(tree["index.html"])
        #expect(home.contains("<h3 class=\"card-title\" dir=\"auto\"><a href=\"polls/X7K9M2/\">\(fsi)\(Self.stadium)\(lrm)\(pdi)</a></h3>"))
        #expect(home.contains("<h3 class=\"card-title\" dir=\"auto\"><a href=\"polls/TWB2AA/\">\(fsi)\(Self.texas)\(pdi)</a></h3>"))
        // The "More pages" item keeps the page's direction (its bullet hung past a phone's
        // right edge in the title's); the isolated title keeps its own.
        #expect(home.contains("<li><a href=\"faq/\">\(fsi)\(Self.faq)\(pdi)</a></li>"))
        // A poll's trip page describes its poll's card in one sentence: one "?", no ".".
        let trip = try #require(tree["polls/TWB2AA/trips/1/index.html"])
        #expect(trip.contains("<meta property=\"og:image:alt\" content=\"The standings of the poll \(Self.texas)\">"))
        #expect(trip.contains("<meta name=\"twitter:image:alt\" content=\"The standings of the poll \(Self.texas)\">"))
        let page = try #require(tree["faq/index.html"])
        #expect(page.contains("<h1 dir=\"auto\">\(fsi)\(Self.faq)\(pdi)</h1>"))
        #expect(page.contains("<title>\(Self.faq) · Golden Trips</title>"))
        #expect(page.contains("<meta name=\"description\" content=\"Who sees my vote? Nobody. Only totals are shown; see the Hebrew poll and the tips. "
            + "שלום לכולם! הדף הזה מסביר איך ההצבעה עובדת. Term, Meaning. Borda, points per position. Tie, equal points.\">"))

        let controls: Set<Unicode.Scalar> = ["\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}"]
        var pages = 0
        for (path, file) in tree where path.hasSuffix(".html") {
            pages += 1
            #expect(!file.contains("?."), "\(path)")
            for line in file.split(separator: "\n") where line.hasPrefix("<title>") || line.hasPrefix("<meta ") {
                #expect(!line.unicodeScalars.contains(where: controls.contains), "\(path): \(line)")
            }
        }
        #expect(pages > 20)
    }
}
