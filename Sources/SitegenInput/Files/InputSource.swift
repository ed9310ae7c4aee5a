import Foundation

/// One input file, and the name manifest.json gives it.
///
/// manifest.json is published, so an input's name there must not tell where the site was
/// built (`../../home/NAME/…`), show a hidden draft, or name a voter: vote files are often
/// named after the voter, so they are listed by their hash instead.
package struct InputSource: Sendable {
    package let url: URL
    /// The folder it was found in, and that folder's site.yml key.
    package let folder: URL
    package let key: String
    package var namedByHash = false
    /// The folder's name relative to the site folder, when it lies inside it.
    package var publishedFolder: String?

    package init(url: URL, folder: URL, key: String, namedByHash: Bool = false, publishedFolder: String? = nil) {
        self.url = url
        self.folder = folder
        self.key = key
        self.namedByHash = namedByHash
        self.publishedFolder = publishedFolder
    }

    /// Sets `publishedFolder` from the site folder.
    package func inside(_ siteFolder: URL) -> InputSource {
        var source = self
        let base = siteFolder.standardizedFileURL.path + "/"
        let path = folder.standardizedFileURL.path
        if path + "/" == base {
            source.publishedFolder = ""
        } else if path.hasPrefix(base) {
            source.publishedFolder = String(path.dropFirst(base.count))
        }
        return source
    }

    /// `Data/polls/p.json` inside the site folder; `inputs.polls/p.json` for a folder outside
    /// it; `Data/votes/3F2A….json` (the first 16 hex digits of its SHA-256) for a vote file.
    package func publishedName(hash: String) -> String {
        let prefix = publishedFolder.map { $0.isEmpty ? "" : $0 + "/" } ?? key + "/"
        if namedByHash { return prefix + hash.prefix(16) + ".json" }
        let folderPath = folder.standardizedFileURL.path + "/"
        let filePath = url.standardizedFileURL.path
        let relative = filePath.hasPrefix(folderPath) ? String(filePath.dropFirst(folderPath.count)) : url.lastPathComponent
        return prefix + relative
    }
}
