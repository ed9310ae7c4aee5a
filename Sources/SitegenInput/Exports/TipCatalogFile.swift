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
            log.error(shown, "cannot read the tips file: it is missing or not a regular file")
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
        for element in elements {
            do throws(FieldError) {
                let fields = try element.object()
                for member in fields.object.members where !RecordSchema.tip.known.contains(member.key) {
                    notes.unknownField(member.key, at: JSONField(member.value, path: element.path.appending(member.key)), schema: .tip)
                }
                // Every missing field at once, not one per build.
                if let missing = ExportDecoder.missingFields(in: element, .tip).first { throw missing }
                let categoryField = try fields.required("category")
                let categoryName = try categoryField.string()
                guard let category = TipCategory(rawValue: categoryName) else {
                    throw categoryField.error("unknown category \"\(categoryName)\"; expected one of: \(TipCategory.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                let titleField = try fields.required("title")
                let title = try titleField.text()
                let subtitle = try fields.required("subtitle").text()
                let icon = try fields.required("icon").text()
                for (name, value, limit) in [("title", title, 120), ("subtitle", subtitle, 300), ("icon", icon, 32)] where value.utf8.count > limit {
                    throw try fields.required(name).error("is \(value.utf8.count) bytes long; the limit is \(limit)")
                }
                let id = try fields.optional("id")?.text() ?? slug(title)
                let normalised = title.lowercased().filter { $0.isLetter || $0.isNumber }
                if let first = seenTitles[normalised] {
                    throw titleField.error("duplicate tip: the same title as tip [\(first)]")
                }
                if let first = seenIds[id] {
                    throw (fields.optional("id") ?? titleField).error("duplicate tip id \"\(id)\": also used by tip [\(first)]")
                }
                let index = tips.count
                seenTitles[normalised] = index
                seenIds[id] = index
                tips.append(Tip(id: id, category: category, icon: icon, title: title, subtitle: subtitle))
            } catch {
                report(error)
            }
        }
        return TipCatalog(tips: tips)
    }
}
