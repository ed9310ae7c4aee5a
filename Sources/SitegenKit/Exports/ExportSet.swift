import Foundation

/// Every export of the site except the polls, decoded and checked against each other.
/// Polls stream through the build one export file at a time (`PollStream`); only their
/// files are listed here.
public struct ExportSet: Sendable {
    public var votes: [Vote]
    /// The poll export files, in order.
    public var pollFiles: [URL] = []
    /// In file order; see ConvoyPages.sorted for the order pages list them in.
    public var convoys: [Convoy] = []
    /// Trip-option sets with settled slugs, in file order.
    public var optionSets: [TripOptionSet] = []
    /// Itinerary exports, the game catalog and custom items (embedded ones included).
    public var itineraries: [Itinerary] = []
    public var games: [Game] = []
    public var customItems: [CustomItem] = []

    public static func loader(config: SiteConfig, log: DiagnosticLog) -> ExportLoader {
        let decoder = ExportDecoder(dates: ExportDateReader(timeZone: config.timeZone, numericDates: config.numericDates))
        return ExportLoader(siteFolder: config.folder, decoder: decoder, log: log)
    }

    public static func load(config: SiteConfig, log: DiagnosticLog) -> ExportSet {
        let loader = loader(config: config, log: log)
        let votes = loader.load(config.inputs.votes) { (decoder, field, source) throws(FieldError) in try decoder.vote(field, source: source) }
        var set = ExportSet(votes: votes.records)
        set.pollFiles = ExportLoader.jsonFiles(below: config.inputs.polls, log: log)
        let convoys = loader.load(config.inputs.convoys) { (decoder, field, source) throws(FieldError) in try decoder.convoy(field, source: source) }
        set.convoys = convoys.records
        ConvoyChecks.report(set.convoys, log: log)
        let optionSets = loader.load(config.inputs.options) { (decoder, field, source) throws(FieldError) in try decoder.optionSet(field, source: source) }
        set.optionSets = OptionSetSlug.settle(optionSets.records, log: log)
        let itineraries = loader.load(config.inputs.trips) { (decoder, field, source) throws(FieldError) in try decoder.itinerary(field, source: source) }
        let games = loader.load(config.inputs.games) { (decoder, field, source) throws(FieldError) in try decoder.game(field, source: source) }
        let items = loader.load(config.inputs.items) { (decoder, field, source) throws(FieldError) in try decoder.customItem(field, source: source) }
        set.itineraries = itineraries.records
        set.games = games.records + itineraries.records.flatMap(\.games)
        set.customItems = items.records + itineraries.records.flatMap(\.customItems)
        return set
    }

    /// Two polls with the same share code or id are an error; every clash is reported.
    public static func checkUniqueness(_ polls: [PollSummary], log: DiagnosticLog) {
        for (code, group) in Dictionary(grouping: polls, by: \.shareCode) where group.count > 1 {
            for poll in group.dropFirst() {
                log.add(poll.source.diagnostic(.error, field: "shareCode",
                    "share code \(code) is also used by \"\(group[0].title)\" (\(group[0].source.file):\(group[0].source.line))"))
            }
        }
        for (id, group) in Dictionary(grouping: polls, by: \.id) where group.count > 1 {
            for poll in group.dropFirst() {
                log.add(poll.source.diagnostic(.error, field: "id",
                    "poll id \(id.uuidString) is also used by \"\(group[0].title)\" (\(group[0].source.file):\(group[0].source.line))"))
            }
        }
    }

    /// Ballots by poll id, in file order.
    public var votesByPoll: [UUID: [Vote]] { Dictionary(grouping: votes, by: \.pollId) }

    /// Votes for polls that are absent are warned about and ignored.
    public static func reportOrphanVotes(_ votesByPoll: [UUID: [Vote]], pollIds: Set<UUID>, log: DiagnosticLog) {
        for (pollId, votes) in votesByPoll where !pollIds.contains(pollId) {
            for vote in votes {
                log.add(vote.source.diagnostic(.warning, field: "pollId",
                    "no poll has id \(vote.pollId.uuidString); this vote is ignored"))
            }
        }
    }

    /// SOURCE_DATE_EPOCH when set, else the newest date in the inputs — never the wall clock,
    /// so the same inputs give the same bytes.
    /// `streamedDates`: the polls' and ballots' modification dates (they are not kept here
    /// for the whole build).
    public func buildTime(environment: [String: String], streamedDates: [Date]) -> Date {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) {
            return Date(timeIntervalSince1970: epoch)
        }
        var dates = streamedDates + votes.map(\.modifiedAt)
        dates += convoys.map(\.modifiedAt)
        dates += customItems.map(\.modifiedAt)
        dates += optionSets.compactMap(\.generatedAt)
        return dates.max() ?? Date(timeIntervalSinceReferenceDate: 0)
    }
}
