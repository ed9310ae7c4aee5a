import Foundation
import SitegenCore
import SitegenInput

/// manifest.json: the record of what a published snapshot contains (docs/pages.md, "manifest.json").
///
/// With `listPolls: false` a poll is reachable only by its share code, so listing its
/// paths here would publish every code. Those files are summarised instead: how many, and
/// one SHA-256 over their sorted paths and hashes, which still lets anyone holding the
/// snapshot verify it.
public struct Manifest: Sendable {
    /// Where it is published, at the top of the site.
    public static let path = "manifest.json"

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
    /// Output paths under this prefix are summarised, not listed (unlisted polls).
    public let hiddenPrefix: String?

    public init(buildTime: Date, inputs: [InputFile], hiddenPrefix: String? = nil) {
        self.buildTime = buildTime
        self.inputs = inputs
        self.hiddenPrefix = hiddenPrefix
    }

    /// Hands over the output files in path order, one at a time, each path as its UTF-8
    /// bytes (OutputList.forEachSortedRecord).
    public typealias Outputs = ((_ path: [UInt8], _ hash: ContentHash) throws -> Void) throws -> Void

    /// Writes manifest.json to `sink` as the outputs stream past: the same bytes as
    /// `json(outputs:).bytes()`, without a tree, or even the list, of hundreds of thousands
    /// of files in memory.
    public func write<Sink: ByteSink>(outputs: Outputs, to sink: inout Sink) throws {
        sink.bytes += head
        var listed = 0
        var hidden = UnlistedDigest()
        let hiddenBytes = hiddenPrefix.map { Array($0.utf8) }
        try outputs { path, hash in
            if let hiddenBytes, path.starts(with: hiddenBytes) {
                hidden.add(path, hash)
                return
            }
            if listed > 0 { sink.bytes.append(UInt8(ascii: ",")) }
            Self.appendEntry(path, hash, to: &sink.bytes)
            listed += 1
            try sink.flushIfFull()
        }
        sink.bytes += (listed == 0 ? "]" : "\n  ]").utf8
        if let hiddenPrefix {
            sink.bytes += ",\n  \"unlisted\": ".utf8
            hidden.json(prefix: hiddenPrefix).write(to: &sink.bytes, indent: 1)
        }
        sink.bytes += "\n}\n".utf8
    }

    /// Everything before the first output's entry.
    private var head: [UInt8] {
        var head = members(listed: [])
        head.removeLast()   // "outputs", written after this
        return JSONOutput.object(head).bytes().dropLast(3)   // drops "\n}\n": the object goes on
            + Array(Self.outputsOpen)
    }

    private static let outputsOpen = Array(",\n  \"outputs\": [".utf8)
    private static let listedClose = Array("\n  ]\n}\n".utf8)

    /// Writes manifest.json as `last` (the last build's, mapped) with `changes` made to its
    /// outputs (RecordSplice): the entries of unchanged files are copied as they are, the
    /// head (build time, inputs) is made anew. The same bytes as `write`. False, with
    /// nothing written, when it cannot be: with unlisted polls (their summary is one hash
    /// over all of them), or when `last` is not as `write` makes it.
    package func writeSpliced<Sink: ByteSink>(last source: SpliceSource, changes: [RecordSplice.Change],
                                             to sink: inout Sink) throws -> Bool {
        let last = source.bytes
        guard hiddenPrefix == nil, last.count > Self.listedClose.count,
              last.has(Self.listedClose, at: last.count - Self.listedClose.count),
              let open = last.firstOffset(of: Self.outputsOpen) else { return false }
        let region = open + Self.outputsOpen.count..<last.count - Self.listedClose.count
        guard !region.isEmpty, let splice = RecordSplice(source, region: region, changes: changes, layout: Entries()),
              !splice.pieces.isEmpty else { return false }
        // Old entries up to the next one's start: that one's separating comma is left out.
        var ranges: [Range<Int>] = []
        for case .old(let range) in splice.pieces {
            guard range.upperBound == region.upperBound || last[range.upperBound - 1] == UInt8(ascii: ",") else { return false }
            ranges.append(range.lowerBound..<(range.upperBound == region.upperBound ? range.upperBound : range.upperBound - 1))
        }
        source.releasePages()
        sink.bytes += head
        var old = ranges.makeIterator()
        for (index, piece) in splice.pieces.enumerated() {
            if index > 0 { sink.bytes.append(UInt8(ascii: ",")) }
            switch piece {
            case .old:
                try source.forEachChunk(of: old.next()!) { chunk in
                    sink.bytes += chunk
                    try sink.flushIfFull()
                }
            case .new(let index):
                Self.appendEntry(changes[index].path, changes[index].file!.hash, to: &sink.bytes)
                try sink.flushIfFull()
            }
        }
        sink.bytes += Self.listedClose
        return true
    }

