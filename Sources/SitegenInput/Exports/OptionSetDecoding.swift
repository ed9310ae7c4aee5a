import Foundation
import SitegenCore
import SitegenModel

/// Decoding trip-option sets (docs/exports.md).
extension ExportDecoder {
    // MARK: Trip-option sets (docs/exports.md)

    /// Decodes an option set; its slug is derived from the id, else the title
    /// (`OptionSetSlug.address`).
    public func optionSet(_ field: JSONField, source: SourceRef) throws(FieldError) -> TripOptionSet {
        let fields = try record(field, .optionSet)
        var id: String?
        if let idField = fields.optional("id") {
            let text = try idField.string()
            guard text.utf8.count <= Self.maxTextBytes else {
                throw idField.error("is \(text.utf8.count) bytes long; the limit is \(Self.maxTextBytes)")
            }
            // A blank id is no id: the title names the set instead.
            if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { id = text }
        }
        let title = try plainText(try fields.required("title"))
        return TripOptionSet(
            id: id,
            title: title,
            generatedAt: try fields.optional("generatedAt").map { (f) throws(FieldError) in try date(f) },
            trips: try fields.required("options").array { (f) throws(FieldError) in try trip(f) },
            slug: OptionSetSlug.address(id: id, title: title).slug,
            source: source
        )
    }
}
