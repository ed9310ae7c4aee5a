import CCairo
import Foundation

/// Lines of a card's text that cairo's toy text calls cannot draw right, laid out by Pango:
/// emoji, scripts DejaVu Sans does not have (CJK, Arabic, Hebrew, Devanagari, …), text that
/// must be shaped (Arabic joins its letters, combining marks sit on their letters) or that
/// runs right to left. The toy calls draw each character with DejaVu Sans's glyph, or a
/// box where it has none, in the order the characters come; Pango picks a font that has
/// each character (fontconfig's fallback: Debian's Noto fonts, Noto Color Emoji), shapes
/// it with HarfBuzz and orders it by the Unicode bidirectional algorithm, as a browser
/// does on the page.
///
/// Nearly every line is Latin and keeps the toy calls (`CardText.needsShaping`): Pango's
/// layout alone takes 17 µs for a Latin title and 60 µs for a shaped one (docs/libraries.md),
/// and every card drawn before keeps its bytes. A shaped line is
/// drawn once, at layout time, into an image of its own (`Sprite`) that the card's steps
/// paint where it goes, at a whole-pixel offset, so its pixels are the same in whichever
/// band of rows paints them.
///
/// Pango, fontconfig and the scaled fonts they make are used under the lock every card's
/// glyphs are (`GlyphLock`): cairo 1.16's glyph cache is shared by every scaled font and
/// not safe to fill from two threads, and Pango's objects are not shared between threads.
package enum ShapedText {
    /// A shaped line drawn into an ARGB image, and where on the card its top-left pixel goes.
    final class Sprite: @unchecked Sendable {
        let surface: OpaquePointer
        let left: Int, top: Int, width: Int, height: Int
        /// Whether the line has glyphs of a colour font (emoji: `hasColourGlyphs`).
        let inColour: Bool

        fileprivate init(surface: OpaquePointer, left: Int, top: Int, width: Int, height: Int, inColour: Bool) {
            (self.surface, self.left, self.top, self.width, self.height) = (surface, left, top, width, height)
            self.inColour = inColour
        }

        deinit { cairo_surface_destroy(surface) }

        /// Paints the line onto `cairo`'s surface (card coordinates, translated by whole rows).
        func paint(on cairo: OpaquePointer) {
            cairo_set_source_surface(cairo, surface, Double(left), Double(top))
            cairo_rectangle(cairo, Double(left), Double(top), Double(width), Double(height))
            cairo_fill(cairo)
        }
    }

    /// The advance width of `text` (drawable) as Pango lays it out, unshortened.
    static func width(_ text: String, size: Double, bold: Bool) -> Double {
        Pango.shared.withLayout(text, size: size, bold: bold, maxWidth: nil) { layout in
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            return Double(logical.width) / Double(PANGO_SCALE)
        }
    }

    /// `text` (drawable) shortened with "…" to `maxWidth` where it is longer, its baseline
    /// starting at (`x`, `y`) or centred on `x`, with `halo` drawn around it, drawn into a
    /// sprite. Returns the sprite (nil for a line with nothing to draw) and where the line ends.
    static func draw(_ text: String, x: Double, y: Double, size: Double, bold: Bool, colour: UInt32, maxWidth: Double,
                     centred: Bool, halo: (width: Double, colour: UInt32)?) -> (sprite: Sprite?, end: Double) {
        Pango.shared.withLayout(text, size: size, bold: bold, maxWidth: maxWidth) { layout in
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let scale = Double(PANGO_SCALE)
            let width = Double(logical.width) / scale
            let startX = centred ? x - width / 2 : x
            // The layout's top-left corner, from the first line's baseline. A line that reads
            // right to left keeps its direction (a Hebrew question ends in "?" on its left)
            // but not Pango's alignment to the right of the width: it starts at `startX`, as
            // every line of a card does.
            let originX = startX - Double(logical.x) / scale
            let baseline = pango_layout_get_baseline(layout)
            let originY = y - Double(baseline) / scale
            let reach = (halo?.width ?? 0) / 2
            // Ink, halo and a pixel of antialiasing either side, on whole pixels, within the
            // line's box and the card: marks stacked hundreds high on one letter reach far
            // beyond both, across the lines and shapes around it.
            let box = CardText.lineBox(x: startX, width: width, baseline: y, ascent: Double(baseline - logical.y) / scale,
                                       descent: Double(logical.y + logical.height - baseline) / scale, size: size, reach: reach)
            let left = max((originX + Double(ink.x) / scale - reach - 1).rounded(.down), box.left)
            let top = max((originY + Double(ink.y) / scale - reach - 1).rounded(.down), box.top)
            let right = min((originX + Double(ink.x + ink.width) / scale + reach + 1).rounded(.up), box.right)
            let bottom = min((originY + Double(ink.y + ink.height) / scale + reach + 1).rounded(.up), box.bottom)
            guard ink.width > 0, ink.height > 0, [left, top, right, bottom].allSatisfy(\.isFinite),
                  right > left, bottom > top else {
                return (nil, startX + width)
            }
            let spriteWidth = Int32(right - left), spriteHeight = Int32(bottom - top)
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, spriteWidth, spriteHeight)!
            let cairo = cairo_create(surface)!
            defer { cairo_destroy(cairo) }
            let atX = originX - left, atY = originY - top
            if let halo {
                // The page strokes a route label's outline (`.route-label-halo`); as for the
                // toy text (CardDrawing), the line's shape is painted in the halo's colour
                // eight times around it, here through a mask, so that emoji, which keep
                // their own colours, give a halo of their outline and not eight emoji.
                let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, spriteWidth, spriteHeight)!
                defer { cairo_surface_destroy(mask) }
                let maskCairo = cairo_create(mask)!
                cairo_move_to(maskCairo, atX, atY)
                pango_cairo_show_layout(maskCairo, layout)
                cairo_destroy(maskCairo)
                cairo_surface_flush(mask)
                setColour(cairo, halo.colour)
                for step in 0..<8 {
                    let angle = Double(step) * .pi / 4
                    cairo_mask_surface(cairo, mask, cos(angle) * reach, sin(angle) * reach)
                }
            }
            setColour(cairo, colour)
            cairo_move_to(cairo, atX, atY)
            pango_cairo_show_layout(cairo, layout)
            cairo_surface_flush(surface)
            let sprite = Sprite(surface: surface, left: Int(left), top: Int(top), width: Int(spriteWidth), height: Int(spriteHeight),
                                inColour: hasColourGlyphs(layout))
            return (sprite, startX + width)
        }
    }

    /// Whether any glyph `layout` shows (after shortening) comes from a colour font: colour
    /// bitmaps (Noto Color Emoji's CBDT, or sbix) or colour layers (COLR). Such a glyph brings
    /// colours of its own, not blends of the card's: the card is written in truecolour
    /// (`PalettePNG.Encoder.begin`).
    static func hasColourGlyphs(_ layout: OpaquePointer) -> Bool {
        for index in 0..<pango_layout_get_line_count(layout) {
            guard let line = pango_layout_get_line_readonly(layout, index) else { continue }
            var node = line.pointee.runs
            while let run = node {
                if let item = run.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item,
                   let font = item.pointee.analysis.font, let hbFont = pango_font_get_hb_font(font),
                   let face = hb_font_get_face(hbFont),
                   hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0 {
                    return true
                }
                node = run.pointee.next
            }
        }
        return false
    }

    /// Whether `text` (drawable), laid out on one line, has glyphs of a colour font.
    package static func hasColourGlyphs(_ text: String, size: Double = 32, bold: Bool = false) -> Bool {
        Pango.shared.withLayout(text, size: size, bold: bold, maxWidth: nil) { hasColourGlyphs($0) }
    }

    /// How many of `text`'s characters no installed font has a glyph for (drawn as boxes).
    package static func missingGlyphs(_ text: String, bold: Bool = false) -> Int {
        Pango.shared.withLayout(text, size: 32, bold: bold, maxWidth: nil) { layout in
            Int(pango_layout_get_unknown_glyphs_count(layout))
        }
    }

    /// At most the first 1,000 characters and 4,000 scalars of `text`: more than any line of
    /// a card shows (a character is at least a few pixels wide), and Pango shapes a whole
    /// line before shortening it, so an export's megabyte of title is not shaped whole.
    package static func capped(_ text: String) -> String {
        var text = text.count > 1_000 ? String(text.prefix(1_000)) : text
        if text.unicodeScalars.count > 4_000 {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(4_000)))
        }
        return text
    }

    private static func setColour(_ cairo: OpaquePointer, _ rgb: UInt32) {
        cairo_set_source_rgb(cairo, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255)
    }
}