    /// One output's entry; a comma goes before every entry but the first.
    private static func appendEntry(_ path: [UInt8], _ hash: ContentHash, to bytes: inout [UInt8]) {
        bytes += Part.entry
        JSONOutput.appendString(utf8: path, to: &bytes)
        bytes += Part.hash
        hash.appendHex(to: &bytes)
        bytes += Part.end
    }

    /// The outputs' entries as RecordSplice finds them: four lines each, separated by commas.
    struct Entries: RecordLayout {
        func recordStart(_ bytes: UnsafeRawBufferPointer, holding offset: Int, from lowest: Int) -> Int? {
            var index = offset
            while index >= lowest {
                if bytes[index] == UInt8(ascii: "\n") && bytes.has(Part.entry, at: index) { return index }
                index -= 1
            }
            return nil
        }

        func record(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int) -> (path: [UInt8], next: Int)? {
            guard bytes.has(Part.entry, at: start),
                  let (path, after) = bytes.jsonString(at: start + Part.entry.count, before: end),
                  bytes.has(Part.hash, at: after), bytes.has(Part.end, at: after + Part.hash.count + 64) else { return nil }
            let close = after + Part.hash.count + 64 + Part.end.count
            if close == end { return (path, end) }
            guard close < end, bytes[close] == UInt8(ascii: ",") else { return nil }
            return (path, close + 1)
        }
    }

    /// manifest.json for outputs held in memory, in any order.
    public func bytes(outputs: [Entry]) -> [UInt8] {
        var buffer = ByteBuffer()
        try! write(outputs: { body in try Self.sorted(outputs).forEach { try body(Array($0.path.utf8), $0.hash) } }, to: &buffer)
        return buffer.bytes
    }

    /// manifest.json as a JSON tree: the reference `write` is tested against.
    public func json(outputs: [Entry]) -> JSONOutput {
        let sorted = Self.sorted(outputs)
        let listed = hiddenPrefix.map { prefix in sorted.filter { !$0.path.hasPrefix(prefix) } } ?? sorted
        var members = members(listed: listed)
        if let hiddenPrefix {
            var hidden = UnlistedDigest()
            sorted.filter { $0.path.hasPrefix(hiddenPrefix) }.forEach { hidden.add(Array($0.path.utf8), $0.hash) }
            members.append(("unlisted", hidden.json(prefix: hiddenPrefix)))
        }
        return .object(members)
    }

    /// In path order: the byte order of the UTF-8 paths, as OutputList merges them.
    private static func sorted(_ outputs: [Entry]) -> [Entry] {
        outputs.sorted { OutputList.precedes(Array($0.path.utf8), Array($1.path.utf8)) }
    }

    private func members(listed: [Entry]) -> [(String, JSONOutput)] {
        [
            ("generator", .string("sitegen \(SitegenVersion.current)")),
            ("buildTime", .string(Formatting.iso8601(buildTime))),
            ("inputs", .array(inputs.sorted { $0.path < $1.path }.map {
                .object([("path", .string($0.path)), ("sha256", .string($0.sha256))])
            })),
            ("outputs", .array(listed.map {
                .object([("path", .string($0.path)), ("sha256", .string($0.sha256))])
            })),
        ]
    }

    /// The fixed parts of an output's entry, between its values.
    private enum Part {
        static let entry = Array("\n    {\n      \"path\": ".utf8)
        static let hash = Array(",\n      \"sha256\": \"".utf8)
        static let end = Array("\"\n    }".utf8)
    }

    /// The unlisted files' summary: how many, and one SHA-256 over their "path hash" lines.
    private struct UnlistedDigest {
        var files = 0
        var hasher = ContentHasher()

        mutating func add(_ path: [UInt8], _ hash: ContentHash) {
            var line = path
            line.append(UInt8(ascii: " "))
            hash.appendHex(to: &line)
            line.append(UInt8(ascii: "\n"))
            hasher.update(line)
            files += 1
        }

        func json(prefix: String) -> JSONOutput {
            .object([("prefix", .string(prefix)), ("files", .int(files)), ("sha256", .string(hasher.finalize().hex))])
        }
    }
}

/// Where a streamed file's bytes gather: a file on disk (StreamedFile) or memory (ByteBuffer).
public protocol ByteSink {
    var bytes: [UInt8] { get set }
    /// Passes on what has gathered, when it is worth a write.
    mutating func flushIfFull() throws
}

/// A ByteSink that keeps everything.
public struct ByteBuffer: ByteSink {
    public var bytes: [UInt8] = []
    public init() {}
    public func flushIfFull() {}
}
