import Foundation
import SitegenOutput

/// A file of the site and how to make its bytes. Making is deferred so that pages are
/// rendered in parallel and released as soon as they are written.
public struct PlannedFile: Sendable {
    /// Path inside the output folder, e.g. "polls/X7K9M2/index.html".
    public let path: String
    public let make: @Sendable (RenderKit) -> [UInt8]
    /// A digest of everything the bytes depend on besides what every page does (sitegen,
    /// site.yml, templates, assets: BuildFingerprint.siteContext). A file whose key the last
    /// build had is kept as it is, not rendered (RenderStage). nil: rendered every build.
    package var key: String?
    /// The bytes also hold the build time (a calendar's DTSTAMP), so the key is combined with it.
    package var readsBuildTime = false

    /// The same bytes written as they are made, for a page too large to hold whole (the
    /// home page of a large site): RenderStage writes it with `SiteOutput.writePageStreamed`.
    package var stream: (@Sendable (RenderKit, inout StreamedFile) throws -> Void)?

    public init(path: String, make: @escaping @Sendable (RenderKit) -> [UInt8]) {
        self.path = path
        self.make = make
    }
}
