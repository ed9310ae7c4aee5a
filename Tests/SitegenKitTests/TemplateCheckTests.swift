import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenRender
@testable import SitegenOutput
import Testing

/// Templates are checked against their page model when they load: a name that the model
/// does not declare is an error naming the file, line and column, never empty text.
@Suite("Template variables checked against page models")
struct TemplateCheckTests {
    struct TestPage: TemplateModel {
        var total: String
        var note: String?
        var open: Bool
        var rows: [Row]
        var meta: Meta?
        var noteHTML: String?
        var cards: [String] = []

        struct Row: TemplateModel {
            var name: String
            var tags: [String]

            static let fields = TemplateFields<Self>([.text("name", \.name), .texts("tags", \.tags)])
        }

        struct Meta: TemplateModel {
            var updated: String

            static let fields = TemplateFields<Self>([.text("updated", \.updated)])
        }

        static let fields = TemplateFields<Self>([
            .text("total", \.total), .text("note", \.note), .flag("open", \.open), .list("rows", \.rows), .object("meta", \.meta),
            .markup("noteHTML", \.noteHTML), .markupList("cards", \.cards),
        ])
    }

    static let root = TemplateRoot(template: "t", kind: "a test page", shape: TestPage.fields.shape)

    /// The error for `templates` (name → text) rendered from "t", as printed; nil when they pass.
    func problem(_ templates: [String: String]) throws -> String? {
        let parsed = try templates.mapValues { try MustacheParser.parse($0) }
        let check = TemplateCheck(templates: parsed, files: Dictionary(uniqueKeysWithValues: templates.keys.map { ($0, "Templates/\($0).mustache") }))
        do {
            try check.check(Self.root)
            return nil
        } catch {
            return Diagnostic(.error, file: error.file, line: error.line, column: error.column, message: error.message).description
        }
    }

    @Test("Names the model declares pass, wherever Mustache finds them", arguments: [
        "{{total}} {{{noteHTML}}} {{&noteHTML}} {{#noteHTML}}{{{noteHTML}}}{{/noteHTML}}",
        "{{#cards}}{{{.}}}{{/cards}}",
        // Outer names inside sections: the context stack.
        "{{#rows}}{{name}} of {{total}}{{#open}}{{name}}{{/open}}{{/rows}}",
        "{{#rows}}{{#tags}}{{.}} in {{name}}{{/tags}}{{/rows}}",
        // Optional values are tested with sections, and shown inside them.
        "{{#note}}<p>{{note}}</p>{{/note}}{{^note}}none{{/note}}",
        "{{#meta}}{{updated}}{{/meta}} {{meta.updated}} {{#rows}}{{meta.updated}}{{/rows}}",
        "{{^rows}}no rows{{/rows}} {{^open}}closed{{/open}}",
        "{{#rows}}{{.name}}{{/rows}}",
    ])
    func declaredNames(_ template: String) throws {
        #expect(try problem(["t": template]) == nil)
    }

