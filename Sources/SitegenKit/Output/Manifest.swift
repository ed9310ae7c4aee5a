import Foundation

/// manifest.json: the record of what a published snapshot contains (SPEC §5).
public struct Manifest: Sendable {
    public struct Entry: Sendable, Equatable {
        public let path: String
        public let sha256: String
    }

    public let buildTime: Date
    public let inputs: [InputFile]
    public let outputs: [Entry]

    public var json: JSONOutput {
        .object([
            ("generator", .string("sitegen \(SitegenVersion.current)")),
            ("buildTime", .string(Formatting.iso8601(buildTime))),
            ("inputs", .array(inputs.sorted { $0.path < $1.path }.map {
                .object([("path", .string($0.path)), ("sha256", .string($0.sha256))])
            })),
            ("outputs", .array(outputs.sorted { $0.path < $1.path }.map {
                .object([("path", .string($0.path)), ("sha256", .string($0.sha256))])
            })),
        ])
    }
}
