import ArgumentParser
import Foundation
import SitegenCore
import SitegenInit
import SitegenKit

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a new site: site.yml, the default templates and a small sample data set."
    )

    @Argument(help: "The folder for the new site; created if missing, refused unless empty (a .git folder may be there). Default: the current folder.")
    var folder = "."

    func run() throws {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        let written: [String]
        do {
            written = try DefaultSite.create(in: url)
        } catch {
            standardError(error.message)
            // Sitegen.main maps only BuildFailure to statuses; this one has its own (2 or 3).
            Foundation.exit(error.exitStatus)
        }
        let templates = written.filter { $0.hasPrefix("Templates/") }.count
        let exports = written.filter { $0.hasPrefix("Data/") }.count
        let shown = Self.shellQuoted(displayPath(url))
        let isHere = displayPath(url).isEmpty || url.path == FileManager.default.currentDirectoryPath
        standardOutput("Created a new site in \(isHere ? "the current folder" : shown + "/"): site.yml, \(templates) template files and \(exports) sample exports.")
        standardOutput(isHere
            ? "Next: sitegen build, or sitegen serve to preview it while you edit."
            : "Next: sitegen build --config \(shown)/site.yml, or cd \(shown) && sitegen serve")
    }

    /// The path as it can be pasted into a shell.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+:@%".unicodeScalars.contains($0) }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