    @Test("A misspelt or undeclared name is an error with its file, line, column and the closest declared name", arguments: [
        ("{{totl}}", "Templates/t.mustache:1:1: error: {{totl}}: no such variable on a test page (did you mean \"total\"?)"),
        ("<p>\n  {{{notes}}}", "Templates/t.mustache:2:3: error: {{{notes}}}: no such variable on a test page (did you mean \"note\"?)"),
        ("{{#rows}}\n{{nmae}}{{/rows}}", "Templates/t.mustache:2:1: error: {{nmae}}: no such variable in {{#rows}} or on a test page (did you mean \"name\"?)"),
        ("{{#rows}}{{#tags}}{{title}}{{/tags}}{{/rows}}", "Templates/t.mustache:1:19: error: {{title}}: no such variable in {{#rows}} or on a test page"),
        // Sections and inverted sections.
        ("{{#rws}}x{{/rws}}", "Templates/t.mustache:1:1: error: {{#rws}}: no such variable on a test page (did you mean \"rows\"?)"),
        ("ab {{^opne}}x{{/opne}}", "Templates/t.mustache:1:4: error: {{^opne}}: no such variable on a test page (did you mean \"open\"?)"),
        // Dotted names look inside the first part.
        ("{{meta.updatd}}", "Templates/t.mustache:1:1: error: {{meta.updatd}}: \"meta\" has no variable \"updatd\" (did you mean \"updated\"?)"),
        ("{{total.x}}", "Templates/t.mustache:1:1: error: {{total.x}}: \"total\" has no variables (it is text)"),
        ("{{mta.updated}}", "Templates/t.mustache:1:1: error: {{mta.updated}}: no such variable on a test page (did you mean \"meta\"?)"),
        // `.name` is the current item's only.
        ("{{#rows}}{{.total}}{{/rows}}", "Templates/t.mustache:1:10: error: {{.total}}: no such variable in {{#rows}}"),
        // A list or group is not text.
        ("{{rows}}", "Templates/t.mustache:1:1: error: {{rows}}: \"rows\" holds variables, not text: use {{#rows}}…{{/rows}}"),
        ("{{#meta}}{{.}}{{/meta}}", "Templates/t.mustache:1:10: error: {{.}}: the current item holds variables, not text"),
        // Only HTML sitegen made safe is written unescaped: a title with <img onerror=…> was not.
        ("<h1>{{{total}}}</h1>", "Templates/t.mustache:1:5: error: {{{total}}}: writes \"total\" without escaping, which only HTML that sitegen made safe (fields ending in HTML) may be; use {{total}}"),
        ("{{&note}}", "Templates/t.mustache:1:1: error: {{&note}}: writes \"note\" without escaping, which only HTML that sitegen made safe (fields ending in HTML) may be; use {{note}}"),
        ("{{#rows}}{{#tags}}{{{.}}}{{/tags}}{{/rows}}", "Templates/t.mustache:1:19: error: {{{.}}}: writes the current item without escaping, which only HTML that sitegen made safe (fields ending in HTML) may be; use {{.}}"),
        ("{{#meta}}{{{updated}}}{{/meta}}", "Templates/t.mustache:1:10: error: {{{updated}}}: writes \"updated\" without escaping, which only HTML that sitegen made safe (fields ending in HTML) may be; use {{updated}}"),
        // Custom delimiters: the position is the tag's own.
        ("{{=<% %>=}}\n <%totl%>", "Templates/t.mustache:2:2: error: {{totl}}: no such variable on a test page (did you mean \"total\"?)"),
    ])
    func undeclaredNames(_ template: String, _ message: String) throws {
        #expect(try problem(["t": template]) == message)
    }

