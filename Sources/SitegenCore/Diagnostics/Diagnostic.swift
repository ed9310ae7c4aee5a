import Foundation

/// One problem found in the inputs, printed as `file:line:column: severity: message`.
public struct Diagnostic: Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    /// Path as shown to the user (relative to the working directory when possible).
    public var file: String
    /// JSON path or config key, e.g. `[2].rankings`; empty when not about one field.
    public var field: String
    public var message: String
    /// Many diagnostics with the same summary are one problem seen many times (40,000 game
    /// ids no catalog holds): past a few examples they are counted, not printed or kept.
    public var summary: String?
    /// An input that exists but could not be read (permissions, a disk error): the build
    /// stops with an I/O failure (exit 3), never taking the input as empty.
    public var isUnreadable = false

    private var fixedLine: Int?
    private var fixedColumn: Int?
    /// A position worked out only when it is shown: most diagnostics of a large run are
    /// counted and never printed, and finding a line means reading the file again.
    private var pending: SourceRef?

    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil,
                field: String = "", message: String, summary: String? = nil) {
        self.severity = severity
        self.file = file
        fixedLine = line
        fixedColumn = column
        self.field = field
        self.message = message
        self.summary = summary
    }

    package init(_ severity: Severity, at source: SourceRef, field: String, message: String, summary: String?) {
        self.init(severity, file: source.file, field: field, message: message, summary: summary)
        pending = source
    }

    /// An error saying that `file` exists but could not be read, with the system's reason.
    public static func unreadable(_ file: String, _ message: String) -> Diagnostic {
        var diagnostic = Diagnostic(.error, file: file, message: message)
        diagnostic.isUnreadable = true
        return diagnostic
    }

    /// The system's reason the last call failed, as `strerror` words it ("Permission denied").
    public static var systemReason: String { String(cString: strerror(errno)) }

    /// Why reading `path` failed with `error`: the system's words when opening it fails
    /// (Foundation's are "The operation could not be completed").
    public static func readFailure(_ path: String, _ error: any Error) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return systemReason }
        close(descriptor)
        return error.localizedDescription
    }

    /// Where the problem is, when its position has not been looked up yet.
    package var pendingSource: SourceRef? { pending }

    public var line: Int? {
        get { pending?.line ?? fixedLine }
        set { fixedLine = newValue; pending = nil }
    }

    public var column: Int? {
        get { pending?.column ?? fixedColumn }
        set { fixedColumn = newValue; pending = nil }
    }

    /// An order that needs no line lookup: by file, then byte offset (or line and column).
    package var orderKey: OrderKey {
        if let pending {
            let (first, second) = pending.orderPosition
            return OrderKey(file: file, first: first, second: second, message: message)
        }
        return OrderKey(file: file, first: fixedLine ?? 0, second: fixedColumn ?? 0, message: message)
    }

    package struct OrderKey: Comparable {
        package let file: String
        package let first: Int
        package let second: Int
        package let message: String

        package static func < (a: OrderKey, b: OrderKey) -> Bool {
            (a.file, a.first, a.second, a.message) < (b.file, b.first, b.second, b.message)
        }
    }

    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        let subject = field.isEmpty ? "" : "\(field): "
        return Self.terminalSafe("\(location): \(severity.rawValue): \(subject)\(message)")
    }

    /// Messages quote export text; control characters (ANSI escapes, bells, line breaks)
    /// are shown as `\u{1B}` so an export cannot rewrite the organiser's terminal or CI log.
    /// So are direction controls and marks (U+202E and its kind): a CI log read in a browser
    /// orders its lines by them, and an override in a trip's name would reverse the rest of
    /// the line it is quoted in.
    package static func terminalSafe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                out += shown(scalar)
            default:
                if isDirectionControl(scalar) { out += shown(scalar) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// The Arabic letter mark, the left-to-right and right-to-left marks, embeddings,
    /// overrides, isolates and their ends.
    package static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `\u{202E}`: a character that may not be printed, named instead.
    package static func shown(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }
}

extension Diagnostic: Equatable {
    public static func == (a: Diagnostic, b: Diagnostic) -> Bool {
        a.severity == b.severity && a.file == b.file && a.line == b.line && a.column == b.column
            && a.field == b.field && a.message == b.message && a.summary == b.summary
    }
}

/// Shows paths the way the user typed them: relative to the working directory when inside it.
public func displayPath(_ url: URL) -> String {
    let path = url.standardizedFileURL.path
    let cwd = FileManager.default.currentDirectoryPath
    let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}
