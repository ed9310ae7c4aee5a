import CCairo
import Foundation

/// Encodes a drawn card as an 8-bit palette PNG. A card is a few flat colours and the
/// antialiased edges between them, so a palette holds it exactly in nearly every case, at a
/// quarter of the RGB bytes.
///
/// Compressing was most of a card's cost (docs/performance.md, "Link preview images"), so the
/// pixels go to the compressor as the runs of one colour that mapping them to the palette
/// finds anyway (RunDeflate), never as a buffer of bytes to read again. A row the same as the
/// one above (margins, the space between lines: about 40% of a card) is written with PNG's
/// Up filter, which makes it a row of zeros: one run.
package enum PalettePNG {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// PNG's row filters: None (the palette indices as they are) and Up (the difference
    /// from the row above).
    package static let filterNone: UInt8 = 0, filterUp: UInt8 = 2

    /// The compressor, palette and buffers of one thread's cards, reused from card to card.
    package final class Encoder {
        package let width: Int
        package let height: Int
        private var deflate = RunDeflate()
        private let palette = Palette()
        /// Per row of the last image encoded, where its pixels other than the background
        /// (the first flat colour) start and end: [start, end), empty when start == end.
        package let ink: UnsafeMutablePointer<InkSpan>

        package struct InkSpan {
            package var start: Int32 = 0, end: Int32 = 0
        }

        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
            ink = .allocate(capacity: height)
            ink.initialize(repeating: InkSpan(), count: height)
        }

        deinit {
            ink.deallocate()
        }

        /// The PNG of `height` rows of `width` pixels in cairo's RGB24 layout (0x00RRGGBB in
        /// native byte order), `stride` bytes apart. `flatColours` (0xRRGGBB) come first in the
        /// palette, so they stay exact however many antialiased edge colours there are; the
        /// first is the background, which `ink` tells apart.
        package func encode(pixels: UnsafeRawPointer, stride: Int, flatColours: [UInt32]) -> [UInt8] {
            palette.reset(flatColours)
            deflate.reset()
            // One access to the class's compressor for the whole card, not one a run.
            Self.addRows(pixels: pixels, stride: stride, width: width, height: height, background: flatColours[0],
                         palette: palette, ink: ink, to: &deflate)
            let (compressed, adler) = deflate.finish()
            return png(compressed, adler: adler)
        }

        /// Adds each row to the stream: its filter byte, then its palette indices, or zeros.
        private static func addRows(pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int, background: UInt32,
                                    palette: Palette, ink: UnsafeMutablePointer<InkSpan>, to deflate: inout RunDeflate) {
            for y in 0..<height {
                let row = pixels + y * stride
                if y > 0, memcmp(row, row - stride, width * 4) == 0 {
                    deflate.add(PalettePNG.filterUp, count: 1)
                    deflate.add(0, count: width)
                    ink[y] = ink[y - 1]
                } else {
                    deflate.add(PalettePNG.filterNone, count: 1)
                    ink[y] = addIndices(row, width: width, background: background, palette: palette, to: &deflate)
                }
            }
        }

        /// Adds a row's palette indices to the stream, a run of one colour at a time; returns
        /// where its pixels other than `background` start and end.
        private static func addIndices(_ row: UnsafeRawPointer, width: Int, background: UInt32, palette: Palette,
                                       to deflate: inout RunDeflate) -> InkSpan {
            let colours = row.assumingMemoryBound(to: UInt32.self)
            var runColour = colours[0] & 0xFF_FFFF, runIndex = palette.index(of: runColour), runStart = 0
            var ink = InkSpan(start: runColour == background ? -1 : 0, end: 0)
            var x = 1
            while x < width {
                // Most of a row is runs of one colour: eight pixels at a time while they last.
                if x + 8 <= width,
                   row.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<UInt32>.self) & 0xFF_FFFF == SIMD8(repeating: runColour) {
                    x += 8
                    continue
                }
                for x in x..<min(x + 8, width) {
                    let colour = colours[x] & 0xFF_FFFF
                    guard colour != runColour else { continue }
                    if runColour != background {
                        ink.end = Int32(x)
                    } else if ink.start < 0 {
                        ink.start = Int32(x)
                    }
                    let index = palette.index(of: colour)
                    runColour = colour
                    if index != runIndex {
                        deflate.add(runIndex, count: x - runStart)
                        (runIndex, runStart) = (index, x)
                    }
                }
                x += 8
            }
            deflate.add(runIndex, count: width - runStart)
            if runColour != background { ink.end = Int32(width) }
            return ink.start < 0 ? InkSpan() : ink
        }

        /// Signature, IHDR, PLTE, IDAT and IEND, and nothing else (no time or text chunks),
        /// so the same pixels always give the same bytes.
        private func png(_ compressed: UnsafeBufferPointer<UInt8>, adler: UInt32) -> [UInt8] {
            var png = PalettePNG.signature
            png.reserveCapacity(8 + 25 + 12 + palette.rgb.count + 12 + 2 + compressed.count + 4 + 12)
            Self.appendChunk("IHDR", to: &png) { data in
                Self.appendBigEndian(UInt32(width), to: &data)
                Self.appendBigEndian(UInt32(height), to: &data)
                data += [8, 3, 0, 0, 0]  // 8 bits per index, palette colours, deflate, filters, no interlace
            }
            Self.appendChunk("PLTE", to: &png) { $0 += palette.rgb }
            Self.appendChunk("IDAT", to: &png) { data in
                data += [0x78, 0x01]  // zlib header: deflate with a 32 KB window
                data += compressed
                Self.appendBigEndian(adler, to: &data)
            }
            Self.appendChunk("IEND", to: &png) { _ in }
            return png
        }

        private static func appendChunk(_ type: String, to png: inout [UInt8], _ data: (inout [UInt8]) -> Void) {
            let start = png.count
            png += [0, 0, 0, 0] + Array(type.utf8)
            data(&png)
            let length = UInt32(png.count - start - 8)
            for index in 0..<4 { png[start + index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
            let crc = png.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + start + 4, uInt($0.count - start - 4)) }
            appendBigEndian(UInt32(crc), to: &png)
        }

        private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
            bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
    }

    /// Colours in the order they first appear (so the same pixels give the same palette).
    /// Past 256 colours, a new colour takes the nearest one already there: only the
    /// antialiased edges of text and shapes get there, the flat colours being placed first.
    /// Colours are looked up in an open-addressing table of their own: a card changes colour
    /// some 100,000 times, and Dictionary's hashing cost more than drawing the card. 2,048
    /// slots (10 KB) stay in the processor's first cache beside the rows being read: 8,192
    /// made a tenth of the mapping's time cache misses. A colour not remembered maps the same
    /// way again (to its bucket's entry: the palette is full long before the table).
    package final class Palette {
        private(set) var rgb: [UInt8] = []
        package var count: Int { rgb.count / 3 }
        private static let slots = 1 << 11
        /// Beyond this many remembered colours (three quarters full) new ones are not remembered.
        private static let remembered = slots * 3 / 4
        private let keys = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
        private let values = UnsafeMutablePointer<UInt8>.allocate(capacity: slots)
        private var filled = 0
        /// No 0xRRGGBB colour has a high byte, so this marks an empty slot.
        private static let empty = UInt32.max

        package init() {
            keys.initialize(repeating: Self.empty, count: Self.slots)
            values.initialize(repeating: 0, count: Self.slots)
        }

        deinit {
            keys.deallocate()
            values.deallocate()
        }

        /// Empties the palette for the next card, which starts with `flatColours`.
        package func reset(_ flatColours: [UInt32]) {
            keys.update(repeating: Self.empty, count: Self.slots)
            filled = 0
            rgb.removeAll(keepingCapacity: true)
            for index in nearestInBucket.indices { nearestInBucket[index] = -1 }
            for colour in flatColours { _ = index(of: colour) }
        }

        package func index(of colour: UInt32) -> UInt8 {
            var slot = Int(truncatingIfNeeded: (colour &* 0x9E37_79B1) >> 19) & (Self.slots - 1)
            while keys[slot] != Self.empty {
                if keys[slot] == colour { return values[slot] }
                slot = (slot + 1) & (Self.slots - 1)
            }
            let index = add(colour)
            if filled < Self.remembered {
                keys[slot] = colour
                values[slot] = index
                filled += 1
            }
            return index
        }

        private func add(_ colour: UInt32) -> UInt8 {
            let red = UInt8(colour >> 16), green = UInt8((colour >> 8) & 0xFF), blue = UInt8(colour & 0xFF)
            guard count < 256 else {
                // Edge colours that differ only in their low bits share one search.
                let bucket = Int(red >> 4) << 8 | Int(green >> 4) << 4 | Int(blue >> 4)
                if nearestInBucket[bucket] < 0 { nearestInBucket[bucket] = Int16(nearest(red, green, blue)) }
                return UInt8(nearestInBucket[bucket])
            }
            rgb += [red, green, blue]
            return UInt8(count - 1)
        }

        /// For a full palette: the entry chosen for the first colour seen with these top 4 bits
        /// of red, green and blue, or -1.
        private var nearestInBucket = [Int16](repeating: -1, count: 1 << 12)

        private func nearest(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
            var best = 0, bestDistance = Int.max
            for index in 0..<count {
                let dr = Int(rgb[3 * index]) - Int(red), dg = Int(rgb[3 * index + 1]) - Int(green), db = Int(rgb[3 * index + 2]) - Int(blue)
                let distance = dr * dr + dg * dg + db * db
                if distance < bestDistance { (best, bestDistance) = (index, distance) }
            }
            return UInt8(best)
        }
    }
}

