import Foundation
@testable import SitegenInput
@testable import SitegenKit
import Testing

@Suite("Front matter of Markdown pages (docs/site-config.md)")
struct FrontMatterTests {
    func parse(_ text: String) throws(FrontMatterError) -> FrontMatterDocument {
        try FrontMatterParser.parse(text, file: "Pages/about.md")
    }

    /// The diagnostic line, or nil when the text parses.
    func message(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A good page: title, description and menu, and the body after the closing line")
    func goodPage() throws {
        let document = try parse("""
        ---
        title: About this site
        description: >
          What this site is
          and who runs it.
        menu: 2
        ---
        # Hello

        Body text.

        """)
        #expect(document.frontMatter == FrontMatter(title: "About this site", description: "What this site is and who runs it.", menu: 2))
        #expect(document.body == "# Hello\n\nBody text.\n")
    }

    @Test("Only title is required; a page without menu is not in the navigation")
    func titleOnly() throws {
        let document = try parse("---\ntitle: Packing list\n---\nBring sunscreen.\n")
        #expect(document.frontMatter == FrontMatter(title: "Packing list", description: nil, menu: nil))
        #expect(document.body == "Bring sunscreen.\n")
    }

    @Test("Windows line endings, a byte-order mark and spaces after the delimiters are accepted")
    func crlfAndBOM() throws {
        let document = try parse("\u{FEFF}---  \r\ntitle: About\r\nmenu: 1\r\n--- \r\nLine one\r\nLine two\r\n")
        #expect(document.frontMatter == FrontMatter(title: "About", menu: 1))
        #expect(document.body == "Line one\r\nLine two\r\n")
    }

    @Test("A missing title is an error that names the key")
    func missingTitle() {
        #expect(message("---\ndescription: No title here\n---\nBody\n")
            == "Pages/about.md:1:1: error: title: required key is missing; every page needs a title")
        #expect(message("---\n---\nBody\n")
            == "Pages/about.md:1:1: error: title: required key is missing; every page needs a title")
        #expect(message("---\ntitle:\n---\n") == "Pages/about.md:2:7: error: title: must not be empty")
        #expect(message("---\ntitle: \"  \"\n---\n") == "Pages/about.md:2:8: error: title: must not be empty")
    }

    @Test("An unknown key is an error with its line and column in the page file, and a suggestion")
    func unknownKey() {
        #expect(message("---\ntitle: About\nmenu: 1\ntitel: About\n---\n")
            == "Pages/about.md:4:1: error: titel: unknown key (did you mean \"title\"?); expected one of: title, description, menu")
        #expect(message("---\ntitle: About\nlayout: wide\n---\n")
            == "Pages/about.md:3:1: error: layout: unknown key; expected one of: title, description, menu")
        // At the second of the two (Yams points at the mapping).
        #expect(message("---\ntitle: About\ntitle: Again\n---\n")
            == "Pages/about.md:3:1: error: title: key appears more than once")
    }

    @Test("Every problem of a page is reported in one run, in file order")
    func everyProblemAtOnce() {
        #expect(message("---\ntitel: X\nmenu: first\ndescripton: y\n---\nBody\n") == """
            Pages/about.md:1:1: error: title: required key is missing; every page needs a title
            Pages/about.md:2:1: error: titel: unknown key (did you mean "title"?); expected one of: title, description, menu
            Pages/about.md:3:7: error: menu: expected a whole number such as 1 (pages are listed in the menu by it)
            Pages/about.md:4:1: error: descripton: unknown key (did you mean "description"?); expected one of: title, description, menu
            """)
        #expect(message("---\ntitle: \"\"\ndescription: [a]\n---\n") == """
            Pages/about.md:2:8: error: title: must not be empty
            Pages/about.md:3:14: error: description: expected text
            """)
    }

    @Test("Wrong value types are errors at the value")
    func wrongTypes() {
        #expect(message("---\ntitle: About\nmenu: first\n---\n")
            == "Pages/about.md:3:7: error: menu: expected a whole number such as 1 (pages are listed in the menu by it)")
        #expect(message("---\ntitle: About\nmenu: \"1\"\n---\n")
            == "Pages/about.md:3:7: error: menu: expected a whole number such as 1 (pages are listed in the menu by it)")
        #expect(message("---\ntitle: [About, Us]\n---\n") == "Pages/about.md:2:8: error: title: expected text")
        #expect(message("---\n- title\n---\n") == "Pages/about.md:2:1: error: expected front matter such as `title: About this site`")
    }

    @Test("No front matter, an unclosed one and broken YAML are positioned errors")
    func structure() {
        #expect(message("# About\n")
            == "Pages/about.md:1:1: error: a page starts with front matter: a line \"---\", then \"title: …\", then a line \"---\"")
        #expect(message("")
            == "Pages/about.md:1:1: error: a page starts with front matter: a line \"---\", then \"title: …\", then a line \"---\"")
        #expect(message("---\ntitle: About\n\nBody\n")
            == "Pages/about.md:1:1: error: the front matter opened here has no closing \"---\" line")
        #expect(message("---\ntitle: About\nmenu: [1\n---\n")
            == "Pages/about.md:4:1: error: not valid YAML: did not find expected ',' or ']'")
    }

    @Test("A \"---\" inside the body, or indented inside the YAML, does not end the front matter early")
    func delimiters() throws {
        let document = try parse("---\ntitle: Rules\ndescription: |\n  ---\n  dashes\n---\nA\n\n---\n\nB\n")
        #expect(document.frontMatter.description == "--- dashes")
        #expect(document.body == "A\n\n---\n\nB\n")
    }
}
