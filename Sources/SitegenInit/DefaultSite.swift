import Foundation
import SitegenCore

/// A file of the starter site that `sitegen init` writes.
public struct DefaultSiteFile: Sendable {
    /// Where it goes inside the new site, e.g. `Templates/partials/tip.mustache`.
    public let path: String
    public let bytes: [UInt8]
}

/// Why `sitegen init` stopped.
public enum InitFailure: Error, Equatable, Sendable {
    /// The folder exists with something in it (exit 2): nothing of the user's is ever overwritten.
    case folderNotEmpty(String)
    /// The path exists and is a file (exit 2).
    case notAFolder(String)
    /// Could not write (exit 3).
    case io(String)

    public var exitStatus: Int32 {
        switch self {
        case .folderNotEmpty, .notAFolder: return 2
        case .io: return 3
        }
    }

    public var message: String {
        switch self {
        case .folderNotEmpty(let folder):
            return "\(folder): error: the folder is not empty; sitegen init creates a site only in a new or empty folder"
        case .notAFolder(let path):
            return "\(path): error: exists and is not a folder"
        case .io(let message):
            return "error: \(message)"
        }
    }
}

/// The starter site of `sitegen init`: site.yml, the default templates and a small sample
/// data set, ready for `sitegen build`. SwiftPM compiles in the files of StarterSite/ beside
/// this file (`.embedInCode` in Package.swift); its Templates and Data are symlinks to the
/// repository's Templates/ and Data/.
public enum DefaultSite {
    /// The files `sitegen init` writes, by path inside the new site. SwiftPM names each
    /// embedded file by its bare name, so this list gives it back its folder; InitTests fails
    /// when a file of StarterSite/ (a template, say) is missing here.
    public static let files: [DefaultSiteFile] = [
        DefaultSiteFile(path: "site.yml", bytes: PackageResources.site_yml),
        DefaultSiteFile(path: "Templates/404.mustache", bytes: PackageResources._04_mustache),  // a leading digit becomes "_"
        DefaultSiteFile(path: "Templates/assets/site.css", bytes: PackageResources.site_css),
        DefaultSiteFile(path: "Templates/convoy.mustache", bytes: PackageResources.convoy_mustache),
        DefaultSiteFile(path: "Templates/home.mustache", bytes: PackageResources.home_mustache),
        DefaultSiteFile(path: "Templates/itinerary.mustache", bytes: PackageResources.itinerary_mustache),
        DefaultSiteFile(path: "Templates/layout.mustache", bytes: PackageResources.layout_mustache),
        DefaultSiteFile(path: "Templates/page.mustache", bytes: PackageResources.page_mustache),
        DefaultSiteFile(path: "Templates/partials/calendar-links.mustache", bytes: PackageResources.calendar_links_mustache),
        DefaultSiteFile(path: "Templates/partials/directions.mustache", bytes: PackageResources.directions_mustache),
        DefaultSiteFile(path: "Templates/partials/route-file.mustache", bytes: PackageResources.route_file_mustache),
        DefaultSiteFile(path: "Templates/partials/route-map.mustache", bytes: PackageResources.route_map_mustache),
        DefaultSiteFile(path: "Templates/partials/timeline-entry.mustache", bytes: PackageResources.timeline_entry_mustache),
        DefaultSiteFile(path: "Templates/partials/tip.mustache", bytes: PackageResources.tip_mustache),
        DefaultSiteFile(path: "Templates/partials/trip-card.mustache", bytes: PackageResources.trip_card_mustache),
        DefaultSiteFile(path: "Templates/poll.mustache", bytes: PackageResources.poll_mustache),
        DefaultSiteFile(path: "Templates/tips.mustache", bytes: PackageResources.tips_mustache),
        DefaultSiteFile(path: "Templates/trip-views.mustache", bytes: PackageResources.trip_views_mustache),
        // One export of each kind, building without a warning: a poll with its ballots and the
        // game catalogs its trips and the itinerary name, an itinerary with its custom items,
        // an option set and a convoy.
        DefaultSiteFile(path: "Data/polls/midwest-ballpark-swing.json", bytes: PackageResources.midwest_ballpark_swing_json),
        DefaultSiteFile(path: "Data/votes/midwest-ballpark-swing-votes.json", bytes: PackageResources.midwest_ballpark_swing_votes_json),
        DefaultSiteFile(path: "Data/games/mlb-2026-june.json", bytes: PackageResources.mlb_2026_june_json),
        DefaultSiteFile(path: "Data/games/mlb-2026-july-august.json", bytes: PackageResources.mlb_2026_july_august_json),
        DefaultSiteFile(path: "Data/trips/fenway-cooperstown-bronx.json", bytes: PackageResources.fenway_cooperstown_bronx_json),
        DefaultSiteFile(path: "Data/items/fenway-cooperstown-bronx-items.json", bytes: PackageResources.fenway_cooperstown_bronx_items_json),
        DefaultSiteFile(path: "Data/options/july-2026-from-chicago.json", bytes: PackageResources.july_2026_from_chicago_json),
        DefaultSiteFile(path: "Data/convoys/drafts.json", bytes: PackageResources.drafts_json),
    ]

    /// Writes every file into `folder`, creating it when missing. Returns the paths written.
    @discardableResult
    public static func create(in folder: URL) throws(InitFailure) -> [String] {
        let fileManager = FileManager.default
        let shown = displayPath(folder)
        var isFolder: ObjCBool = false
        if fileManager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .notAFolder(shown) }
            let contents: [String]
            do {
                contents = try fileManager.contentsOfDirectory(atPath: folder.path)
            } catch {
                throw .io("\(shown): cannot read folder: \(error.localizedDescription)")
            }
            // A fresh `git init` is empty for this purpose: "git init, then sitegen init" was refused.
            guard contents.allSatisfy({ $0 == ".git" }) else { throw .folderNotEmpty(shown) }
        }
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            do {
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url, options: .withoutOverwriting)
            } catch {
                throw .io("\(displayPath(url)): cannot write: \(error.localizedDescription)")
            }
        }
        return files.map(\.path)
    }
}