/// Draws cards into PNGs. Surfaces and encoders are kept for reuse: a fresh 3 MB surface and
/// the compressor's buffers per card would cost their page faults every time, and at most one
/// per rendering thread is ever in use.
public enum PreviewImage {
    public static func png(_ card: PreviewCard) -> [UInt8] {
        let canvas = CanvasPool.shared.take()
        defer { CanvasPool.shared.give(canvas) }
        let blank = canvas.clearInk()
        CardDrawing.draw(card, on: canvas.surface, isBlank: blank)
        cairo_surface_flush(canvas.surface)
        canvas.isUsed = true
        return canvas.encoder.encode(pixels: UnsafeRawPointer(cairo_image_surface_get_data(canvas.surface)!),
                                     stride: Int(cairo_image_surface_get_stride(canvas.surface)),
                                     flatColours: CardDrawing.Colour.all)
    }

    private final class Canvas {
        let surface: OpaquePointer
        let encoder = PalettePNG.Encoder(width: PreviewCard.width, height: PreviewCard.height)
        var isUsed = false

        init() {
            // RGB24: cards are opaque, so there is no alpha to carry into the PNG.
            surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(PreviewCard.height))
        }

        /// Paints the last card's ink, and only that, in the background colour; whether the
        /// surface is now blank. Filling all 3 MB for every card cost more than it looks
        /// (0.3 ms a card in a build, where the surface has left the cache by the next card),
        /// and a card's ink is a fraction of it. The encoder found the ink from every pixel,
        /// and cairo writes 0xFF in RGB24's unused byte, so the surface is then byte for
        /// byte a blank one.
        func clearInk() -> Bool {
            guard isUsed else { return false }
            cairo_surface_flush(surface)
            let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
            let stride = Int(cairo_image_surface_get_stride(surface))
            let background = 0xFF00_0000 | CardDrawing.Colour.surface
            for y in 0..<PreviewCard.height {
                let span = encoder.ink[y]
                guard span.end > span.start else { continue }
                (data + y * stride).assumingMemoryBound(to: UInt32.self).advanced(by: Int(span.start))
                    .update(repeating: background, count: Int(span.end - span.start))
            }
            cairo_surface_mark_dirty(surface)
            return true
        }
    }

    private final class CanvasPool: @unchecked Sendable {
        static let shared = CanvasPool()
        private let lock = NSLock()
        private var free: [Canvas] = []

        func take() -> Canvas {
            lock.withLock { free.popLast() } ?? Canvas()
        }

        func give(_ canvas: Canvas) {
            lock.withLock { free.append(canvas) }
        }
    }
}
