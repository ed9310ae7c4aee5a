import CCairo
import Foundation

/// Encodes a drawn card as an 8-bit palette PNG through libpng. A card is a few flat colours
/// and the antialiased edges between them, so a palette holds it exactly in nearly every
/// case, at a quarter of the RGBA bytes to compress; compressing is most of a card's cost
/// (../shared/FINDINGS.md).
enum PalettePNG {
    /// The PNG of `height` rows of `width` pixels in cairo's RGB24 layout (0x00RRGGBB in
    /// native byte order), `stride` bytes apart. `indices` is scratch space, reused between calls.
    /// `flatColours` (0xRRGGBB) come first in the palette, so they stay exact however many
    /// antialiased edge colours there are.
    static func encode(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, flatColours: [UInt32],
                       indices: inout [UInt8]) -> [UInt8] {
        var palette = Palette()
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
    struct Palette {
        private(set) var rgb: [UInt8] = []
        private var indices: [UInt32: UInt8] = [:]
        var count: Int { rgb.count / 3 }

        mutating func index(of colour: UInt32) -> UInt8 {
            if let index = indices[colour] { return index }
            let red = UInt8(colour >> 16), green = UInt8((colour >> 8) & 0xFF), blue = UInt8(colour & 0xFF)
            let index: UInt8
            if count < 256 {
                index = UInt8(count)
                rgb += [red, green, blue]
            } else {
                index = nearest(red, green, blue)
            }
            indices[colour] = index
            return index
        }

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
