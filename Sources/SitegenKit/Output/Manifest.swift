import Foundation

/// manifest.json: the record of what a published snapshot contains (SPEC §5).
///
/// With `listPolls: false` a poll is reachable only by its share code, so listing its
/// paths here would publish every code. Those files are summarised instead: how many, and
/// one SHA-256 over their sorted paths and hashes, which still lets anyone holding the
/// snapshot verify it.
public struct Manifest: Sendable {
    public struct Entry: Sendable, Equatable {
        public let path: String
        public let hash: ContentHash

        public init(path: String, hash: ContentHash) {
            self.path = path
            self.hash = hash
        }

        public var sha256: String { hash.hex }
    }

    public let buildTime: Date
    public let inputs: [InputFile]
    public let outputs: [Entry]
    /// Output paths under this prefix are summarised, not listed (unlisted polls).
    public let hiddenPrefix: String?

    public init(buildTime: Date, inputs: [InputFile], outputs: [Entry], hiddenPrefix: String? = nil) {
        self.buildTime = buildTime
        self.inputs = inputs
        self.outputs = outputs
        self.hiddenPrefix = hiddenPrefix
    }

    /// manifest.json's bytes: the same as `json.bytes()`, with the (long) list of output files
    /// written straight out rather than built as a tree of JSONOutput values first.
    public func bytes() -> [UInt8] {
        let sorted = outputs.sorted { $0.path < $1.path }
        let listed = hiddenPrefix.map { prefix in sorted.filter { !$0.path.hasPrefix(prefix) } } ?? sorted
        var head = members(listed: [], sorted: sorted)
        let unlisted = hiddenPrefix == nil ? nil : head.removeLast().1
        head.removeLast()   // "outputs", written below
        var out = Array(JSONOutput.object(head).bytes().dropLast(3))   // drops "\n}\n"
        // Reserved up front: growing a buffer of tens of megabytes by doubling would
        // briefly need twice that.
        out.reserveCapacity(out.count + 256 + listed.reduce(0) { $0 + $1.path.utf8.count + 112 })
        out += ",\n  \"outputs\": ".utf8
        if listed.isEmpty {
            out += "[]".utf8
        } else {
            out += "[\n".utf8
            for (index, entry) in listed.enumerated() {
                out += "    {\n      \"path\": ".utf8
                JSONOutput.appendString(entry.path, to: &out)
                out += ",\n      \"sha256\": ".utf8
                out += "\"".utf8
                entry.hash.appendHex(to: &out)
                out += "\"".utf8
                out += (index == listed.count - 1 ? "\n    }\n" : "\n    },\n").utf8
            }
            out += "  ]".utf8
        }
        if let unlisted {
            out += ",\n  \"unlisted\": ".utf8
            unlisted.write(to: &out, indent: 1)
        }
        out += "\n}\n".utf8
        return out
    }

    public var json: JSONOutput {
        let sorted = outputs.sorted { $0.path < $1.path }
        let listed = hiddenPrefix.map { prefix in sorted.filter { !$0.path.hasPrefix(prefix) } } ?? sorted
        return .object(members(listed: listed, sorted: sorted))
    }

    private func members(listed: [Entry], sorted: [Entry]) -> [(String, JSONOutput)] {
        let hidden = hiddenPrefix.map { prefix in sorted.filter { $0.path.hasPrefix(prefix) } } ?? []
        var members: [(String, JSONOutput)] = [
            ("generator", .string("sitegen \(SitegenVersion.current)")),
            ("buildTime", .string(Formatting.iso8601(buildTime))),
            ("inputs", .array(inputs.sorted { $0.path < $1.path }.map {
                .object([("path", .string($0.path)), ("sha256", .string($0.sha256))])
            })),
            ("outputs", .array(listed.map {
                .object([("path", .string($0.path)), ("sha256", .string($0.sha256))])
            })),
        ]
        if let hiddenPrefix {
            let digest = sha256Hex(Array(hidden.map { "\($0.path) \($0.sha256)\n" }.joined().utf8))
            members.append(("unlisted", .object([
                ("prefix", .string(hiddenPrefix)),
                ("files", .int(hidden.count)),
                ("sha256", .string(digest)),
            ])))
        }
        return members
    }
}
