import Foundation
import SitegenCore
import SitegenModel

/// Reading the tip catalog: the built-in one (Resources/tips.json) or a site's `tips.file`.
extension TipCatalog {
    public static func builtIn() -> TipCatalog {
        let log = DiagnosticLog()
        guard let catalog = parse(PackageResources.tips_json, file: "tips.json (built in)", log: log), log.all.isEmpty else {
            preconditionFailure("the built-in tip catalog is invalid: \(log.all.map(\.description))")
        }
        return catalog
    }

    public static func load(_ url: URL, log: DiagnosticLog) -> TipCatalog? {
        let shown = displayPath(url)
        guard let size = InputFolder.regularFileSize(url) else {
            log.error(shown, field: "tips.file", "cannot read the tips file site.yml names: it is missing or not a regular file")
            return nil
        }
        guard size <= ExportLoader.maxFileBytes else {
            log.error(shown, "file is \(size) bytes; the limit is \(ExportLoader.maxFileBytes) bytes")
            return nil
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            log.add(.unreadable(shown, "cannot read the tips file: \(Diagnostic.readFailure(url.path, error))"))
            return nil
        }
        guard data.count <= ExportLoader.maxFileBytes else {
            log.error(shown, "file is \(data.count) bytes; the limit is \(ExportLoader.maxFileBytes) bytes")
            return nil
        }
        return parse([UInt8](data), file: shown, log: log)
    }

    /// A JSON array of `{id?, category, icon, title, subtitle}`. Reports every bad tip.
    public static func parse(_ bytes: [UInt8], file: String, log: DiagnosticLog) -> TipCatalog? {
        let lines = LineIndex(bytes)
        func report(_ error: FieldError) {
            let at = lines.position(of: error.offset)
            log.add(Diagnostic(.error, file: file, line: at.line, column: at.column, field: error.path.description, message: error.message))
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            let at = lines.position(of: error.offset)
            log.add(Diagnostic(.error, file: file, line: at.line, column: at.column, message: "not valid JSON: \(error.message)"))
            return nil
        }
        let elements: [JSONField]
        do throws(FieldError) {
            elements = try JSONField(root).elements()
        } catch {
            report(FieldError(path: .root, offset: 0, message: "expected an array of tips"))
            return nil
        }
        if elements.isEmpty { report(FieldError(path: .root, offset: root.offset, message: "the tips file holds no tips")) }
        if elements.count > maxTips { report(FieldError(path: .root, offset: root.offset, message: "more than \(maxTips) tips")) }

        var tips: [Tip] = []
        var seenTitles: [String: Int] = [:]
        var seenIds: [String: Int] = [:]
        // A misspelt field is a warning, as in the exports: "subtitel" must not pass silently.
        let notes = ExportNotes()
        defer { notes.report(to: log, source: { SourceRef(file: file, offset: $0, index: lines) }) }
        var failingTips = 0
        for (index, element) in elements.enumerated() {
            var reading = readTip(element, notes: notes)
            // A title or id is claimed even by a tip with other problems: fixing those must
            // not bring up a duplicate that could have been named in the same run.
            var titleIsDuplicate = false
            if case let (titleField, title)? = reading.title {
                let normalised = title.lowercased().filter { $0.isLetter || $0.isNumber }
                if let first = seenTitles[normalised] {
                    reading.errors.append(titleField.error("duplicate tip: the same title as tip [\(first)]"))
                    titleIsDuplicate = true
                } else {
                    seenTitles[normalised] = index
                }
            }
            if case let (idField, id, isExplicit)? = reading.id {
                if let first = seenIds[id] {
                    // An id made from a title already named as a duplicate says nothing more.
                    if isExplicit || !titleIsDuplicate {
                        reading.errors.append(idField.error("duplicate tip id \"\(id)\": also used by tip [\(first)]"))
                    }
                } else {
                    seenIds[id] = index
                }
            }
            guard !reading.errors.isEmpty else {
                if let tip = reading.tip { tips.append(tip) }
                continue
            }
            // Every problem of a tip in one run, within the exports' bounds: up to ten a tip,
            // for the first 100 failing tips; past them, each tip's first.
            failingTips += 1
            let errors = reading.errors.sorted { $0.offset < $1.offset }
            let shown = failingTips <= ExportLoader.recordsSearchedForMore ? ExportLoader.laterErrorsPerRecord + 1 : 1
            errors.prefix(shown).forEach(report)
        }
        return TipCatalog(tips: tips)
    }

    /// One tip of a tips file: each field read on its own, so that a tip with an unknown
    /// category, an empty title and an empty subtitle shows all three in one run (it took
    /// three). `tip` is nil when there is any error; `title` and `id` are what the
    /// duplicate checks need, when they could be read.
    private static func readTip(_ element: JSONField, notes: ExportNotes)
        -> (tip: Tip?, title: (JSONField, String)?, id: (field: JSONField, id: String, isExplicit: Bool)?, errors: [FieldError]) {
        let fields: JSONFields
        do throws(FieldError) {
            fields = try element.object()
        } catch {
            return (nil, nil, nil, [error])
        }
        for member in fields.object.members where !RecordSchema.tip.known.contains(member.key) {
            notes.unknownField(member.key, at: JSONField(member.value, path: element.path.appending(member.key)), schema: .tip)
        }
        // Every missing field at once, in one error; the fields that are there are still read.
        var errors = ExportDecoder.missingFields(in: element, .tip)
        /// The member `key` read by `read`, or nil when it is missing (named above) or bad.
        func field<Value>(_ key: String, _ read: (JSONField) throws(FieldError) -> Value) -> (JSONField, Value)? {
            guard fields.object[key] != nil else { return nil }
            do throws(FieldError) {
                let member = try fields.required(key)
                return (member, try read(member))
            } catch {
                errors.append(error)
                return nil
            }
        }
        func text(_ key: String, limit: Int) -> (JSONField, String)? {
            field(key) { (member) throws(FieldError) in
                let value = try member.text()
                if value.utf8.count > limit { throw member.error("is \(value.utf8.count) bytes long; the limit is \(limit)") }
                return value
            }
        }
        let category = field("category") { (member) throws(FieldError) in
            let name = try member.string()
            guard let category = TipCategory(rawValue: name) else {
                throw member.error("unknown category \"\(name)\"; expected one of: \(TipCategory.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return category
        }
        let title = text("title", limit: 120)
        let subtitle = text("subtitle", limit: 300)
        let icon = text("icon", limit: 32)
        var id: (field: JSONField, id: String, isExplicit: Bool)?
        if fields.optional("id") != nil {
            id = field("id") { (member) throws(FieldError) in try member.text() }.map { ($0.0, $0.1, true) }
        } else if case let (titleField, title)? = title {
            id = (titleField, slug(title), false)
        }
        guard errors.isEmpty, let category, let title, let subtitle, let icon, let id else {
            return (nil, title, id, errors)
        }
        return (Tip(id: id.id, category: category.1, icon: icon.1, title: title.1, subtitle: subtitle.1), title, id, errors)
    }
}
