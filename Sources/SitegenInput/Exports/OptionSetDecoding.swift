import Foundation
import SitegenCore
import SitegenModel

/// Decoding trip-option sets (docs/exports.md).
extension ExportDecoder {
    // MARK: Trip-option sets (docs/exports.md)

    /// Decodes an option set; its slug is derived from the id, else the title
    /// (`OptionSetSlug.address`). An id published at another address is a warning at the id.
    public func optionSet(_ field: JSONField, source: SourceRef) throws(FieldError) -> TripOptionSet {
        let fields = try record(field, .optionSet)
        var id: (text: String, field: JSONField)?
        if let idField = fields.optional("id") {
            let text = try idField.string()
            guard text.utf8.count <= Self.maxTextBytes else {
                throw idField.error("is \(text.utf8.count) bytes long; the limit is \(Self.maxTextBytes)")
            }
            // A blank id is no id: the title names the set instead.
            if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { id = (text, idField) }
        }
        let titleField = try fields.required("title")
        let title = try plainText(titleField)
        let (slug, origin) = OptionSetSlug.address(id: id?.text, title: title)
        var warnings: [Diagnostic] = []
        if let id, let message = OptionSetSlug.rewrittenId(id.text, shown: id.field.describeValue(), slug: slug, origin: origin) {
            warnings.append(self.source(of: id.field, within: source).diagnostic(.warning, field: id.field.path.description, message,
                summary: "option set ids published at another address"))
        }
        let madeFrom = (origin == .id ? id?.field : nil) ?? titleField
        return TripOptionSet(
            id: id?.text,
            title: title,
            generatedAt: try fields.optional("generatedAt").map { (f) throws(FieldError) in try recordTime(f) },
            trips: try fields.required("options").array { (f) throws(FieldError) in try trip(f) },
            slug: slug,
            source: source,
            addressLocation: location(of: madeFrom, within: source),
            warnings: warnings
        )
    }
}
