/// The model of a page: the template that renders it inside `layout`, and the variables
/// that template may use (its fields, and the layout's under `layout.`).
protocol PageModel: TemplateModel {
    /// "poll" for `Templates/poll.mustache`.
    static var template: String { get }
    /// What the page is, in template errors: "no such variable on a poll page".
    static var kind: String { get }
}

/// A model whose template is rendered on its own, outside any page.
protocol RenderedAlone: TemplateModel {
    static var template: String { get }
    static var kind: String { get }
}

extension TemplateRoot {
    /// A page's template, rendered with the page's variables and the layout's.
    static func page<Page: PageModel>(_: Page.Type) -> TemplateRoot {
        var variables = Page.fields.shape.variables
        variables["layout"] = .object(PageLayout.fields.shape, optional: false)
        return TemplateRoot(template: Page.template, kind: Page.kind, shape: ContextShape(variables: variables))
    }

    static func alone<Model: RenderedAlone>(_: Model.Type) -> TemplateRoot {
        TemplateRoot(template: Model.template, kind: Model.kind, shape: Model.fields.shape)
    }
}

/// The variables of `layout.mustache`, under `layout.` on every page (RenderKit.layout).
struct PageLayout: TemplateModel {
    var lang: String
    /// "Poll title · Site title"; the site title alone on the home page.
    var fullTitle: String
    var title: String
    var siteTitle: String
    var description: String
    var ogType: String
    var noindex: Bool
    var stylesheet: String
    var homeHref: String
    var navigation: [TabLink]
    var generator: String
    /// The page's absolute URL, with baseURL.
    var canonical: String?
    /// The link-preview image.
    var image: Image?

    struct Image: TemplateModel {
        var url: String
        var alt: String
        var width: Int
        var height: Int

        static let fields = TemplateFields<Self>([
            .text("url", \.url), .text("alt", \.alt), .number("width", \.width), .number("height", \.height),
        ])
    }

    static let fields = TemplateFields<Self>([
        .text("lang", \.lang),
        .text("fullTitle", \.fullTitle),
        .text("title", \.title),
        .text("siteTitle", \.siteTitle),
        .text("description", \.description),
        .text("ogType", \.ogType),
        .flag("noindex", \.noindex),
        .text("stylesheet", \.stylesheet),
        .text("homeHref", \.homeHref),
        .list("navigation", \.navigation),
        .text("generator", \.generator),
        .text("canonical", \.canonical),
        .object("image", \.image),
    ])
}

/// A link with its text: "Back to the poll results", a poll's "Browse these trips by" links.
struct TextLink: TemplateModel {
    var label: String
    var href: String

    static let fields = TemplateFields<Self>([.text("label", \.label), .text("href", \.href)])
}

/// A link among others, one of which is the page itself: the site navigation, view tabs.
struct TabLink: TemplateModel {
    var label: String
    var href: String
    var current: Bool

    static let fields = TemplateFields<Self>([.text("label", \.label), .text("href", \.href), .flag("current", \.current)])
}
