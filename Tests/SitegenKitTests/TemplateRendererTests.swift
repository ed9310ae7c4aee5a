import Foundation
import Mustache
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenRender
import Testing

/// sitegen's Mustache renderer against swift-mustache 2.1.1, the implementation it replaced
/// for speed: same templates and contexts, same bytes.
@Suite("Template renderer")
struct TemplateRendererTests {
    /// Renders `templates` (name → text) with both implementations.
    func renderBoth(_ templates: [String: String], _ name: String, _ context: [String: Any]) throws -> (ours: String, reference: String) {
        var parsed: [String: [TemplateNode]] = [:]
        let library = MustacheLibrary()
        var reference = library
        for (templateName, text) in templates {
            parsed[templateName] = try MustacheParser.parse(text)
            reference.register(try MustacheTemplate(string: text), named: templateName)
        }
        let ours = String(decoding: MustacheRenderer(templates: parsed).render(name, context: context), as: UTF8.self)
        return (ours, reference.render(context, withTemplate: name) ?? "<missing>")
    }

    static let whitespaceCases: [(String, [String: String])] = [
        ("standalone sections", ["t": "<ul>\n  {{#items}}\n  <li>{{name}}</li>\n  {{/items}}\n</ul>\n{{^items}}none{{/items}}\n"]),
        ("inline sections and inverted sections", ["t": "a {{#flag}}yes{{/flag}}{{^flag}}no{{/flag}} b\n  {{#missing}}x{{/missing}}  \n"]),
        ("indented standalone partial", ["t": "<ol>\n    {{#items}}\n    {{>entry}}\n    {{/items}}\n</ol>\n",
                                         "entry": "<li>\n  {{name}}\n  {{#flag}}\n  <b>on</b>\n  {{/flag}}\n</li>\n"]),
        ("nested indented partials", ["t": "  {{>a}}\n", "a": "A\n  {{>b}}\nA\n", "b": "B1\nB2\n"]),
        ("inline partial", ["t": "x {{>p}} y\n", "p": "P\nQ"]),
        ("parent with blocks", ["layout": "<html>\n<title>{{$title}}Default{{/title}}</title>\n<main>\n{{$main}}{{/main}}\n</main>\n</html>\n",
                                "page": "{{<layout}}\n{{$main}}\n<p>{{name}}</p>\n  {{$inner}}in{{/inner}}\n{{/main}}\n{{/layout}}\n"]),
        ("overrides from two levels", ["base": "[{{$a}}base a{{/a}}|{{$b}}base b{{/b}}]\n",
                                       "middle": "{{<base}}{{$a}}middle a{{/a}}{{$b}}middle b{{/b}}{{/base}}",
                                       "page": "{{<middle}}{{$a}}page a{{/a}}{{/middle}}"]),
        ("comments, delimiters and dotted names", ["t": "{{! a comment }}\n{{=<% %>=}}\n<%layout.title%> <%#items%><%.%>,<%/items%>\n<%={{ }}=%>\n{{.missing.x}}{{layout.title}}\n"]),
        ("CRLF lines and an indented partial", ["t": "a\r\n  {{>p}}\r\nb\r\n", "p": "1\r\n2\r\n"]),
        ("stack lookups", ["t": "{{#items}}{{name}}/{{title}}/{{.name}}/{{.title}};{{/items}}\n"]),
        ("values", ["t": "{{count}} {{flag}} {{{html}}} {{&html}} {{html}} {{#count}}[{{.}}]{{/count}}\n  trailing"]),
    ]

    static var context: [String: Any] { [
        "title": "Top <title>",
        "layout": ["title": "Layout & \"title\""] as [String: Any],
        "items": [["name": "one"], ["name": "<two>", "flag": true], ["name": "it's"]] as [[String: Any]],
        "count": 3,
        "flag": false,
        "name": "outer",
        "html": "<b>bold</b> & 'quotes'",
    ] }

    @Test("Whitespace, partials, parents, delimiters and values render exactly as in swift-mustache", arguments: 0..<whitespaceCases.count)
    func sameAsReference(_ index: Int) throws {
        let (label, templates) = Self.whitespaceCases[index]
        let start = templates["t"] != nil ? "t" : "page"
        let (ours, reference) = try renderBoth(templates, start, Self.context)
        #expect(ours == reference, "\(label)")
    }

    @Test("Exact output of an indented partial inside a section")
    func indentedPartial() throws {
        let (ours, _) = try renderBoth(Self.whitespaceCases[2].1, "t", Self.context)
        #expect(ours == "<ol>\n    <li>\n      one\n    </li>\n    <li>\n      &lt;two&gt;\n      <b>on</b>\n    </li>\n    <li>\n      it&#39;s\n    </li>\n</ol>\n")
    }

