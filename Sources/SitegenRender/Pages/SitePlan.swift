import Foundation
import SitegenInput
import SitegenModel

/// Everything computed from the inputs, before any page is rendered.
public struct SiteModel: Sendable {
    public struct Asset: Sendable {
        public let name: String
        public let bytes: [UInt8]

        package init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    public var config: SiteConfig
    /// The featured tips and the catalog.
    public var tips: PublishedTips
    /// In share-code order. Their own files are written as they stream through the build
    /// (PollStream); the rest of the site needs only these summaries.
    public var polls: [PollSummary] = []
    /// Files copied from `Templates/assets/`.
    public var assets: [Asset] = []
    /// By status, title, then id (ConvoyPages.sorted).
    public var convoys: [Convoy] = []
    /// Trip-option sets, in file order.
    public var optionSets: [TripOptionSet] = []
    /// Itinerary exports, laid out day by day; by path.
    public var itineraries: [PublishedItinerary] = []
    /// Markdown pages of the `pages` folder, by slug.
    public var pages: [MarkdownPage] = []

    package init(config: SiteConfig, tips: PublishedTips, polls: [PollSummary] = [], assets: [Asset] = [], convoys: [Convoy] = [], optionSets: [TripOptionSet] = [], itineraries: [PublishedItinerary] = [], pages: [MarkdownPage] = []) {
        self.config = config
        self.tips = tips
        self.polls = polls
        self.assets = assets
        self.convoys = convoys
        self.optionSets = optionSets
        self.itineraries = itineraries
        self.pages = pages
    }
}

/// Decides every file of the site: path → how to make it. Each concern adds its pages here.
public enum SitePlan {
    /// The templates the site renders, each with its model's variables: TemplateSet checks
    /// every tag against them when it loads, whether or not this site has such a page.
    public static let requiredTemplates: [TemplateRoot] = [
        .page(HomePageModel.self), .page(PollPageModel.self), .page(ItineraryPageModel.self),
        .page(TripViewsPageModel.self), .alone(OptionCard.self), .page(ConvoyPageModel.self),
        .page(TipsPageModel.self), .page(MarkdownPageModel.self), .page(NotFoundPageModel.self),
    ]

    /// Every file but the polls' own (see PollStream) and the sitemap (see Sitemap), which
    /// are written as the build goes.
    public static func files(for site: SiteModel) -> [PlannedFile] {
        var files: [PlannedFile] = [HomePage.file(site: site), TipsPages.file(site.tips)]
        files += site.itineraries.flatMap { ItineraryPages.files(for: $0, previews: site.config.previews) }
        files += site.convoys.flatMap(ConvoyPages.files(for:))
        files += site.pages.map(MarkdownPages.file(for:))
        files += OptionPages.files(site: site, plannedPaths: Set(files.map(\.path)))
        files += SupportFiles.files(site: site)
        return files
    }

    public static func navigation(pages: [MarkdownPage]) -> [RenderKit.NavigationItem] {
        [RenderKit.NavigationItem(label: "Home", path: ""),
         RenderKit.NavigationItem(label: "Tips", path: TipsPages.path)]
            + MarkdownPages.navigation(pages)
    }
}
