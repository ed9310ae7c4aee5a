import CCairo
import Foundation
import SitegenModel

/// Lays a PreviewCard out for a 1200×630 cairo surface in the site's light-theme colours
/// (Templates/assets/site.css), as a CardPicture that can be drawn whole or a band of rows
/// at a time (PreviewImage). Text is drawn with cairo's toy font API in DejaVu Sans
/// (Debian's fonts-dejavu-core, found through fontconfig), unhinted and with grey
/// antialiasing whatever the machine's fontconfig says, so the pixels depend only on the
/// installed packages.
package enum CardDrawing {
    /// Colours of site.css's light theme, as 0xRRGGBB.
    package enum Colour {
        package static let surface: UInt32 = 0xFFFFFF
        package static let background: UInt32 = 0xF6F7F9
        package static let text: UInt32 = 0x1C2330
        package static let muted: UInt32 = 0x566072
        package static let border: UInt32 = 0xD9DEE7
        package static let accent: UInt32 = 0x0B5CAD
        package static let accentText: UInt32 = 0xFFFFFF
        package static let barTrack: UInt32 = 0xE4E8EF
        package static let bar: UInt32 = 0x1F7A4D
        package static let barFirst: UInt32 = 0x0B5CAD
        package static let gold: UInt32 = 0x8A5A00
        package static let goldSoft: UInt32 = 0xFFF1CC
        /// `surface` first: the encoder takes the first flat colour as the background whose
        /// complement it records as ink, and PreviewImage clears that ink to `surface`.
        package static let all = [surface, background, text, muted, border, accent, accentText, barTrack, bar, barFirst, gold, goldSoft]
    }

    package static let margin = 64.0
    package static var right: Double { Double(PreviewCard.width) - margin }

    /// Draws `card` onto `surface` (CAIRO_FORMAT_RGB24, PreviewCard.width × height) whole,
    /// first painting it in the background colour unless `isBlank` says it already is.
    /// Returns the card's layout.
    @discardableResult
    package static func draw(_ card: PreviewCard, on surface: OpaquePointer, isBlank: Bool = false) -> CardPicture {
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        prepare(cairo)
        let picture = layout(card, measuringWith: cairo)
        if !isBlank {
            cairo_set_source_rgb(cairo, 1, 1, 1)  // Colour.surface
            cairo_rectangle(cairo, 0, 0, Double(PreviewCard.width), Double(PreviewCard.height))
            cairo_fill(cairo)
        }
        picture.draw(rows: 0..<PreviewCard.height, with: cairo)
        return picture
    }

    /// The font options every card's text is drawn and measured with (Fonts), shaped lines too.
    static var fontOptions: OpaquePointer { Fonts.shared.options }

    /// Whether `font` is one of the scaled fonts cards have used, kept for the process (Fonts).
    package static func keepsForever(_ font: OpaquePointer) -> Bool {
        Fonts.shared.keeps(font)
    }

    /// Sets the fonts' options every card is drawn and measured with.
    package static func prepare(_ cairo: OpaquePointer) {
        cairo_set_font_options(cairo, Fonts.shared.options)
    }

    /// Lays `card` out: its drawing steps, with text measured and shortened once, using
    /// `cairo` (prepared) to measure.
    package static func layout(_ card: PreviewCard, measuringWith cairo: OpaquePointer) -> CardPicture {
        // cairo_text_extents measures from the current point: its advance is (start + the
        // glyphs' advances) − start, which rounds differently from another start. A canvas's
        // context still has the current point its last card's last line left, so without
        // this a card's text measured a hair differently after some cards than after others,
        // and on 1 of 100 itinerary cards a route label's first glyph landed a pixel over
        // (Benchmarks/CardBench `--check`): a card's bytes depended on the cards drawn before
        // it on that thread. With no current point, text is measured from (0, 0).
        cairo_new_path(cairo)
        let context = Context(cairo: cairo)
        context.fill(0, 0, Double(PreviewCard.width), 14, Colour.accent)
        switch card {
        case .poll(let poll): drawPoll(poll, context)
        case .trip(let trip): drawTrip(trip, context)
        }
        return CardPicture(steps: context.steps, inColour: context.inColour)
    }

    /// The title's sizes, largest first: a title too wide for the card at one is drawn at the
    /// next before it is cut with "…" at the last ("Fenway, Cooperstown & the Bronx" lost its
    /// last letters at 58 px, and fits at 54). Still legible when a chat shows the card 300 px
    /// wide (10.5 px at the smallest). A few fixed sizes: every scaled font is kept (GlyphLock).
    static let titleSizes: [Double] = [58, 54, 50, 46, 42]

    /// The largest of `titleSizes` at which a title `width(size)` wide fits the card, else the smallest.
    package static func titleSize(width: (Double) -> Double) -> Double {
        titleSizes.first { width($0) <= right - margin } ?? titleSizes.last!
    }

    /// `titleSize` for `title` as `cairo` (prepared) measures it.
    package static func titleSize(_ title: String, measuringWith cairo: OpaquePointer) -> Double {
        let context = Context(cairo: cairo)
        return titleSize { context.width(title, size: $0, bold: true) }
    }

    /// Eyebrow, title, subtitle and the site's name at the foot: the frame both cards share.
    /// Returns where the subtitle ends, for what follows it on its line.
    private static func drawHeader(eyebrow: String, title: String, subtitle: String, siteTitle: String, _ context: Context) -> Double {
        context.text(eyebrow, x: margin, y: 78, size: 28, colour: Colour.muted, maxWidth: right - margin)
        let size = titleSize { context.width(title, size: $0, bold: true) }
        context.text(title, x: margin, y: 148, size: size, bold: true, colour: Colour.text, maxWidth: right - margin)
        context.text(siteTitle, x: margin, y: 602, size: 26, colour: Colour.muted, maxWidth: 640)
        return context.text(subtitle, x: margin, y: 204, size: 32, colour: Colour.muted, maxWidth: right - margin - 260)
    }

    private static func drawPoll(_ card: PreviewCard.PollCard, _ context: Context) {
        let votersEnd = drawHeader(eyebrow: "Poll results", title: card.title, subtitle: card.voters,
                                   siteTitle: card.siteTitle, context)
        if let tie = card.tie {
            context.pill(tie, x: votersEnd + 20, baseline: 204, size: 28, colour: Colour.gold, fill: Colour.goldSoft)
        }
        let top = 240.0, rowHeight = 76.0
        for (index, row) in card.rows.enumerated() {
            let y = top + Double(index) * rowHeight
            guard let points = row.points, let rank = row.rank, let share = row.share else {
                // Nobody has voted: the trips as a plain list, no ranks and no bars (as the page).
                context.circle(x: margin + 8, y: y + 26, radius: 7, colour: Colour.muted)
                context.text(row.name, x: margin + 32, y: y + 38, size: 36, bold: true, colour: Colour.text, maxWidth: right - margin - 32)
                continue
            }
            let badgeWidth = 96.0, nameX = margin + badgeWidth + 20
            context.roundedRect(margin, y + 4, badgeWidth, 44, radius: 22, colour: row.isFirst ? Colour.barFirst : Colour.barTrack)
            context.text(rank, x: margin + badgeWidth / 2, y: y + 37, size: 28, bold: true,
                         colour: row.isFirst ? Colour.accentText : Colour.text, maxWidth: badgeWidth - 8, centred: true)
            let pointsWidth = context.width(points, size: 32, bold: false)
            let tiedWidth = row.tied ? context.pillWidth("Tied", size: 24) + 16 : 0
            let nameEnd = context.text(row.name, x: nameX, y: y + 38, size: 36, bold: true, colour: Colour.text,
                                       maxWidth: right - nameX - pointsWidth - tiedWidth - 24)
            if row.tied {
                context.pill("Tied", x: nameEnd + 16, baseline: y + 36, size: 24, colour: Colour.gold, fill: Colour.goldSoft)
            }
            context.text(points, x: right - pointsWidth, y: y + 38, size: 32, colour: Colour.muted, maxWidth: pointsWidth)
            let barWidth = right - nameX
            context.roundedRect(nameX, y + 52, barWidth, 14, radius: 7, colour: Colour.barTrack)
            if share > 0 {
                // A whole number of pixels long, like the track: drawn from the track's end masks.
                context.roundedRect(nameX, y + 52, max(14, (barWidth * min(share, 1)).rounded()), 14, radius: 7,
                                    colour: row.isFirst ? Colour.barFirst : Colour.bar)
            }
        }
        if let more = card.more {
            let width = context.width(more, size: 26, bold: false)
            context.text(more, x: right - width, y: 602, size: 26, colour: Colour.muted, maxWidth: width)
        }
    }

    private static func drawTrip(_ card: PreviewCard.TripCard, _ context: Context) {
        _ = drawHeader(eyebrow: "Itinerary", title: card.name, subtitle: card.dates, siteTitle: card.siteTitle, context)
        for (index, line) in [card.games, card.miles, card.cities].enumerated() {
            context.text(line, x: margin, y: 300 + Double(index) * 72, size: 44, bold: true, colour: Colour.text, maxWidth: 420)
        }
        guard let route = card.route else { return }
        // The page's route picture, scaled into the right-hand box: stops, numbers and names
        // keep the places RoutePicture and RouteLabels chose for them.
        let box = (x: 530.0, y: 236.0, width: right - 530, height: 330.0)
        context.roundedRect(box.x, box.y, box.width, box.height, radius: 16, colour: Colour.background)
        let scale = min(box.width / RoutePicture.width, box.height / RoutePicture.height)
        let originX = box.x + (box.width - RoutePicture.width * scale) / 2
        let originY = box.y + (box.height - RoutePicture.height * scale) / 2
        let points = route.points.map { (x: originX + $0.x * scale, y: originY + $0.y * scale) }
        context.polyline(points, width: 3 * scale, colour: Colour.accent)
        for (point, stop) in zip(points, route.points) {
            context.circle(x: point.x, y: point.y, radius: 11 * scale, colour: Colour.accent, ring: (2 * scale, Colour.background))
            context.text(stop.marker, x: point.x, y: point.y + 4.5 * scale, size: 13 * scale, bold: true,
                         colour: Colour.accentText, maxWidth: 20 * scale, centred: true)
            guard stop.labelShown else { continue }
            let labelX = point.x + stop.labelDx * scale
            let labelY = point.y + (5 + stop.labelDy) * scale
            let size = 16 * scale
            let available = stop.labelOnLeft ? labelX - box.x - 8 : box.x + box.width - 8 - labelX
            let width = min(context.width(stop.name, size: size, bold: true), max(available, 0))
            context.text(stop.name, x: stop.labelOnLeft ? labelX - width : labelX, y: labelY, size: size, bold: true,
                         colour: Colour.text, maxWidth: width, halo: (4 * scale, Colour.background))
        }
    }
}