/// Pango's font map and context, made once and used under `GlyphLock` (ShapedText).
private final class Pango: @unchecked Sendable {
    static let shared = Pango()
    private let context: OpaquePointer
    private let regular: OpaquePointer, bold: OpaquePointer

    private init() {
        // A font map of our own, not the thread's default: one font map, one context.
        let map = pango_cairo_font_map_new()!
        context = pango_font_map_create_context(map)!
        // The options every card is drawn with (grey antialiasing, no hinting), whatever
        // the machine's fontconfig says; glyphs placed where the font puts them, not
        // rounded to whole pixels, as the toy text places them.
        pango_cairo_context_set_font_options(context, CardDrawing.fontOptions)
        pango_context_set_round_glyph_positions(context, 0)
        regular = pango_font_description_from_string("DejaVu Sans")!
        bold = pango_font_description_from_string("DejaVu Sans Bold")!
    }

    /// Lays out `text` on one line at `size` pixels, shortened with "…" at the end to
    /// `maxWidth` when given, and hands the layout to `body` under the lock.
    func withLayout<Result>(_ text: String, size: Double, bold: Bool, maxWidth: Double?,
                            _ body: (OpaquePointer) -> Result) -> Result {
        let text = ShapedText.capped(text)
        return GlyphLock.shared.withLock {
            let layout = pango_layout_new(context)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let description = bold ? self.bold : regular
            pango_font_description_set_absolute_size(description, Self.units(size) ?? Double(PANGO_SCALE))
            pango_layout_set_font_description(layout, description)
            pango_layout_set_single_paragraph_mode(layout, 1)
            pango_layout_set_text(layout, text, -1)
            if let maxWidth, let units = Self.units(maxWidth) {
                pango_layout_set_width(layout, Int32(max(units, 0)))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            }
            return body(layout)
        }
    }

    /// `value` pixels in Pango's units, when it is a number they can hold.
    private static func units(_ value: Double) -> Double? {
        let units = (value * Double(PANGO_SCALE)).rounded()
        return units.isFinite && abs(units) < Double(Int32.max) ? units : nil
    }
}
