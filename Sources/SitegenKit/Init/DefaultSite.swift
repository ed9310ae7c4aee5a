import Foundation
import SitegenCore

/// A file of the starter site that `sitegen init` writes.
public struct DefaultSiteFile: Sendable {
    /// Where it goes inside the new site, e.g. `Templates/partials/tip.mustache`.
    public let path: String
    /// The repository file it was copied from (nil for the starter site.yml), so a test can
    /// tell when the embedded copy no longer matches its source.
    public let source: String?
    public let bytes: [UInt8]

    init(path: String, source: String?, text: String) {
        self.path = path
        self.source = source
        bytes = Array(text.utf8)
    }

    init(path: String, source: String?, base64: String) {
        self.path = path
        self.source = source
        bytes = Array(Data(base64Encoded: base64) ?? Data())
    }
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
/// data set, ready for `sitegen build`. The files are compiled in (DefaultSite+Generated.swift).
public enum DefaultSite {
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
            guard contents.isEmpty else { throw .folderNotEmpty(shown) }
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