    @Test("Partials are checked where they are included, and errors name the partial's file")
    func partials() throws {
        let row = "<li>\n  {{nam}}\n</li>\n"
        #expect(try problem(["t": "{{#rows}}\n{{>row}}\n{{/rows}}\n", "row": row])
            == "Templates/row.mustache:2:3: error: {{nam}}: no such variable in {{#rows}} or on a test page (did you mean \"name\"?)")
        // The same partial outside the section has no `name` in scope.
        #expect(try problem(["t": "{{#rows}}{{>row}}{{/rows}}", "row": "{{name}}"]) == nil)
        #expect(try problem(["t": "{{>row}}", "row": "{{name}}"])
            == "Templates/row.mustache:1:1: error: {{name}}: no such variable on a test page")
        // A partial that includes itself is checked once, not forever (loading refuses it
        // before the check: `cycles`).
        #expect(try problem(["t": "{{>row}}", "row": "{{total}}{{#rows}}{{>row}}{{/rows}}"]) == nil)
    }

    /// The error loading `templates` (name → text) as a templates folder gives, as printed.
    func loadProblem(_ templates: [String: String]) throws -> String? {
        let site = try TemporarySite()
        for (name, text) in templates { try site.write("Templates/\(name).mustache", text) }
        do {
            _ = try TemplateSet.load(from: site.root.appendingPathComponent("Templates"), required: [])
            return nil
        } catch {
            return error.description.replacingOccurrences(of: displayPath(site.root) + "/", with: "")
        }
    }

    @Test("A template that includes itself, directly or through others, is refused at its reference, not rendered forever")
    func cycles() throws {
        #expect(try loadProblem(["page": "<p>\n{{<page}}{{$main}}x{{/main}}{{/page}}\n"])
            == #"Templates/page.mustache:2:1: error: template "page" includes itself (page → page): it would never finish rendering"#)
        #expect(try loadProblem(["a": "{{>b}}", "b": "{{#rows}}{{>c}}{{/rows}}", "c": "x {{> a}}"])
            == #"Templates/c.mustache:1:3: error: template "c" includes itself (a → b → c → a): it would never finish rendering"#)
        #expect(try loadProblem(["a": "{{>b}}{{>c}}", "b": "{{>c}}", "c": "x"]) == nil)
    }

    @Test("Sections nested past 100 deep are a syntax error, not a stack overflow")
    func deepNesting() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "{{#open}}", count: depth) + "x" + String(repeating: "{{/open}}", count: depth)
        }
        #expect(try loadProblem(["t": nested(100)]) == nil)
        #expect(try loadProblem(["t": nested(101)])
            == "Templates/t.mustache:1:910: error: template syntax error: sections, parents and blocks nested more than 100 deep")
        #expect(try loadProblem(["t": nested(5000)])
            == "Templates/t.mustache:1:910: error: template syntax error: sections, parents and blocks nested more than 100 deep")
    }

    @Test("A parent layout is checked with the page's variables; a block's override is checked in the file that overrides it")
    func parents() throws {
        let layout = "<title>{{$title}}{{total}}{{/title}}</title>\n{{$main}}{{/main}}\n"
        #expect(try problem(["layout": layout, "t": "{{<layout}}\n{{$main}}\n<p>{{note}}</p>\n{{/main}}\n{{/layout}}\n"]) == nil)
        #expect(try problem(["layout": layout, "t": "{{<layout}}\n{{$main}}\n<p>{{noet}}</p>\n{{/main}}\n{{/layout}}\n"])
            == "Templates/t.mustache:3:4: error: {{noet}}: no such variable on a test page (did you mean \"note\"?)")
        #expect(try problem(["layout": "{{$main}}{{/main}}\n{{heading}}", "t": "{{<layout}}{{/layout}}"])
            == "Templates/layout.mustache:2:1: error: {{heading}}: no such variable on a test page")
        // A default block that the page overrides is not what renders, so it is not checked.
        #expect(try problem(["layout": "{{$main}}{{gone}}{{/main}}", "t": "{{<layout}}{{$main}}{{total}}{{/main}}{{/layout}}"]) == nil)
        // A block the parent does not have would show nothing: the page would be empty.
        #expect(try problem(["layout": layout, "t": "{{<layout}}\n  {{$mian}}<p>{{note}}</p>{{/mian}}\n{{/layout}}\n"])
            == "Templates/t.mustache:2:3: error: {{$mian}}: \"layout\" has no block \"mian\" to fill, so nothing here would be shown (did you mean \"main\"?)")
        #expect(try problem(["layout": "<main></main>", "t": "{{<layout}}{{$main}}{{total}}{{/main}}{{/layout}}"])
            == "Templates/t.mustache:1:12: error: {{$main}}: \"layout\" has no block \"main\" to fill, so nothing here would be shown")
        // Blocks inside the parent's sections and partials count.
        #expect(try problem(["layout": "{{#note}}{{>body}}{{/note}}", "body": "{{$main}}{{/main}}", "t": "{{<layout}}{{$main}}{{total}}{{/main}}{{/layout}}"]) == nil)
    }

    @Test("A model's context holds its present values only, and renders as declared")
    func context() {
        let page = TestPage(total: "3 rows", note: nil, open: true,
                            rows: [.init(name: "a", tags: ["x", "y"]), .init(name: "b", tags: [])], meta: .init(updated: "today"))
        let template = try! MustacheParser.parse("{{total}}|{{#note}}note{{/note}}{{^note}}no note{{/note}}|{{#open}}open{{/open}}|{{#rows}}{{name}}:{{#tags}}{{.}}{{/tags}};{{/rows}}|{{meta.updated}}")
        let rendered = String(decoding: MustacheRenderer(templates: ["t": template]).render("t", context: page.context), as: UTF8.self)
        #expect(rendered == "3 rows|no note|open|a:xy;b:;|today")
        #expect(page.context.keys.sorted() == ["cards", "meta", "open", "rows", "total"])
        // A list of models is made into contexts one item at a time, as it renders; an empty
        // one renders an inverted section, as an empty array does.
        let list = try! MustacheParser.parse("{{#rows}}{{name}};{{/rows}}{{^rows}}none{{/rows}}")
        let empty = TestPage(total: "", note: nil, open: false, rows: [], meta: .init(updated: ""))
        let renderer = MustacheRenderer(templates: ["t": list])
        #expect(page.context["rows"] is ContextList)
        #expect(String(decoding: renderer.render("t", context: page.context), as: UTF8.self) == "a;b;")
        #expect(String(decoding: renderer.render("t", context: empty.context), as: UTF8.self) == "none")
    }

    @Test("A long list is passed on a megabyte at a time as it renders, the same bytes; never inside an indented partial")
    func streamed() throws {
        let page = TestPage(total: "many", note: nil, open: true,
                            rows: (0..<40_000).map { .init(name: "row \($0) <\(String(repeating: "x", count: 30))>", tags: ["a", "b"]) },
                            meta: .init(updated: "today"))
        let templates = [
            "flat": try MustacheParser.parse("<ul>\n{{#rows}}<li>{{name}}{{#tags}} {{.}}{{/tags}}</li>\n{{/rows}}</ul>{{meta.updated}}\n"),
            "indented": try MustacheParser.parse("<ul>\n  {{>row}}\n</ul>\n"),
            "row": try MustacheParser.parse("{{#rows}}<li>\n{{name}}\n</li>\n{{/rows}}"),
        ]
        let renderer = MustacheRenderer(templates: templates)
        for name in ["flat", "indented"] {
            let whole = renderer.render(name, context: page.context)
            #expect(whole.count > 2 << 20)
            var chunks: [[UInt8]] = []
            var output: [UInt8] = []
            renderer.render(name, context: page.context, into: &output) { output in
                chunks.append(output)
                output.removeAll()
            }
            #expect(Array(chunks.joined()) + output == whole)
            if name == "flat" {
                #expect(chunks.count >= 2 && chunks.allSatisfy { $0.count >= 1 << 20 && $0.count < (1 << 20) + 100 })
            } else {
                // Every line of the partial is indented as it is written, so nothing goes on early.
                #expect(chunks.isEmpty)
            }
        }
        // Through a template set into a file's chunks: the same bytes as rendered whole.
        let set = TemplateSet(renderer: renderer, names: ["flat"], folder: URL(fileURLWithPath: "/"), engine: nil)
        var chunks: [[UInt8]] = []
        var file = StreamedFile { chunks.append($0) }
        try set.render("flat", page.context, into: &file)
        let written = try file.finish()
        #expect(Array(chunks.joined()) == renderer.render("flat", context: page.context))
        #expect(written.size == chunks.map(\.count).reduce(0, +) && chunks.count >= 3)
    }

    @Test("Every template of Templates/ passes the check against its page model")
    func shippedTemplates() throws {
        let templates = try TemplateSet.load(from: Repository.root.appendingPathComponent("Templates"), required: SitePlan.requiredTemplates)
        #expect(templates.names.isSuperset(of: SitePlan.requiredTemplates.map(\.template)))
    }
}
