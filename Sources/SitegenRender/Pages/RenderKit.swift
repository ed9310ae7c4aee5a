import Foundation
import SitegenCore
import SitegenInput
import SitegenOutput

/// What every page of the layout needs to know.
public struct PageMeta: Sendable {
    /// The page's path ("" for home, "polls/ABC/", "404.html").
    public var path: String
    /// Shown in <title> before the site title, and as the page heading by templates.
    public var title: String
    /// Plain text for <meta name=description> and link previews.
    public var description: String
    public var ogType = "website"
    /// Unlisted pages carry noindex (listPolls: false).
    public var noindex = false
    /// For pages served at unknown depths (404): links are absolute when baseURL is set, else
    /// from the root of the domain (`SiteLinks.rooted`); relative only with `urls: files`.
    public var absoluteLinks = false
    /// The link-preview image (PreviewPages); nil: a small text-only preview.
    public var image: PageImage?
    /// The stylesheet itself, for a page written into a `<style>` element rather than linked
    /// (404.html: a host serves it at addresses where a link may lead nowhere).
    public var inlineStylesheet: String?

    public init(path: String, title: String, description: String) {
        self.path = path
        self.title = title
        self.description = description
    }
}

/// The shared, read-only tools a render worker uses.
public struct RenderKit: Sendable {
    public let config: SiteConfig
    public let templates: TemplateSet
    public let links: SiteLinks
    public let format: Formatting
    /// The build time (docs/pages.md, "manifest.json"), known once every poll has been read: nil while polls
    /// stream through the build, whose pages must not depend on it.
    public let buildTime: Date?
    public let navigation: [NavigationItem]

    package init(config: SiteConfig, templates: TemplateSet, links: SiteLinks, format: Formatting, buildTime: Date?, navigation: [NavigationItem]) {
        self.config = config
        self.templates = templates
        self.links = links
        self.format = format
        self.buildTime = buildTime
        self.navigation = navigation
    }

    /// Markdown from the inputs as HTML, its links to folders made to work from disk with
    /// `urls: files`, its headings placed below the page's heading of level `below` that it
    /// sits under in the default templates (docs/templates.md, "Markdown").
    package func markdown(_ text: String, below: Int) -> String {
        MarkdownRenderer.html(text, indexLinks: config.urls == .files, headingsBelow: below)
    }

    public struct NavigationItem: Sendable {
        public let label: String
        public let path: String
    }

    /// Renders the page's template inside the layout, adding the layout's variables.
    package func page<Page: PageModel>(_ page: Page, meta: PageMeta) -> [UInt8] {
        var context = page.context
        context["layout"] = layout(meta).context
        return templates.renderBytes(Page.template, context)
    }

    /// The same page written to `sink` as it renders (TemplateSet's `render(_:_:into:)`).
    package func page<Page: PageModel, Sink: ByteSink>(_ page: Page, meta: PageMeta, into sink: inout Sink) throws {
        var context = page.context
        context["layout"] = layout(meta).context
        try templates.render(Page.template, context, into: &sink)
    }

    /// Renders a partial on its own (a trip card, rendered once and reused by every view).
    package func render<Model: RenderedAlone>(_ model: Model) -> String {
        templates.render(Model.template, model.context)
    }

    package func layout(_ meta: PageMeta) -> PageLayout {
        let file = SiteLinks.file(for: meta.path)
        let link: (String) -> String = { target in
            if meta.absoluteLinks, let absolute = links.absolute(target) ?? links.rooted(target) { return absolute }
            return links.href(target, from: file)
        }
        return PageLayout(
            lang: config.language,
            fullTitle: meta.path.isEmpty ? config.title : "\(meta.title) · \(config.title)",
            title: meta.title,
            siteTitle: config.title,
            siteName: config.title,
            description: shortened(BidiIsolation.plain(meta.description), toAtMost: PageLayout.descriptionLimit),
            ogType: meta.ogType,
            noindex: meta.noindex,
            stylesheet: link("assets/site.css"),
            inlineStyleHTML: meta.inlineStylesheet.map { "<style>\n\($0)</style>" },
            homeHref: link(""),
            navigation: navigation.map { TabLink(label: $0.label, href: link($0.path), current: $0.path == meta.path) },
            generator: "sitegen \(SitegenVersion.current)",
            canonical: meta.absoluteLinks ? nil : links.absolute(meta.path),
            image: meta.image.map { image in
                PageLayout.Image(url: links.absolute(image.path) ?? link(image.path), alt: shortened(BidiIsolation.plain(image.alt), toAtMost: PageLayout.altLimit),
                                 width: image.width, height: image.height)
            })
    }

    /// For files rendered after the polls (calendars): the build time.
    package var requiredBuildTime: Date {
        guard let buildTime else { preconditionFailure("the build time is not known while polls are written") }
        return buildTime
    }

    /// A relative link from the page at `path` to `target`.
    public func href(_ target: String, from path: String) -> String {
        links.href(target, from: SiteLinks.file(for: path))
    }
}
