import Foundation

/// Where a record came from, for warnings raised after loading. The line and column are
/// worked out only when asked for (almost never: only for diagnostics), because doing it
/// for every record of a large one-line export would cost more than parsing it.
public struct SourceRef: Sendable, Hashable {
    public let file: String
    /// Byte offset in the file (0 for a fixed position).
    package let offset: Int
    private let index: LineIndex?
    private let fixed: SourcePosition?

    public init(file: String, line: Int, column: Int) {
        self.file = file
        offset = 0
        index = nil
        fixed = SourcePosition(line: line, column: column)
    }

    package init(file: String, offset: Int, index: LineIndex) {
        self.file = file
        self.offset = offset
        self.index = index
        fixed = nil
    }

    /// Another place in the same file (a value inside the record this one points at); the
    /// same reference when it was given as a line and column.
    package func at(offset: Int) -> SourceRef {
        guard let index, fixed == nil else { return self }
        return SourceRef(file: file, offset: offset, index: index)
    }

    public var position: SourcePosition { fixed ?? index?.position(of: offset) ?? SourcePosition(line: 1, column: 1) }
    public var line: Int { position.line }
    public var column: Int { position.column }

    public static func == (a: SourceRef, b: SourceRef) -> Bool { a.file == b.file && a.position == b.position }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
    }

    /// The line and column are looked up only if the diagnostic is shown.
    public func diagnostic(_ severity: Diagnostic.Severity, field: String = "", _ message: String,
                           summary: String? = nil) -> Diagnostic {
        Diagnostic(severity, at: self, field: field, message: message, summary: summary)
    }

    /// A position given as line and column rather than a byte offset.
    package var isFixed: Bool { fixed != nil }

    /// Orders diagnostics without a line lookup.
    package var orderPosition: (Int, Int) {
        if let fixed { return (fixed.line, fixed.column) }
        return (offset, 0)
    }
}

/// A 1-based line and column; columns count Unicode scalars.
public struct SourcePosition: Sendable, Equatable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// UTF-8's byte order mark, which JSONParser skips and editors do not show: not a column.
    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        var index = bytes.starts(with: Self.byteOrderMark) && offset >= 3 ? 3 : 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {   // count scalars, not continuation bytes
                column += 1
            }
            index += 1
        }
        self.init(line: line, column: column)
    }
}