/// A card laid out: its drawing steps in order, each with the rows its pixels can reach, so
/// a card can be drawn a band of rows at a time (PreviewImage) with the same pixels as whole.
package struct CardPicture {
    package struct Step {
        /// Rows and columns the step's pixels can reach (antialiasing included).
        package let rows: Range<Int>, columns: Range<Int>
        /// Text is never cut by a band's edge: cairo composites glyphs that cross a surface's
        /// edge another way, which rounds a few of their pixels differently.
        package let isText: Bool
        let draw: (OpaquePointer) -> Void
    }

    package let steps: [Step]
    /// Whether the card has colour glyphs (emoji, `ShapedText.hasColourGlyphs`): colours of
    /// their own that a palette does not hold, so it is written in truecolour.
    package let inColour: Bool

    /// Draws the steps that reach `rows` onto `cairo`'s surface, whose first row is `rows`'s
    /// first; returns the row after the last one they can reach, which may be past `rows`
    /// (a shape that goes on into the next band is drawn whole on this surface).
    @discardableResult
    package func draw(rows: Range<Int>, with cairo: OpaquePointer) -> Int {
        cairo_save(cairo)
        cairo_translate(cairo, 0, -Double(rows.lowerBound))
        var reached = rows.lowerBound
        for step in steps where step.rows.overlaps(rows) {
            step.draw(cairo)
            reached = max(reached, step.rows.upperBound)
        }
        cairo_restore(cairo)
        return reached
    }

    /// Per row of the card, the columns its steps can reach (empty where none does), for
    /// the encoder to read only those (`PalettePNG.Encoder.drawn`).
    package func drawnColumns(into columns: UnsafeMutablePointer<PalettePNG.Encoder.Span>, height: Int) {
        columns.update(repeating: .init(start: Int32.max, end: 0), count: height)
        for step in steps where !step.columns.isEmpty {
            let start = Int32(step.columns.lowerBound), end = Int32(step.columns.upperBound)
            for y in step.rows.clamped(to: 0..<height) {
                columns[y].start = min(columns[y].start, start)
                columns[y].end = max(columns[y].end, end)
            }
        }
    }

    /// Bands of at most `maxRows` rows, top to bottom over `height` rows, whose edges cut no
    /// text; nil when a line of text, or lines that overlap, are taller than `maxRows`.
    package func bands(maxRows: Int, height: Int) -> [Range<Int>]? {
        let text = steps.filter(\.isText).map(\.rows)
        var bands: [Range<Int>] = [], top = 0
        while top < height {
            var bottom = min(top + maxRows, height)
            while let cut = text.first(where: { $0.lowerBound < bottom && $0.upperBound > bottom }) {
                guard cut.lowerBound > top else { return nil }
                bottom = cut.lowerBound
            }
            bands.append(top..<bottom)
            top = bottom
        }
        return bands
    }
}

