/// How many bytes reference links would copy while cmark-gfm parses a text, estimated from
/// the text alone, before it is parsed.
///
/// cmark-gfm 0.29 copies a reference definition's URL and title into every link that uses
/// it, during the parse: 64 KiB defining one 32 KB URL and using it 11,000 times made
/// 352 MB of copies and seconds of work before anything could be checked. Upstream cmark
/// later capped the bytes copied at the larger of the input's size and 100 KB; sitegen
/// applies the same cap from outside (`MarkdownRenderer`).
package enum ReferenceExpansion {
    package static let minimumBudget = 100_000

    /// The cap for a text of `bytes` bytes.
    package static func budget(forTextOf bytes: Int) -> Int {
        max(bytes, minimumBudget)
    }

    /// Σ over every bracketed span `[label]` of the size of the definition it names (its
    /// URL and title: the rest of the definition's line, plus the next line when the URL is
    /// there, plus a line holding the title). Spans that name no definition, and the
    /// definitions' own labels, cost nothing. One pass over the lines, one over the bytes.
    package static func estimate(_ markdown: String) -> Int {
        let bytes = Array(markdown.utf8)
        let lines = bytes.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        var definitions: [[UInt8]: Int] = [:]
        for (index, line) in lines.enumerated() {
            guard let (label, rest) = definition(line) else { continue }
            var size = rest.count
            var next = index + 1
            if rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }), next < lines.count {
                size += lines[next].count
                next += 1
            }
            if next < lines.count, startsTitle(lines[next]) { size += lines[next].count }
            definitions[label] = max(definitions[label] ?? 0, size)
        }
        guard !definitions.isEmpty else { return 0 }
        var total = 0
        var spanStart: Int?
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "[") {
                spanStart = offset + 1
            } else if byte == UInt8(ascii: "]"), let start = spanStart {
                spanStart = nil
                let isDefinition = offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: ":")
                // Labels are at most 999 characters (CommonMark).
                if !isDefinition, offset - start <= 999, let size = definitions[normalized(bytes[start..<offset])] {
                    total += size
                }
            }
        }
        return total
    }

    /// A line that may hold a definition's title: `"…"`, `'…'` or `(…)` after spaces.
    package static func startsTitle(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return false }
        return first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || first == UInt8(ascii: "(")
    }

    /// `[label]: rest` with up to three spaces before it: the normalized label and what
    /// follows the colon.
    package static func definition(_ line: ArraySlice<UInt8>) -> ([UInt8], ArraySlice<UInt8>)? {
        var index = line.startIndex
        var spaces = 0
        while index < line.endIndex, line[index] == UInt8(ascii: " "), spaces < 4 { index += 1; spaces += 1 }
        guard spaces <= 3, index < line.endIndex, line[index] == UInt8(ascii: "[") else { return nil }
        let labelStart = index + 1
        guard let close = line[labelStart...].firstIndex(of: UInt8(ascii: "]")),
              close + 1 < line.endIndex, line[close + 1] == UInt8(ascii: ":") else { return nil }
        return (normalized(line[labelStart..<close]), line[(close + 2)...])
    }

    /// CommonMark label matching: case-insensitive (ASCII here: a stricter match only
    /// undercounts labels differing in non-ASCII case), whitespace runs as one space, trimmed.
    package static func normalized(_ label: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var pendingSpace = false
        for byte in label {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(UInt8(ascii: " ")); pendingSpace = false }
            out.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        return out
    }
}
