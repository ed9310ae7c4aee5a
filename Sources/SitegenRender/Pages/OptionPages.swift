import Foundation
import SitegenCore
import SitegenModel

/// The trip views of docs/rules.md: `/options/SLUG/` and `/options/SLUG/VIEW/` for each
/// option set, and `/polls/CODE/VIEW/` over each poll's trips.
package enum OptionPages {
    /// A list of trips to publish in every view, and how its pages are addressed.
    package struct TripList: Sendable {
        package var title: String
        /// Shown above the title: "Trip options", "Poll · share code X7K9M2".
        package var eyebrow: String
        package var trips: [Trip]
        /// "options/july-2026/" or "polls/X7K9M2/"; views live below it.
        package var basePath: String
        /// Option sets show their recommended view at `basePath` itself.
        package var recommendedAtBase: Bool
        /// "Option" (its place in the planner's order) or "Trip" (its number in the poll).
        package var numberWord: String
        /// What the input order is called and is: the planner's recommendation, or the poll's order.
        package var recommendedLabel: String
        package var recommendedSummary: String
        /// The page of trip N (0-based position), when one is published.
        package var tripPaths: [String?]
        package var generatedAt: Date?
        package var back: (label: String, path: String)?
        package var noindex = false
        /// Each card is rendered once per list and page depth and reused by every view.
        package let cards = RenderedCards()

        /// Where a view tab on the page at `page` leads: each view's own page, except that the
        /// set's own page keeps its recommended tab on itself. So /options/SLUG/recommended/
        /// is reached from the other views' tabs, and every page from the home page (docs/pages.md, "Every page").
        package func path(of view: TripView, from page: String) -> String {
            view == .recommended && recommendedAtBase && page == basePath ? basePath : basePath + view.rawValue + "/"
        }

        package func label(of view: TripView) -> String {
            view == .recommended ? recommendedLabel : view.label
        }

        package func summary(of view: TripView) -> String {
            view == .recommended ? recommendedSummary : view.summary
        }
    }

    /// Every view of every option set. `plannedPaths` are the files planned so far: an
    /// option links to its itinerary page only when that page is among them.
    package static func files(site: SiteModel, plannedPaths: Set<String>) -> [PlannedFile] {
        site.optionSets.flatMap { set in
            // Made from the option set's export, the itineraries it links to and the site, all
            // in the context every key is combined with (as ItineraryPages), and not the build
            // time: kept while those are unchanged.
            files(for: list(for: set, plannedPaths: plannedPaths)).map { file in
                var file = file
                file.key = "option set \(set.path)"
                return file
            }
        }
    }

    /// A poll's views (`/polls/CODE/<view>/`); its trips link to their trip pages.
    package static func files(for published: PublishedPoll, unlisted: Bool, plannedPaths: Set<String>) -> [PlannedFile] {
        files(for: list(for: published, unlisted: unlisted, plannedPaths: plannedPaths))
    }

    package static func files(for list: TripList) -> [PlannedFile] {
        var files: [PlannedFile] = []
        if list.recommendedAtBase {
            files.append(PlannedFile(path: SiteLinks.file(for: list.basePath)) { kit in
                page(list, view: .recommended, path: list.basePath, kit: kit)
            })
        }
        for view in TripView.allCases {
            let path = list.basePath + view.rawValue + "/"
            files.append(PlannedFile(path: SiteLinks.file(for: path)) { kit in
                page(list, view: view, path: path, kit: kit)
            })
        }
        return files
    }

    /// An option's card links to `/trips/ID/` when an itinerary export of that trip is published.
    package static func list(for set: TripOptionSet, plannedPaths: Set<String>) -> TripList {
        let tripPaths = set.trips.map { trip -> String? in
            let path = "trips/\(trip.id.uuidString)/"
            return plannedPaths.contains(SiteLinks.file(for: path)) ? path : nil
        }
        return TripList(title: set.title, eyebrow: "Trip options", trips: set.trips, basePath: set.path,
                        recommendedAtBase: true, numberWord: "Option",
                        recommendedLabel: TripView.recommended.label, recommendedSummary: TripView.recommended.summary,
                        tripPaths: tripPaths, generatedAt: set.generatedAt)
    }

    package static func list(for published: PublishedPoll, unlisted: Bool, plannedPaths: Set<String>) -> TripList {
        let poll = published.poll
        let tripPaths = poll.trips.indices.map { index -> String? in
            let path = "\(published.path)trips/\(index + 1)/"
            return plannedPaths.contains(SiteLinks.file(for: path)) ? path : nil
        }
        return TripList(title: poll.title, eyebrow: "Poll · share code \(poll.shareCode.value)", trips: poll.trips,
                        basePath: published.path, recommendedAtBase: false, numberWord: "Trip",
                        recommendedLabel: pollOrderLabel, recommendedSummary: "In the poll's order, trip 1 first.", tripPaths: tripPaths,
                        generatedAt: nil, back: ("Back to the poll results", published.path), noindex: unlisted)
    }

    // MARK: The page

    package static func page(_ list: TripList, view: TripView, path: String, kit: RenderKit) -> [UInt8] {
        let title = view == .recommended && list.recommendedAtBase ? list.title : "\(BidiIsolation.isolated(list.title)): \(list.label(of: view).lowercased())"
        let summary = list.summary(of: view)
        var meta = PageMeta(path: path, title: title,
                            description: "\(sentence("\(Formatting.count(list.trips.count, "trip")) in \(BidiIsolation.isolated(list.title))")) \(summary)")
        meta.noindex = list.noindex

        let cards = list.cards.html(depth: path.split(separator: "/").count) {
            list.trips.indices.map { kit.render(card(list, position: $0, from: path, kit: kit)) }
        }
        let model = TripViewsPageModel(
            title: list.title,
            eyebrow: list.eyebrow,
            tripCount: Formatting.count(list.trips.count, "trip"),
            generated: list.generatedAt.map { TripViewsPageModel.Generated(text: kit.format.dateTime($0), iso: Formatting.iso8601($0)) },
            back: list.back.map { TextLink(label: $0.label, href: kit.href($0.path, from: path)) },
            tabs: TripView.allCases.map { tab in
                TabLink(label: list.label(of: tab), href: kit.href(list.path(of: tab, from: path), from: path), current: tab == view)
            },
            viewLabel: list.label(of: view),
            summary: summary,
            hasTrips: !list.trips.isEmpty,
            groups: view.groups(of: list.trips).map { group in
                let section = group.title.flatMap { title in group.anchor.map { TripViewsPageModel.Group.Section(title: title, anchor: $0) } }
                return TripViewsPageModel.Group(section: section, trips: group.positions.map { cards[$0] })
            },
            keyFact: view.keyFact)
        return kit.page(model, meta: meta)
    }

    /// The shared trip card (`PollPages.tripCard`), plus its label and miles per game.
    package static func card(_ list: TripList, position: Int, from path: String, kit: RenderKit) -> OptionCard {
        let trip = list.trips[position]
        return OptionCard(
            card: PollPages.tripCard(trip, number: position + 1, href: list.tripPaths[position].map { kit.href($0, from: path) }, kit: kit),
            numberLabel: "\(list.numberWord) \(position + 1)",
            milesPerGame: trip.totalGames > 0
                ? Formatting.miles(meters: trip.totalDistanceMeters / Double(trip.totalGames)) + " per game" : nil)
    }

    /// Rendered card HTML by page depth; links in a card are relative, so they depend on it.
    package final class RenderedCards: @unchecked Sendable {
        private let lock = NSLock()
        private var byDepth: [Int: [String]] = [:]

        package func html(depth: Int, render: () -> [String]) -> [String] {
            lock.lock()
            defer { lock.unlock() }
            if let cards = byDepth[depth] { return cards }
            let cards = render()
            byDepth[depth] = cards
            return cards
        }
    }

    // MARK: Links from other pages

    /// A poll's trips are in the organiser's order, which nobody recommended.
    package static let pollOrderLabel = "Poll order"

    /// "Browse these trips by: …" on the poll page.
    package static func viewLinks(for published: PublishedPoll, kit: RenderKit) -> [TextLink] {
        TripView.allCases.map { view in
            TextLink(label: view == .recommended ? pollOrderLabel : view.label,
                     href: kit.href(published.path + view.rawValue + "/", from: published.path))
        }
    }

    /// The home page's "Trip options" section, by title; nil when there are none.
    package static func homeSection(site: SiteModel, kit: RenderKit) -> HomePageModel.OptionSets? {
        guard !site.optionSets.isEmpty else { return nil }
        let sets = site.optionSets.sorted {
            ($0.title.lowercased(), $0.slug) < ($1.title.lowercased(), $1.slug)
        }
        return HomePageModel.OptionSets(items: sets.map { set in
            HomePageModel.OptionSets.Item(title: set.title, href: kit.href(set.path, from: ""),
                                          trips: Formatting.count(set.trips.count, "trip"),
                                          generated: set.generatedAt.map(kit.format.longDate))
        })
    }
}
