import Foundation
import SitegenCore

/// A set of candidate trips from the planner, in its recommended order (docs/exports.md, "Trip-option sets"),
/// published at `/options/SLUG/`.
public struct TripOptionSet: Sendable, Equatable {
    /// The export's own id, when it has one; the slug is derived from it.
    public var id: String?
    public var title: String
    public var generatedAt: Date?
    /// In the planner's recommended order.
    public var trips: [Trip]
    /// The URL segment; see `OptionSetSlug`.
    public var slug: String
    public var source: SourceRef
    /// The value the slug was made from (the id, else the title): a clash of addresses is
    /// reported there.
    public var addressLocation: ExportLocation
    /// Found while decoding (an id published at another address); `OptionSetSlug.report` logs them.
    public var warnings: [Diagnostic]

    package init(id: String?, title: String, generatedAt: Date?, trips: [Trip], slug: String, source: SourceRef,
                 addressLocation: ExportLocation, warnings: [Diagnostic] = []) {
        self.id = id
        self.title = title
        self.generatedAt = generatedAt
        self.trips = trips
        self.slug = slug
        self.source = source
        self.addressLocation = addressLocation
        self.warnings = warnings
    }

    public var path: String { "options/\(slug)/" }
}
