import SitegenCore
/// An I/O failure while writing the site (exit status 3).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public let message: String

    package init(message: String) {
        self.message = message
    }
    public var description: String { message }
}

extension OutputError {
    /// How many files not written by sitegen a refusal names; the rest are counted, up to
    /// `countedStrangersAtMost` ("10,000 or more").
    package static let namedStrangers = 10
    package static let countedStrangersAtMost = 10_000

    /// Refuses to replace `output` (as shown) while it holds files that the last build did not
    /// write and that are not kept: `named` are the first few, `count` all of them.
    /// `missingRecord`: the record of the last build that was looked for and not found;
    /// `unreadable` when it is there but could not be read.
    /// `builtBySitegen`: the folder's manifest.json says sitegen made it (its record was lost).
    package static func strangers(in output: String, named: [String], count: Int, missingRecord: String?,
                                  unreadable: Bool = false, builtBySitegen: Bool = false) -> OutputError {
        let atLeast = count >= countedStrangersAtMost
        var more = count > named.count ? " and \(count - named.count)\(atLeast ? " or" : "") more" : ""
        if let missingRecord {
            more += unreadable ? " (\(missingRecord), the record of the last build here, cannot be read)"
                               : " (there is no record of an earlier build here: \(missingRecord) is missing)"
        }
        return OutputError(message: "\(output): refusing to replace this folder: \(Formatting.count(count, "file"))\(atLeast ? " or more" : "") in it "
            + "\(count == 1 ? "was" : "were") not written by sitegen: \(named.joined(separator: ", "))\(more). "
            + "Move \(count == 1 ? "it" : "them") away, or list \(count == 1 ? "it" : "them") under `keep:` in site.yml"
            + (missingRecord != nil && builtBySitegen
                ? ". Its manifest.json says sitegen built it: if nothing in it is yours, delete the folder and build again" : ""))
    }

    /// A `keep:` path (as shown) that the new site also writes.
    package static func keptAndWritten(_ shown: String) -> OutputError {
        OutputError(message: "\(shown): listed under `keep:` in site.yml, but sitegen writes this path")
    }
}
