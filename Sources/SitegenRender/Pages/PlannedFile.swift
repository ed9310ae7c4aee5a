import Foundation

/// A file of the site and how to make its bytes. Making is deferred so that pages are
/// rendered in parallel and released as soon as they are written.
public struct PlannedFile: Sendable {
    /// Path inside the output folder, e.g. "polls/X7K9M2/index.html".
    public let path: String
    public let make: @Sendable (RenderKit) -> [UInt8]

    public init(path: String, make: @escaping @Sendable (RenderKit) -> [UInt8]) {
        self.path = path
        self.make = make
    }
}
