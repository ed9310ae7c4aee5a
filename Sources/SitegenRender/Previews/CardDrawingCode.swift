import CCairo
import SitegenCore

extension PreviewCard {
    /// Raise when the drawing or the encoding of cards changes (layout, sizes, fonts, PNG
    /// encoder): it is part of every key (BuildFingerprint), so no card drawn by older code is kept.
    package static let drawingVersion = 9

    /// What a card's pixels and bytes depend on besides its value: the drawing code's version,
    /// the size, the colours, and the versions of cairo and Pango that draw it (the PNG
    /// encoder is sitegen's own, RunDeflate). An upgrade of either leaves the sitegen binary
    /// as it was, so BuildFingerprint hashes this too: a rebuild after one then draws every
    /// card again.
    package static var drawingCode: String {
        let colours = CardDrawing.Colour.all.map { String($0, radix: 16) }.joined(separator: ",")
        return "sitegen cards \(drawingVersion); \(width)x\(height); colours \(colours); cairo \(String(cString: cairo_version_string()))"
            + "; pango \(String(cString: pango_version_string()))"
    }
}