/// Lays out with the card's fonts and the few shapes the cards use: measures with cairo now,
/// and records each shape as a step to draw later. Every step sets the state it draws with
/// (colour, font, line width, join and cap) as drawing the steps in order would leave it, so
/// a band that draws only some of them draws them the same.
private final class Context {
    let cairo: OpaquePointer
    private(set) var steps: [CardPicture.Step] = []
    /// Whether a line drawn has glyphs of a colour font.
    private(set) var inColour = false
    /// The line join and cap in effect, as drawing every step in order would leave them.
    private var join = CAIRO_LINE_JOIN_MITER, cap = CAIRO_LINE_CAP_BUTT

    init(cairo: OpaquePointer) {
        self.cairo = cairo
    }

    /// Records a step reaching rows `top`…`bottom` and columns `left`…`right` (in pixels,
    /// widened to whole pixels and two more either side for antialiasing). A bound that is
    /// not a number reaches the card's edge: such a step is then drawn in every band (and, if
    /// it is text, the card whole), and its rows are read whole.
    private func record(top: Double, bottom: Double, left: Double, right: Double, isText: Bool = false,
                        _ draw: @escaping (OpaquePointer) -> Void) {
        steps.append(CardPicture.Step(rows: Self.reach(top, bottom, within: PreviewCard.height),
                                      columns: Self.reach(left, right, within: PreviewCard.width), isText: isText, draw: draw))
    }

