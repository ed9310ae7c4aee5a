import Foundation

/// Everything computed from the inputs, before any page is rendered.
public struct SiteModel: Sendable {
    public struct Asset: Sendable {
        public let name: String
        public let bytes: [UInt8]
    }

    public let config: SiteConfig
    /// In share-code order.
    public let polls: [PublishedPoll]
    /// Files copied from `Templates/assets/`.
    public let assets: [Asset]
}

/// Decides every file of the site: path → how to make it. Each concern adds its pages here.
public enum SitePlan {
    /// Templates the planned pages use; checked when templates load.
    public static let requiredTemplates = ["layout"] + HomePage.templates + PollPages.templates + SupportFiles.templates

    public static func files(for site: SiteModel) -> [PlannedFile] {
        var files: [PlannedFile] = [HomePage.file(site: site)]
        for published in site.polls {
            files += PollPages.files(for: published, unlisted: !site.config.listPolls, tripPages: false)
        }
        let pagePaths = files.map(\.path).filter { $0.hasSuffix("index.html") }.map { String($0.dropLast("index.html".count)) }
        files += SupportFiles.files(site: site, pagePaths: pagePaths)
        return files
    }

    public static func navigation(for site: SiteModel) -> [RenderKit.NavigationItem] {
        [RenderKit.NavigationItem(label: "Home", path: "")]
    }
}
