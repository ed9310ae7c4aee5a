import Foundation
import SitegenCore

/// `/polls/CODE/preview.png` and `/trips/ID/preview.png`, and the link-preview image their
/// pages name (docs/pages.md, "Link previews"). `previews: false` in site.yml plans neither.
package enum PreviewPages {
    package static let fileName = "preview.png"

    package static func pollFile(_ published: PublishedPoll) -> PlannedFile {
        PlannedFile(path: published.path + fileName) { kit in
            PreviewImage.png(PreviewCard.poll(published, siteTitle: kit.config.title))
        }
    }

    package static func tripFile(_ published: PublishedItinerary) -> PlannedFile {
        PlannedFile(path: published.path + fileName) { kit in
            PreviewImage.png(PreviewCard.trip(published.trip, siteTitle: kit.config.title, format: kit.format))
        }
    }

    /// The poll page's image, described by what its card says.
    package static func pollImage(_ published: PublishedPoll, kit: RenderKit) -> PageImage? {
        guard kit.config.previews else { return nil }
        return PageImage(path: published.path + fileName, alt: PreviewCard.poll(published, siteTitle: kit.config.title).altText)
    }

    /// An itinerary's own card; a poll's trip page shows its poll's card, the link people
    /// share being the poll's (drawing a card for each of a poll's trips would multiply the
    /// cost of previews by the trips of every poll).
    package static func itineraryImage(_ published: PublishedItinerary, kit: RenderKit) -> PageImage? {
        guard kit.config.previews else { return nil }
        switch published.origin {
        case .itinerary:
            return PageImage(path: published.path + fileName,
                             alt: PreviewCard.trip(published.trip, siteTitle: kit.config.title, format: kit.format).altText)
        case .poll(let title, let path, _, _):
            return PageImage(path: path + fileName, alt: sentence("The standings of the poll \(title)"))
        }
    }
}

/// A page's link-preview image (`og:image`): a file of the site and its text equivalent.
public struct PageImage: Sendable, Equatable {
    public var path: String
    public var alt: String
    public var width = PreviewCard.width
    public var height = PreviewCard.height
}