    @Test("Escaping covers & < > \" ' even when a combining mark follows (swift-mustache leaves `\"\u{301}` raw)")
    func escaping() throws {
        #expect(HTMLEscaping.escaped("a&b<c>d\"e'f é 😀") == "a&amp;b&lt;c&gt;d&quot;e&#39;f é 😀")
        let (ours, reference) = try renderBoth(["t": "<a title=\"{{v}}\">"], "t", ["v": "x\"\u{301} onmouseover=y"])
        #expect(ours == "<a title=\"x&quot;\u{301} onmouseover=y\">")
        #expect(reference == "<a title=\"x\"\u{301} onmouseover=y\">")
    }

    @Test("Syntax errors name the line and column", arguments: [
        // At the tag left open, not at the end of the file.
        ("a\n{{#x}}\nb", "{{#x}} is never closed", 2, 1),
        ("{{#a}}\n  {{#b}}{{/b}}\n\n\nend", "{{#a}} is never closed", 1, 1),
        ("x\n  {{#a}}{{#b}}{{/a}}", "{{/a}} closes {{#b}}", 2, 18),
        ("{{#x}}{{/y}}", "{{/y}} closes {{#x}}", 1, 10),
        ("line\n  {{name", "unfinished tag: expected a name and \"}}\"", 2, 5),
        ("{{f(x)}}", "transforms such as {{f(…)}} are not supported", 1, 4),
        ("{{>*dyn}}", "dynamic partials ({{>*name}}) are not supported", 1, 4),
        ("{{% CONTENT_TYPE: TEXT}}", "pragmas ({{% …}}) are not supported", 1, 3),
        ("{{<layout}}{{x}}{{/layout}}", "only {{$block}} overrides may appear inside {{<layout}}", 1, 28),
    ])
    func syntaxErrors(_ text: String, _ message: String, _ line: Int, _ column: Int) {
        #expect(throws: MustacheSyntaxError(message: message, line: line, column: column)) { try MustacheParser.parse(text) }
    }

    /// A context with each list of models (ContextList, made one item at a time by sitegen's
    /// renderer) made whole, as swift-mustache reads lists.
    static func materialized(_ value: Any) -> Any {
        switch value {
        case let list as ContextList: (0..<list.count).map { materialized(list[$0]) }
        case let dictionary as [String: Any]: dictionary.mapValues(materialized)
        case let array as [Any]: array.map(materialized)
        default: value
        }
    }

    /// Builds a site with sitegen's renderer and again with swift-mustache; every file must match.
    func compareBuilds(of site: TemporarySite) throws {
        let templatesFolder = site.root.appendingPathComponent("Templates")
        var reference = MustacheLibrary()
        let enumerator = FileManager.default.enumerator(atPath: templatesFolder.path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".mustache") else { continue }
            let text = try String(contentsOf: templatesFolder.appendingPathComponent(path), encoding: .utf8)
            reference.register(try MustacheTemplate(string: text), named: String(path.dropLast(".mustache".count)))
        }
        let library = reference
        var trees: [[String: Data]] = []
        for engine in [nil, { @Sendable name, context in
            Array(library.render(Self.materialized(context), withTemplate: name)!.utf8)
        } as TemplateSet.Engine] {
            var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
            options.output = site.root.appendingPathComponent(engine == nil ? "ours" : "reference")
            options.environment = ["SOURCE_DATE_EPOCH": "1781291100"]
            options.templateEngine = engine
            _ = try SiteBuilder(options: options, log: DiagnosticLog()).run()
            trees.append(try fileTree(options.output!))
        }
        #expect(trees[0].count > 10)
        #expect(Set(trees[0].keys) == Set(trees[1].keys))
        for path in trees[0].keys.sorted() where trees[0][path] != trees[1][path] {
            Issue.record("\(path) differs between sitegen's renderer and swift-mustache")
        }
    }

    @Test("Every file of the sample site is byte-identical with swift-mustache")
    func sampleSite() throws {
        let site = try TemporarySite()
        for name in ["site.yml", "Data", "Pages"] {
            try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(name), to: site.root.appendingPathComponent(name))
        }
        try site.copyTemplates()
        try compareBuilds(of: site)
    }

    @Test("Every file of the hostile site (payloads in every free-text field) is byte-identical with swift-mustache")
    func hostileSite() throws {
        let site = try TemporarySite()
        let maker = Process()
        maker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        maker.arguments = ["python3", Repository.root.appendingPathComponent("scripts/make-hostile-site.py").path, site.root.path]
        try maker.run()
        maker.waitUntilExit()
        #expect(maker.terminationStatus == 0)
        if !FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Templates").path) {
            try site.copyTemplates()
        }
        try compareBuilds(of: site)
    }
}
