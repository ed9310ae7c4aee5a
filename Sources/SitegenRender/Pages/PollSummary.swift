import Foundation
import SitegenCore
import SitegenModel

/// A published poll as the rest of the site sees it once its own files are written: the
/// home page's row, and what the build checks across polls.
public struct PollSummary: Sendable {
    public let id: UUID
    public let shareCode: ShareCode
    public let title: String
    public let source: SourceRef
    public let modifiedAt: Date
    /// Its trips' ids: UUIDs, 16 bytes each where their text took a string of 36.
    public let tripIds: [UUID]
    public let path: String
    public let voters: Int
    public let updatedAt: Date
    public let leaderLine: String

    /// A summary kept by the last build (PollFileCache).
    package init(id: UUID, shareCode: ShareCode, title: String, source: SourceRef, modifiedAt: Date, tripIds: [UUID],
                 path: String, voters: Int, updatedAt: Date, leaderLine: String) {
        self.id = id
        self.shareCode = shareCode
        self.title = title
        self.source = source
        self.modifiedAt = modifiedAt
        self.tripIds = tripIds
        self.path = path
        self.voters = voters
        self.updatedAt = updatedAt
        self.leaderLine = leaderLine
    }

    package init(_ published: PublishedPoll) {
        let poll = published.poll
        id = poll.id
        shareCode = poll.shareCode
        title = poll.title
        source = poll.source
        modifiedAt = poll.modifiedAt
        tripIds = poll.trips.map(\.id)
        path = published.path
        voters = published.results.voters
        updatedAt = published.results.updatedAt
        leaderLine = published.leaderLine
    }
}
