import Foundation

/// One problem found in the inputs, printed as `file:line:column: severity: message`.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    /// Path as shown to the user (relative to the working directory when possible).
    public var file: String
    public var line: Int?
    public var column: Int?
    /// JSON path or config key, e.g. `[2].rankings`; empty when not about one field.
    public var field: String
    public var message: String

    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil,
                field: String = "", message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
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
    static func terminalSafe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Collects diagnostics from every stage so one run reports all problems at once.
/// Safe to use from parallel workers.
public final class DiagnosticLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Diagnostic] = []

    public init() {}

    public func add(_ diagnostic: Diagnostic) {
        lock.withLock { items.append(diagnostic) }
    }

    public func error(_ file: String, field: String = "", _ message: String) {
        add(Diagnostic(.error, file: file, field: field, message: message))
    }

    public func warning(_ file: String, field: String = "", _ message: String) {
        add(Diagnostic(.warning, file: file, field: field, message: message))
    }

    /// All diagnostics, in a stable order (file, position, message) independent of thread timing.
    public var all: [Diagnostic] {
        lock.withLock { items }.sorted { a, b in
            if a.file != b.file { return a.file < b.file }
            if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
            if (a.column ?? 0) != (b.column ?? 0) { return (a.column ?? 0) < (b.column ?? 0) }
            return a.description < b.description
        }
    }

    public var errorCount: Int { lock.withLock { items.filter { $0.severity == .error }.count } }
    public var warningCount: Int { lock.withLock { items.filter { $0.severity == .warning }.count } }
    public var hasErrors: Bool { errorCount > 0 }
}

/// Shows paths the way the user typed them: relative to the working directory when inside it.
public func displayPath(_ url: URL) -> String {
    let path = url.standardizedFileURL.path
    let cwd = FileManager.default.currentDirectoryPath
    let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}