    private static func reach(_ low: Double, _ high: Double, within size: Int) -> Range<Int> {
        let size = Double(size)
        let low = low.isFinite ? min(max(low - 2, 0), size) : 0
        let high = high.isFinite ? min(max(high + 2, 0), size) : size
        let first = Int(low.rounded(.down)), last = Int(high.rounded(.up))
        return first..<max(first, last)
    }

    private static func setColour(_ cairo: OpaquePointer, _ rgb: UInt32) {
        cairo_set_source_rgb(cairo, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255)
    }

    func fill(_ x: Double, _ y: Double, _ width: Double, _ height: Double, _ colour: UInt32) {
        record(top: y, bottom: y + height, left: x, right: x + width) { cairo in
            Self.setColour(cairo, colour)
            cairo_rectangle(cairo, x, y, width, height)
            cairo_fill(cairo)
        }
    }

    func roundedRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double, colour: UInt32) {
        let radius = min(radius, width / 2, height / 2)
        record(top: y, bottom: y + height, left: x, right: x + width) { cairo in
            Self.setColour(cairo, colour)
            ShapeMasks.fillRoundedRect(cairo, x, y, width, height, radius: radius)
        }
    }

    func circle(x: Double, y: Double, radius: Double, colour: UInt32, ring: (width: Double, colour: UInt32)? = nil) {
        let reach = radius + (ring?.width ?? 0) / 2
        let (join, cap) = (join, cap)
        record(top: y - reach, bottom: y + reach, left: x - reach, right: x + reach) { cairo in
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, x, y, radius, 0, 2 * .pi)
            Self.setColour(cairo, colour)
            if let ring {
                cairo_fill_preserve(cairo)
                cairo_set_line_width(cairo, ring.width)
                cairo_set_line_join(cairo, join)
                cairo_set_line_cap(cairo, cap)
                Self.setColour(cairo, ring.colour)
                cairo_stroke(cairo)
            } else {
                cairo_fill(cairo)
            }
        }
    }

    func polyline(_ points: [(x: Double, y: Double)], width: Double, colour: UInt32) {
        guard points.count > 1 else { return }
        (join, cap) = (CAIRO_LINE_JOIN_ROUND, CAIRO_LINE_CAP_ROUND)
        // Round joins and caps: nothing reaches further than half the line's width from a
        // point. A point that is not a number makes every bound one (the card's edges): min
        // and max would pass over it.
        let finite = points.allSatisfy { $0.x.isFinite && $0.y.isFinite }
        let xs = points.map { finite ? $0.x : .nan }, ys = points.map { finite ? $0.y : .nan }
        record(top: ys.min()! - width / 2, bottom: ys.max()! + width / 2, left: xs.min()! - width / 2,
               right: xs.max()! + width / 2) { cairo in
            cairo_new_path(cairo)
            for (index, point) in points.enumerated() {
                if index == 0 { cairo_move_to(cairo, point.x, point.y) } else { cairo_line_to(cairo, point.x, point.y) }
            }
            cairo_set_line_width(cairo, width)
            cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
            Self.setColour(cairo, colour)
            cairo_stroke(cairo)
        }
    }

    private static func setFont(_ cairo: OpaquePointer, size: Double, bold: Bool) {
        cairo_set_font_face(cairo, bold ? Fonts.shared.bold : Fonts.shared.regular)
        cairo_set_font_size(cairo, size)
        Fonts.shared.keep(cairo_get_scaled_font(cairo))
    }

    /// The advance width of `text` as drawn.
    func width(_ text: String, size: Double, bold: Bool) -> Double {
        let line = CardText.drawable(text)
        if CardText.needsShaping(line) { return ShapedText.width(line, size: size, bold: bold) }
        return GlyphLock.shared.withLock {
            Self.setFont(cairo, size: size, bold: bold)
            return advance(line)
        }
    }

    private func advance(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        return extents.x_advance
    }

    /// Draws one line of text at baseline `y`, shortened with "…" to `maxWidth`; returns where it ends.
    @discardableResult
    func text(_ text: String, x: Double, y: Double, size: Double, bold: Bool = false, colour: UInt32, maxWidth: Double,
              centred: Bool = false, halo: (width: Double, colour: UInt32)? = nil) -> Double {
        var line = CardText.drawable(text)
        if CardText.needsShaping(line) {
            // Cut as a line without shaping is (after a word), not by Pango, which cuts anywhere.
            if ShapedText.width(line, size: size, bold: bold) > maxWidth {
                line = CardText.fitted(line, maxWidth: maxWidth) { ShapedText.width($0, size: size, bold: bold) }
            }
            let (sprite, end) = ShapedText.draw(line, x: x, y: y, size: size, bold: bold, colour: colour, maxWidth: maxWidth,
                                                centred: centred, halo: halo)
            // A sprite is painted at a whole-pixel offset, the same pixels whichever band
            // paints it, so a band's edge may cut it: not a text step.
            if let sprite {
                inColour = inColour || sprite.inColour
                record(top: Double(sprite.top), bottom: Double(sprite.top + sprite.height), left: Double(sprite.left),
                       right: Double(sprite.left + sprite.width)) { sprite.paint(on: $0) }
            }
            return end
        }
        var extents = cairo_text_extents_t(), font = cairo_font_extents_t()
        GlyphLock.shared.withLock {
            Self.setFont(cairo, size: size, bold: bold)
            cairo_text_extents(cairo, line, &extents)
            // Measured once when it fits, as nearly every line does; shortened and measured again when not.
            if extents.x_advance > maxWidth {
                line = CardText.fitted(line, maxWidth: maxWidth, measure: advance)
                cairo_text_extents(cairo, line, &extents)
            }
            cairo_font_extents(cairo, &font)
        }
        let width = extents.x_advance
        let startX = centred ? x - width / 2 : x
        let reach = (halo?.width ?? 0) / 2
        var top = y + extents.y_bearing - reach - 1, bottom = y + extents.y_bearing + extents.height + reach + 1
        var left = startX + extents.x_bearing - reach - 1, right = startX + extents.x_bearing + extents.width + reach + 1
        // DejaVu Sans's letters, drawn one by one, stay within their line's box; were one to
        // reach out of it, the line is clipped to it (CardText.lineBox), as a shaped line is.
        let box = CardText.lineBox(x: startX, width: width, baseline: y, ascent: font.ascent, descent: font.descent,
                                   size: size, reach: reach)
        let clip = top < box.top || bottom > box.bottom || left < box.left || right > box.right ? box : nil
        if let clip {
            (top, bottom, left, right) = (max(top, clip.top), min(bottom, clip.bottom), max(left, clip.left), min(right, clip.right))
        }
        record(top: top, bottom: bottom, left: left, right: right, isText: true) { [line] cairo in
            GlyphLock.shared.lock()
            defer { GlyphLock.shared.unlock() }
            if let clip {
                cairo_save(cairo)
                cairo_rectangle(cairo, clip.left, clip.top, clip.right - clip.left, clip.bottom - clip.top)
                cairo_clip(cairo)
            }
            defer { if clip != nil { cairo_restore(cairo) } }
            Self.setFont(cairo, size: size, bold: bold)
            if let halo {
                // The halo (the page strokes the label's outline, `.route-label-halo`) as the
                // text drawn in its colour eight times around it, half its width away. cairo
                // strokes a line of text's outline about ten times slower than it draws the
                // line: the stroke is of every glyph's curves, and the glyphs are cached. (One
                // more pixel of reach above: glyphs land on whole pixels.)
                Self.setColour(cairo, halo.colour)
                for (dx, dy) in Self.haloDirections {
                    cairo_move_to(cairo, startX + dx * reach, y + dy * reach)
                    cairo_show_text(cairo, line)
                }
            }
            Self.setColour(cairo, colour)
            cairo_move_to(cairo, startX, y)
            cairo_show_text(cairo, line)
        }
        return startX + width
    }

    /// Eight directions, a unit apart from the centre.
    private static let haloDirections: [(Double, Double)] = (0..<8).map { step in
        let angle = Double(step) * .pi / 4
        return (cos(angle), sin(angle))
    }

    func pillWidth(_ label: String, size: Double) -> Double {
        width(label, size: size, bold: true) + size
    }

    /// A rounded label such as the page's "Tied" chip, its text on `baseline`.
    func pill(_ label: String, x: Double, baseline: Double, size: Double, colour: UInt32, fill: UInt32) {
        let width = pillWidth(label, size: size)
        roundedRect(x, baseline - size * 1.05, width, size * 1.45, radius: size * 0.72, colour: fill)
        text(label, x: x + size / 2, y: baseline, size: size, bold: true, colour: colour, maxWidth: width)
    }
}

