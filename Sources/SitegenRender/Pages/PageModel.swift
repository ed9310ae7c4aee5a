/// The model of a page: the template that renders it inside `layout`, and the variables
/// that template may use (its fields, and the layout's under `layout.`).
package protocol PageModel: TemplateModel {
    /// "poll" for `Templates/poll.mustache`.
    static var template: String { get }
    /// What the page is, in template errors: "no such variable on a poll page".
    static var kind: String { get }
}

/// A model whose template is rendered on its own, outside any page.
package protocol RenderedAlone: TemplateModel {
    static var template: String { get }
    static var kind: String { get }
}

extension TemplateRoot {
    /// A page's template, rendered with the page's variables and the layout's.
    package static func page<Page: PageModel>(_: Page.Type) -> TemplateRoot {
        var variables = Page.fields.shape.variables
        variables["layout"] = .object(PageLayout.fields.shape, optional: false)
        return TemplateRoot(template: Page.template, kind: Page.kind, shape: ContextShape(variables: variables))
    }

    package static func alone<Model: RenderedAlone>(_: Model.Type) -> TemplateRoot {
        TemplateRoot(template: Model.template, kind: Model.kind, shape: Model.fields.shape)
    }
}

/// The variables of `layout.mustache`, under `layout.` on every page (RenderKit.layout).
package struct PageLayout: TemplateModel {
    package var lang: String
    /// "Poll title · Site title"; the site title alone on the home page. Like `title`,
    /// `siteName`, `description` and the image's `alt`, plain text for metadata: written
    /// without direction isolates (docs/pages.md, "Right-to-left text").
    package var fullTitle: String
    package var title: String
    /// The site's title on the page (isolated where it needs to be, as every `.text`).
    package var siteTitle: String
    /// The site's title for `og:site_name`.
    package var siteName: String
    /// At most `descriptionLimit` characters (`shortened`).
    package var description: String
    package var ogType: String
    package var noindex: Bool
    package var stylesheet: String
    /// The stylesheet in a `<style>` element, on a page that carries it (PageMeta.inlineStylesheet).
    package var inlineStyleHTML: String?
    package var homeHref: String
    package var navigation: [TabLink]
    package var generator: String
    /// The page's absolute URL, with baseURL.
    package var canonical: String?
    /// The link-preview image.
    package var image: Image?

    /// What X documents for a card's description and an image's alt text; chat apps show
    /// less. Search engines show about 160 characters of a description.
    package static let descriptionLimit = 200, altLimit = 420

    package struct Image: TemplateModel {
        package var url: String
        package var alt: String
        package var width: Int
        package var height: Int

        package static let fields = TemplateFields<Self>([
            .link("url", \.url), .plain("alt", \.alt), .number("width", \.width), .number("height", \.height),
        ])
    }

    package static let fields = TemplateFields<Self>([
        .text("lang", \.lang),
        .plain("fullTitle", \.fullTitle),
        .plain("title", \.title),
        .text("siteTitle", \.siteTitle),
        .plain("siteName", \.siteName),
        .plain("description", \.description),
        .text("ogType", \.ogType),
        .flag("noindex", \.noindex),
        .link("stylesheet", \.stylesheet),
        .markup("inlineStyleHTML", \.inlineStyleHTML),
        .link("homeHref", \.homeHref),
        .list("navigation", \.navigation),
        .text("generator", \.generator),
        .link("canonical", \.canonical),
        .object("image", \.image),
    ])
}

/// A link with its text: "Back to the poll results", a poll's "Browse these trips by" links.
package struct TextLink: TemplateModel {
    package var label: String
    package var href: String

    package static let fields = TemplateFields<Self>([.text("label", \.label), .link("href", \.href)])
}

/// A link among others, one of which is the page itself: the site navigation, view tabs.
package struct TabLink: TemplateModel {
    package var label: String
    package var href: String
    package var current: Bool

    package static let fields = TemplateFields<Self>([.text("label", \.label), .link("href", \.href), .flag("current", \.current)])
}
