import Foundation
import SitegenCore
import SitegenInput
import SitegenModel
import SitegenRender

/// What the compute stage hands on.
struct Computed {
    var site: SiteModel
    var buildTime: Date
    /// What the rest of the site renders with, the build time included.
    var kit: RenderKit
}

/// Stage 4: the values pages show, from the checked inputs: the build time, today's tips,
/// the site model. Each poll was counted as it streamed past (`count`).
struct ComputeStage {
    let options: BuildOptions
    let log: DiagnosticLog

    /// Moves the poll summaries out of `inputs` into the site model, sorted in place.
    func run(_ inputs: inout Inputs) -> Computed {
        let config = inputs.config
        let buildTime = inputs.exports.buildTime(environment: options.environment, streamedDates: inputs.polls.map(\.modifiedAt))
            ?? undatedBuildTime()
        let tips = Self.publishedTips(catalog: inputs.tipCatalog, config: config, options: options, buildTime: buildTime)
        var polls = inputs.polls
        inputs.polls = []
        polls.sort { $0.shareCode < $1.shareCode }
        var site = SiteModel(config: config, tips: tips, polls: polls,
                             assets: inputs.assets, convoys: ConvoyPages.sorted(inputs.exports.convoys),
                             optionSets: inputs.exports.optionSets, itineraries: inputs.itineraries)
        site.pages = inputs.pages
        let kit = RenderKit(config: config, templates: inputs.templates, links: SiteLinks(style: config.urls, baseURL: config.baseURL),
                            format: Formatting(timeZone: config.timeZone), buildTime: buildTime, navigation: inputs.navigation)
        return Computed(site: site, buildTime: buildTime, kit: kit)
    }

    /// No input holds a date (a site of pages and tips): `--date`, else 2001-01-01, which
    /// the tips page and manifest.json would show without a word.
    private func undatedBuildTime() -> Date {
        if let date = options.date { return date }
        log.add(Diagnostic(.warning, file: displayPath(options.configFile),
                           message: "no input holds a date, so the site is dated January 1, 2001 (the tips page, manifest.json); pass --date YYYY-MM-DD or set SOURCE_DATE_EPOCH"))
        return Date(timeIntervalSinceReferenceDate: 0)
    }

    /// A poll with its ballots counted.
    static func count(_ poll: Poll, ballots: [Ballot], config: SiteConfig) -> PublishedPoll {
        PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, ballots: ballots,
                                                            minBallotsForBreakdown: config.minBallotsForBreakdown))
    }

    /// Today's featured tips from `catalog`: the step is the UTC day number of `--date`, else
    /// of the build time; `--seed` overrides `tips.seed`.
    static func publishedTips(catalog: TipCatalog, config: SiteConfig, options: BuildOptions, buildTime: Date) -> PublishedTips {
        let date = options.date ?? buildTime
        let rotation = TipRotation(seed: options.seed ?? config.tips.seed, featured: config.tips.featured)
        let step = config.tips.rotation == .daily ? TipRotation.dayNumber(date.timeIntervalSince1970) : 0
        let featured = rotation.featuredIndices(count: catalog.tips.count, step: step).map { catalog.tips[$0] }
        return PublishedTips(catalog: catalog, featured: featured, date: date, rotation: config.tips.rotation)
    }
}
