import CCairo
import Foundation
import SitegenOutput

/// Encodes a drawn card as an 8-bit palette PNG through libpng. A card is a few flat colours
/// and the antialiased edges between them, so a palette holds it exactly in nearly every
/// case, at a quarter of the RGBA bytes to compress; compressing is most of a card's cost
/// (docs/libraries.md, "cairo and libpng").
package enum PalettePNG {
    /// The PNG of `height` rows of `width` pixels in cairo's RGB24 layout (0x00RRGGBB in
    /// native byte order), `stride` bytes apart. `indices` is scratch space, reused between calls.
    /// `flatColours` (0xRRGGBB) come first in the palette, so they stay exact however many
    /// antialiased edge colours there are.
    package static func encode(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, flatColours: [UInt32],
                       indices: inout [UInt8]) -> [UInt8] {
        let palette = Palette()
        for colour in flatColours { _ = palette.index(of: colour) }
        if indices.count != width * height { indices = [UInt8](repeating: 0, count: width * height) }
        indices.withUnsafeMutableBufferPointer { output in
            var lastColour: UInt32 = .max, lastIndex: UInt8 = 0
            for y in 0..<height {
                let row = pixels.advanced(by: y * stride)
                let outputRow = output.baseAddress!.advanced(by: y * width)
                // Whole rows repeat (margins, the space between lines): copy the indices.
                if y > 0, memcmp(row, pixels.advanced(by: (y - 1) * stride), width * 4) == 0 {
                    outputRow.update(from: outputRow - width, count: width)
                    continue
                }
                let colours = row.assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let colour = colours[x] & 0xFF_FFFF
                    if colour != lastColour {
                        lastColour = colour
                        lastIndex = palette.index(of: colour)
                    }
                    outputRow[x] = lastIndex
                }
            }
        }
        let sink = ByteSink()
        let status = indices.withUnsafeBufferPointer { rows in
            palette.rgb.withUnsafeBufferPointer { rgb in
                sitegen_write_palette_png(UInt32(width), UInt32(height), rows.baseAddress, width, rgb.baseAddress,
                                          Int32(palette.count), { context, bytes, count in
                    let sink = Unmanaged<ByteSink>.fromOpaque(context!).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                }, Unmanaged.passUnretained(sink).toOpaque())
            }
        }
        // libpng fails only when memory runs out, where the rest of the build would fail too.
        precondition(status == 0, "libpng could not encode a preview image")
        return sink.bytes
    }

    /// Colours in the order they first appear (so the same pixels give the same palette).
    /// Past 256 colours, a new colour takes the nearest one already there: only the
    /// antialiased edges of text and shapes get there, the flat colours being placed first.
    /// Colours are looked up in an open-addressing table of their own: a card changes colour
    /// some 100,000 times, and Dictionary's hashing cost more than drawing the card.
    package final class Palette {
        private(set) var rgb: [UInt8] = []
        package var count: Int { rgb.count / 3 }
        private static let slots = 1 << 13
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

    private final class ByteSink {
        var bytes: [UInt8] = []
        init() { bytes.reserveCapacity(64 << 10) }
    }
}

/// Draws cards into PNGs. Surfaces are kept for reuse: a fresh 3 MB surface per card would
/// cost its page faults every time, and at most one per rendering thread is ever in use.
public enum PreviewImage {
    public static func png(_ card: PreviewCard) -> [UInt8] {
        let canvas = CanvasPool.shared.take()
        defer { CanvasPool.shared.give(canvas) }
        CardDrawing.draw(card, on: canvas.surface)
        cairo_surface_flush(canvas.surface)
        return PalettePNG.encode(pixels: UnsafeRawPointer(cairo_image_surface_get_data(canvas.surface)!),
                                 width: PreviewCard.width, height: PreviewCard.height,
                                 stride: Int(cairo_image_surface_get_stride(canvas.surface)),
                                 flatColours: CardDrawing.Colour.all, indices: &canvas.indices)
    }

    private final class Canvas {
        let surface: OpaquePointer
        var indices: [UInt8] = []

        init() {
            // RGB24: cards are opaque, so there is no alpha to carry into the PNG.
            surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(PreviewCard.height))
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