/// Held around every use of glyphs, cairo's toy text and Pango alike: measuring, laying out,
/// drawing. cairo 1.16 keeps one glyph cache for all scaled fonts and, when it is full,
/// evicts a page of any of them, also of one another thread is drawing with at that moment
/// (the check it makes first races with that thread): the test suite crashed in cairo with
/// a null pointer once lines in CJK scripts, each glyph new, filled the cache while other
/// threads drew Latin cards. A card's text is a fifth of its time; the shapes, the sprites
/// of shaped lines and the encoder run outside the lock.
enum GlyphLock {
    static let shared = NSLock()
}

/// The two faces of DejaVu Sans and the font options every card is drawn with, made once:
/// cairo's font faces are reference-counted and safe to share between threads.
private final class Fonts: @unchecked Sendable {
    static let shared = Fonts()
    let regular: OpaquePointer
    let bold: OpaquePointer
    let options: OpaquePointer

    /// Every scaled font (a face at a size) a card has used, with a reference that is never
    /// given back. cairo 1.16 (Debian 12's) aborts with "cairo_scaled_font_destroy: Assertion
    /// `! scaled_font->cache_frozen' failed" when a scaled font's last reference goes while
    /// another thread draws with it, which happens as two threads' contexts switch between the
    /// same sizes: two threads doing so abort within seconds (a C loop of set_font_size,
    /// text_extents and show_text), and aborted 2 of about 130 builds of the 1,000-poll
    /// corpus with cards. A font kept here is never destroyed, so that cannot happen. The
    /// cards use a few sizes, all set by the layout, never by the data: about 20 fonts.
    private var kept: Set<OpaquePointer> = []
    private let lock = NSLock()

