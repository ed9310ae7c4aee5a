import CCairo
import SitegenCore

extension PreviewCard {
    /// Raise when the drawing or the encoding of cards changes (layout, sizes, fonts, PNG
    /// encoder): every card's digest changes with it, so no card drawn by older code is kept.
    package static let drawingVersion = 2

    /// What a card's pixels and bytes depend on besides its value: the drawing code's version,
    /// the size, the colours, and the versions of cairo and zlib that draw and compress it.
    package static var drawingCode: String {
        let colours = CardDrawing.Colour.all.map { String($0, radix: 16) }.joined(separator: ",")
        return "sitegen cards \(drawingVersion); \(width)x\(height); colours \(colours); cairo \(String(cString: cairo_version_string())); zlib \(String(cString: zlibVersion()))"
    }

    /// A digest of exactly what the card shows and what draws it: equal digests mean the same
    /// PNG bytes, so a rebuild can keep a card whose digest it recorded last time instead of
    /// drawing it again (issue #16). Stable across runs and machines with the same packages.
    public var digest: ContentHash {
        digest(drawingCode: Self.drawingCode)
    }

    /// The digest with `drawingCode` in place of this machine's (tests pin values with it).
    package func digest(drawingCode: String) -> ContentHash {
        let encoder = CanonicalBytes()
        encoder.string(drawingCode)
        switch self {
        case .poll(let card):
            encoder.string("poll")
            encoder.string(card.title)
            encoder.string(card.siteTitle)
            encoder.string(card.voters)
            encoder.optional(card.tie, encoder.string)
            encoder.count(card.rows.count)
            for row in card.rows {
                encoder.optional(row.rank, encoder.string)
                encoder.string(row.name)
                encoder.optional(row.points, encoder.string)
                encoder.optional(row.share, encoder.double)
                encoder.bool(row.isFirst)
                encoder.bool(row.tied)
            }
            encoder.optional(card.more, encoder.string)
        case .trip(let card):
            encoder.string("trip")
            encoder.string(card.name)
            encoder.string(card.siteTitle)
            encoder.string(card.dates)
            encoder.string(card.games)
            encoder.string(card.miles)
            encoder.string(card.cities)
            encoder.optional(card.route) { route in
                encoder.count(route.points.count)
                for point in route.points {
                    encoder.string(point.marker)
                    encoder.string(point.name)
                    encoder.double(point.x)
                    encoder.double(point.y)
                    encoder.bool(point.labelOnLeft)
                    encoder.double(point.labelDy)
                }
            }
        }
        return ContentHash(of: encoder.bytes)
    }
}

/// A value's fields as bytes that cannot be confused with another value's: strings carry
/// their length, optionals a presence byte, numbers a fixed width and byte order.
private final class CanonicalBytes {
    private(set) var bytes: [UInt8] = []

    func count(_ value: Int) {
        withUnsafeBytes(of: UInt64(value).bigEndian) { bytes += $0 }
    }

    func string(_ value: String) {
        count(value.utf8.count)
        bytes += value.utf8
    }

    func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.bigEndian) { bytes += $0 }
    }

    func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    func optional<Value>(_ value: Value?, _ write: (Value) -> Void) {
        bytes.append(value == nil ? 0 : 1)
        if let value { write(value) }
    }
}
