import Foundation

/// Every export of the site, decoded and checked against each other.
public struct ExportSet: Sendable {
    public var polls: [Poll]
    public var votes: [Vote]
    public var files: [InputFile]
    /// In file order; see ConvoyPages.sorted for the order pages list them in.
    public var convoys: [Convoy] = []
    /// Trip-option sets with settled slugs, in file order.
    public var optionSets: [TripOptionSet] = []
    /// Itinerary exports, the game catalog and custom items (embedded ones included).
    public var itineraries: [Itinerary] = []
    public var games: [Game] = []
    public var customItems: [CustomItem] = []

    public static func load(config: SiteConfig, log: DiagnosticLog) -> ExportSet {
        let decoder = ExportDecoder(dates: ExportDateReader(timeZone: config.timeZone, numericDates: config.numericDates))
        let loader = ExportLoader(siteFolder: config.folder, decoder: decoder, log: log)
        let polls = loader.load(config.inputs.polls) { (decoder, field, source) throws(FieldError) in try decoder.poll(field, source: source) }
        let votes = loader.load(config.inputs.votes) { (decoder, field, source) throws(FieldError) in try decoder.vote(field, source: source) }
        var set = ExportSet(polls: polls.records, votes: votes.records, files: polls.files + votes.files)
        set.checkUniqueness(log: log)
        let convoys = loader.load(config.inputs.convoys) { (decoder, field, source) throws(FieldError) in try decoder.convoy(field, source: source) }
        set.convoys = convoys.records
        set.files += convoys.files
        ConvoyChecks.report(set.convoys, log: log)
        let optionSets = loader.load(config.inputs.options) { (decoder, field, source) throws(FieldError) in try decoder.optionSet(field, source: source) }
        set.optionSets = OptionSetSlug.settle(optionSets.records, log: log)
        set.files += optionSets.files
        let itineraries = loader.load(config.inputs.trips) { (decoder, field, source) throws(FieldError) in try decoder.itinerary(field, source: source) }
        let games = loader.load(config.inputs.games) { (decoder, field, source) throws(FieldError) in try decoder.game(field, source: source) }
        let items = loader.load(config.inputs.items) { (decoder, field, source) throws(FieldError) in try decoder.customItem(field, source: source) }
        set.itineraries = itineraries.records
        set.games = games.records + itineraries.records.flatMap(\.games)
        set.customItems = items.records + itineraries.records.flatMap(\.customItems)
        set.files += itineraries.files + games.files + items.files
        return set
    }

    /// Two polls with the same share code or id are an error; every clash is reported.
    mutating func checkUniqueness(log: DiagnosticLog) {
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

    /// Counts each poll's ballots; votes for polls that are absent are warned about and ignored.
    public func publishedPolls(minBallotsForBreakdown: Int, log: DiagnosticLog) -> [PublishedPoll] {
        let pollIds = Set(polls.map(\.id))
        var votesByPoll: [UUID: [Vote]] = [:]
        for vote in votes {
            guard pollIds.contains(vote.pollId) else {
                log.add(vote.source.diagnostic(.warning, field: "pollId",
                    "no poll has id \(vote.pollId.uuidString); this vote is ignored"))
                continue
            }
            votesByPoll[vote.pollId, default: []].append(vote)
        }
        let sorted = polls.sorted { $0.shareCode < $1.shareCode }
        let ballots = votesByPoll
        let published = ConcurrentResults<PublishedPoll>(count: sorted.count)
        DispatchQueue.concurrentPerform(iterations: sorted.count) { index in
            let poll = sorted[index]
            published[index] = PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, votes: ballots[poll.id] ?? [],
                                                                                minBallotsForBreakdown: minBallotsForBreakdown))
        }
        return published.values
    }

    /// SOURCE_DATE_EPOCH when set, else the newest date in the inputs — never the wall clock,
    /// so the same inputs give the same bytes.
    public func buildTime(environment: [String: String]) -> Date {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) {
            return Date(timeIntervalSince1970: epoch)
        }
        var dates = polls.map(\.modifiedAt) + votes.map(\.modifiedAt)
        dates += convoys.map(\.modifiedAt)
        dates += customItems.map(\.modifiedAt)
        dates += optionSets.compactMap(\.generatedAt)
        return dates.max() ?? Date(timeIntervalSinceReferenceDate: 0)
    }
}