    func keep(_ font: OpaquePointer?) {
        guard let font else { return }
        lock.withLock {
            if kept.insert(font).inserted { cairo_scaled_font_reference(font) }
        }
    }

    func keeps(_ font: OpaquePointer) -> Bool {
        lock.withLock { kept.contains(font) }
    }

    private init() {
        regular = cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        bold = cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        options = cairo_font_options_create()
        // Fixed here, not taken from the machine's fontconfig settings (which may ask for
        // hinting or subpixel colours): the same packages draw the same pixels.
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    }
}

/// Export text made safe to draw on one line, and shortened to fit.
package enum CardText {
    /// Control characters, line and paragraph separators become spaces; runs of spaces one.
    package static func drawable(_ text: String) -> String {
        if isPlain(text) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            let isSpace = scalar == " " || category == .control || category == .lineSeparator || category == .paragraphSeparator
            if isSpace {
                if !lastWasSpace { result.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// Printable ASCII with single spaces and none at either end: already drawable as it is.
    /// Most names and titles are, and looking up each scalar's category cost more than
    /// measuring and drawing them.
    private static func isPlain(_ text: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            guard byte > 0x20 && byte < 0x7F || byte == 0x20 && previous != 0x20 else { return false }
            previous = byte
        }
        return previous != 0x20
    }

    /// Whether `line` (drawable) has a character that cairo's toy text would draw wrong, and
    /// so must be laid out by Pango (ShapedText): anything but the Latin, Greek and Cyrillic
    /// letters, punctuation and currency signs DejaVu Sans has, each drawn on its own.
    /// Combining marks, soft hyphens, bidirectional controls, joiners and variation
    /// selectors need shaping too, so they go to Pango with the rest.
    package static func needsShaping(_ line: String) -> Bool {
        if line.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return !line.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x24F: return true       // Latin
            case 0x370...0x377, 0x37A...0x37F, 0x384...0x3FF: return true   // Greek
            case 0x400...0x482, 0x48A...0x4FF: return true                  // Cyrillic, no combining marks
            case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20BF, 0x2122: return true
            default: return false
            }
        }
    }

    /// The box a line of text is drawn within, clipped to it: the line box its fonts' ascent
    /// and descent make (as a browser's) over its advance, a quarter of its size more on
    /// every side, and its halo; on whole pixels, within the card. The ink of every script
    /// measured stays well inside (Vietnamese capitals with two accents reach 0.15 of the
    /// size above the line box, Khmer 0.11, Tibetan and Arabic stay in it); a stack of
    /// hundreds of combining marks on one letter does not, and crossed the card's top bar,
    /// the lines above and below and the route map. A bound that is not a number is the
    /// card's edge.
    package static func lineBox(x: Double, width: Double, baseline: Double, ascent: Double, descent: Double, size: Double,
                                reach: Double) -> (left: Double, top: Double, right: Double, bottom: Double) {
        let margin = size / 4 + reach + 1
        let cardWidth = Double(PreviewCard.width), cardHeight = Double(PreviewCard.height)
        func low(_ value: Double, _ limit: Double) -> Double { value.isFinite ? min(max(value.rounded(.down), 0), limit) : 0 }
        func high(_ value: Double, _ limit: Double) -> Double { value.isFinite ? min(max(value.rounded(.up), 0), limit) : limit }
        return (low(x - margin, cardWidth), low(baseline - ascent - margin, cardHeight),
                high(x + width + margin, cardWidth), high(baseline + descent + margin, cardHeight))
    }

    /// `text` when it fits in `maxWidth`, else its longest prefix that fits with "…" after
    /// it, cut after a whole word where that keeps at least half of it: "which summer
    /// mega-trip" cut to "which sum…" read as another word. A run-on word is cut within.
    package static func fitted(_ text: String, maxWidth: Double, measure: (String) -> Double) -> String {
        guard measure(text) > maxWidth else { return text }
        let characters = Array(text)
        var low = 0, high = characters.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if measure(String(characters[..<middle]).trimmingCharacters(in: .whitespaces) + "…") <= maxWidth {
                low = middle
            } else {
                high = middle - 1
            }
        }
        var end = low
        if low < characters.count, !characters[low].isWhitespace,
           let space = characters[..<low].lastIndex(where: \.isWhitespace), space >= low / 2 {
            end = space
        }
        // Spaces and a dangling comma or dash before the "…" go ("Fenway,…"); at the start, nothing does.
        var kept = characters[..<end]
        while let last = kept.last, last.isWhitespace || ",;:–—-".contains(last) { kept.removeLast() }
        return String(kept) + "…"
    }
}
