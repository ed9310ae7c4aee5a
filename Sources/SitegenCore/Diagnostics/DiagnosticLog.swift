import Foundation

/// Collects diagnostics from every stage so one run reports all problems at once.
/// Safe to use from parallel workers.
///
/// A run may find millions of problems (an export of 11 million bad records, 40,000 game
/// ids no catalog holds). Printing or keeping every one would cost more than the build, so
/// unless `keepsEvery` (`--verbose`) the log keeps, in memory bounded by the number of
/// files and summaries:
/// - of diagnostics that share a `summary`, the first `examplesPerSummary` in file order,
///   and a count of the rest;
/// - of other diagnostics, the first `keptPerFile` of each file and severity, and a count.
/// "First" is by file and position, never by thread timing, so output is deterministic.
public final class DiagnosticLog: @unchecked Sendable {
    public static let examplesPerSummary = 3
    public static let keptPerFile = 50

    /// What was counted but not kept: printed after the kept diagnostics.
    public struct Omission: Sendable, Equatable, CustomStringConvertible {
        public let severity: Diagnostic.Severity
        public let count: Int
        /// The shared summary, or nil for the rest of one file's diagnostics.
        public let summary: String?
        public let file: String?

        public init(severity: Diagnostic.Severity, count: Int, summary: String?, file: String?) {
            self.severity = severity
            self.count = count
            self.summary = summary
            self.file = file
        }

        public var description: String {
            if let summary {
                return Diagnostic.terminalSafe("\(severity.rawValue): \(Formatting.grouped(count)) more like these: \(summary) (--verbose lists every one)")
            }
            return Diagnostic.terminalSafe("\(file ?? ""): \(severity.rawValue): and \(Formatting.count(count, "more \(severity.rawValue)")) in this file (--verbose lists every one)")
        }
    }

    public let keepsEvery: Bool
    private let lock = NSLock()
    private var items: [Diagnostic] = []
    private var groups: [String: Group] = [:]
    private var files: [FileKey: Group] = [:]
    private var errors = 0
    private var warnings = 0
    private var unreadable = 0

    /// The kept diagnostics of one summary or one file, smallest order keys first.
    private struct Group {
        var count = 0
        var kept: [Diagnostic] = []
        var keys: [Diagnostic.OrderKey] = []

        mutating func add(_ diagnostic: Diagnostic, limit: Int) {
            count += 1
            let key = diagnostic.orderKey
            if kept.count == limit {
                guard let last = keys.last, key < last else { return }
                kept.removeLast()
                keys.removeLast()
            }
            let index = keys.firstIndex { key < $0 } ?? keys.count
            keys.insert(key, at: index)
            kept.insert(diagnostic, at: index)
        }
    }

    private struct FileKey: Hashable {
        let file: String
        let severity: Diagnostic.Severity
    }

    public init(keepsEvery: Bool = false) {
        self.keepsEvery = keepsEvery
    }

    public func add(_ diagnostic: Diagnostic) {
        lock.withLock {
            if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
            if diagnostic.isUnreadable { unreadable += 1 }
            if keepsEvery {
                items.append(diagnostic)
            } else if let summary = diagnostic.summary {
                groups["\(diagnostic.severity.rawValue) \(summary)", default: Group()].add(diagnostic, limit: Self.examplesPerSummary)
            } else {
                files[FileKey(file: diagnostic.file, severity: diagnostic.severity), default: Group()].add(diagnostic, limit: Self.keptPerFile)
            }
        }
    }

    /// Counts again what an earlier log counted without keeping (a build state replayed).
    public func add(_ omission: Omission) {
        lock.withLock {
            if omission.severity == .error { errors += omission.count } else { warnings += omission.count }
            if let summary = omission.summary {
                groups["\(omission.severity.rawValue) \(summary)", default: Group()].count += omission.count
            } else if let file = omission.file {
                files[FileKey(file: file, severity: omission.severity), default: Group()].count += omission.count
            }
        }
    }

    public func error(_ file: String, field: String = "", _ message: String) {
        add(Diagnostic(.error, file: file, field: field, message: message))
    }

    public func warning(_ file: String, field: String = "", _ message: String) {
        add(Diagnostic(.warning, file: file, field: field, message: message))
    }

    /// Every diagnostic kept, in no fixed order.
    private var kept: [Diagnostic] {
        lock.withLock { items + groups.values.flatMap(\.kept) + files.values.flatMap(\.kept) }
    }

    /// The kept diagnostics, in a stable order (file, position, message) independent of thread timing.
    /// Each position is looked up once, before sorting: a lookup counts the characters
    /// before it on its line, and the comparisons of a sort asked for it again and again
    /// (100,000 warnings on one line of a 1 MB file took 40 s).
    public var all: [Diagnostic] {
        let located = kept.map { diagnostic -> Diagnostic in
            var located = diagnostic
            let (line, column) = (diagnostic.line, diagnostic.column)
            located.line = line
            located.column = column
            return located
        }
        return located.sorted { a, b in
            if a.file != b.file { return a.file < b.file }
            if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
            if (a.column ?? 0) != (b.column ?? 0) { return (a.column ?? 0) < (b.column ?? 0) }
            return a.description < b.description
        }
    }

    /// The kept diagnostics in an order that needs no line lookup (file, then where in it,
    /// then the rest), for a share of the build that is stored rather than printed
    /// (PollFileCache). `all` works out every line, which reads the file again and keeps
    /// it in memory for as long as the diagnostic lives: with a warning in every poll file,
    /// that was every poll file, 134 MB at 10,000 polls.
    package var keptInReadingOrder: [Diagnostic] {
        kept.sorted { a, b in
            let (first, second) = (a.orderKey, b.orderKey)
            if first != second { return first < second }
            return (a.severity == .error ? 0 : 1, a.field, a.summary ?? "") < (b.severity == .error ? 0 : 1, b.field, b.summary ?? "")
        }
    }

    /// What was counted and not kept, errors first, then by summary or file.
    public var omissions: [Omission] {
        lock.withLock {
            var omitted: [Omission] = []
            for (key, group) in groups where group.count > group.kept.count {
                let severity: Diagnostic.Severity = key.hasPrefix("error ") ? .error : .warning
                let summary = String(key.dropFirst(severity.rawValue.count + 1))
                omitted.append(Omission(severity: severity, count: group.count - group.kept.count, summary: summary, file: nil))
            }
            for (key, group) in files where group.count > group.kept.count {
                omitted.append(Omission(severity: key.severity, count: group.count - group.kept.count, summary: nil, file: key.file))
            }
            return omitted.sorted {
                ($0.severity == .error ? 0 : 1, $0.summary ?? "", $0.file ?? "") < ($1.severity == .error ? 0 : 1, $1.summary ?? "", $1.file ?? "")
            }
        }
    }

    public var errorCount: Int { lock.withLock { errors } }
    public var warningCount: Int { lock.withLock { warnings } }
    public var hasErrors: Bool { errorCount > 0 }
    /// Whether an error kept so far is about a file below `folder` (as shown).
    public func hasErrors(below folder: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return kept.contains { $0.severity == .error && $0.file.hasPrefix(prefix) }
    }

    /// Inputs that exist but could not be read (`Diagnostic.isUnreadable`).
    public var unreadableCount: Int { lock.withLock { unreadable } }
}
