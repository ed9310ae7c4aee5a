import Foundation

/// site.yml, resolved: every path absolute, every default applied (docs/site-config.md).
public struct SiteConfig: Sendable {
    public enum URLStyle: String, Sendable, CaseIterable {
        /// Links end in "/".
        case pretty
        /// Links end in "index.html", so the site is browsable from disk.
        case files
    }

    public enum Rotation: String, Sendable, CaseIterable { case daily, fixed }

    public struct Inputs: Sendable {
        public var polls: URL
        public var votes: URL
        public var trips: URL
        public var items: URL
        public var games: URL
        public var options: URL
        public var convoys: URL
        /// The keys site.yml gives a path for ("inputs.polls"); the others are defaults.
        package var named: Set<String> = []

        /// Each folder with its key ("inputs.polls").
        package var folders: [(key: String, folder: URL)] {
            [("inputs.polls", polls), ("inputs.votes", votes), ("inputs.trips", trips), ("inputs.items", items),
             ("inputs.games", games), ("inputs.options", options), ("inputs.convoys", convoys)]
        }
    }

    public struct Tips: Sendable {
        public var file: URL?
        public var featured: Int
        public var rotation: Rotation
        public var seed: UInt64
    }

    /// The site.yml file itself and the folder its paths are relative to.
    public var file: URL
    public var folder: URL

    public var title: String
    public var description: String?
    /// Always ends in "/" when set.
    public var baseURL: URL?
    public var language: String
    public var timeZone: TimeZone
    public var urls: URLStyle
    public var listPolls: Bool
    public var numericDates: NumericDates
    public var templates: URL
    public var output: URL
    /// Paths in the output folder that sitegen did not write and must carry over from one
    /// build to the next (`.git`, `CNAME`, `.nojekyll` and site.yml's `keep:`).
    public var keep: [String]
    /// Where site.yml lists each of its `keep:` paths, for errors found once the site is
    /// planned (a path sitegen writes).
    package var keepMarks: [String: (line: Int?, column: Int?)] = [:]
    public var pages: URL?
    public var inputs: Inputs
    public var minBallotsForBreakdown: Int
    public var tips: Tips
    /// Link preview images (`previews: false` turns them off; docs/pages.md, "Link previews").
    public var previews = true
}
