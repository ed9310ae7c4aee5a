import CCairo
import Foundation

/// Encodes a drawn card as an 8-bit palette PNG, compressed with zlib. A card is a few flat
/// colours and the antialiased edges between them, so a palette holds it exactly in nearly
/// every case, at a quarter of the RGB bytes to compress.
///
/// Compressing is most of a card's cost (docs/performance.md, "Link preview images"), so the
/// rows are split by kind: a row the same as the one above (margins, the space between lines:
/// about 40% of a card) is written with PNG's Up filter, which makes it a row of zeros, and
/// the compressed form of a run of such rows is made once per build and copied in (deflate
/// pieces ended by a sync flush can be joined; the zlib checksums combine). zlib compresses
/// only the other rows, in pieces short enough that it never moves its window.
package enum PalettePNG {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// 54 rows of 1,201 bytes (64,854) stay under the 65,274 bytes after which zlib slides its
    /// 64 KB window, a copy and a pass over its tables each time.
    package static let rowsPerPiece = 54
    /// PNG's row filters: None (the palette indices as they are) and Up (the difference
    /// from the row above).
    package static let filterNone: UInt8 = 0, filterUp: UInt8 = 2

    /// The zlib stream, palette and buffers of one thread's cards, reused from card to card.
    package final class Encoder {
        package let width: Int
        package let height: Int
        private var rowBytes: Int { width + 1 }
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        /// Filtered rows waiting to be compressed: at most `rowsPerPiece`.
        private let rows: UnsafeMutablePointer<UInt8>
        private static let chunkSize = 1 << 16
        private let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        /// The card's deflate stream so far, and the zlib checksum of what it holds.
        private var compressed: [UInt8] = []
        private var adler: uLong = 0
        private let palette = Palette()

        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
            rows = .allocate(capacity: PalettePNG.rowsPerPiece * (width + 1))
            stream.initialize(to: z_stream())
            // zlib fails to start only when memory runs out, where the rest of the build would fail too.
            precondition(sitegen_deflate_init(stream) == Z_OK, "zlib could not start")
            compressed.reserveCapacity(Self.chunkSize)
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
            rows.deallocate()
            chunk.deallocate()
        }

        /// The PNG of `height` rows of `width` pixels in cairo's RGB24 layout (0x00RRGGBB in
        /// native byte order), `stride` bytes apart. `flatColours` (0xRRGGBB) come first in the
        /// palette, so they stay exact however many antialiased edge colours there are.
        package func encode(pixels: UnsafeRawPointer, stride: Int, flatColours: [UInt32]) -> [UInt8] {
            palette.reset(flatColours)
            compressed.removeAll(keepingCapacity: true)
            adler = adler32(0, nil, 0)
            var waiting = 0
            var y = 0
            while y < height {
                let row = pixels + y * stride
                if y > 0, memcmp(row, row - stride, width * 4) == 0 {
                    var end = y + 1
                    while end < height, memcmp(pixels + end * stride, pixels + (end - 1) * stride, width * 4) == 0 { end += 1 }
                    compressWaiting(&waiting)
                    let piece = repeatedRows(end - y)
                    compressed += piece.bytes
                    adler = adler32_combine(adler, piece.adler, piece.length)
                    y = end
                    continue
                }
                quantise(row, into: rows + waiting * rowBytes)
                waiting += 1
                if waiting == PalettePNG.rowsPerPiece { compressWaiting(&waiting) }
                y += 1
            }
            compressWaiting(&waiting)
            // The final block: empty, marked last.
            deflateReset(stream)
            deflatePiece(flush: Z_FINISH, into: &compressed)
            return png()
        }

        /// Palette indices of one row, after its filter byte (None).
        private func quantise(_ row: UnsafeRawPointer, into output: UnsafeMutablePointer<UInt8>) {
            output[0] = PalettePNG.filterNone
            let colours = row.assumingMemoryBound(to: UInt32.self)
            var lastColour = UInt32.max, lastIndex: UInt8 = 0
            var x = 0
            while x < width {
                // Most of a row is runs of one colour: eight pixels at a time while they last.
                if x + 8 <= width,
                   row.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<UInt32>.self) & 0xFF_FFFF == SIMD8(repeating: lastColour) {
                    UnsafeMutableRawPointer(output + 1 + x).storeBytes(of: UInt64(lastIndex) &* 0x0101_0101_0101_0101, as: UInt64.self)
                    x += 8
                    continue
                }
                for x in x..<min(x + 8, width) {
                    let colour = colours[x] & 0xFF_FFFF
                    if colour != lastColour {
                        lastColour = colour
                        lastIndex = palette.index(of: colour)
                    }
                    output[x + 1] = lastIndex
                }
                x += 8
            }
        }

        private func compressWaiting(_ waiting: inout Int) {
            guard waiting > 0 else { return }
            let count = waiting * rowBytes
            adler = adler32(adler, rows, uInt(count))
            deflateReset(stream)
            stream.pointee.next_in = rows
            stream.pointee.avail_in = uInt(count)
            deflatePiece(flush: Z_SYNC_FLUSH, into: &compressed)
            waiting = 0
        }

        /// Compresses the stream's input (from a reset stream: no reference to earlier
        /// pieces) and appends the output; a sync flush ends it on a byte boundary.
        private func deflatePiece(flush: Int32, into output: inout [UInt8]) {
            repeat {
                stream.pointee.next_out = chunk
                stream.pointee.avail_out = uInt(Self.chunkSize)
                let status = deflate(stream, flush)
                // Z_BUF_ERROR: nothing left to do on a call after the output filled up exactly.
                precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "zlib failed: \(status)")
                output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: Self.chunkSize - Int(stream.pointee.avail_out)))
            } while stream.pointee.avail_out == 0
        }

        /// `count` rows equal to the row above them, compressed once per build for every card.
        private func repeatedRows(_ count: Int) -> RepeatedRows.Piece {
            RepeatedRows.shared.piece(rows: count, width: width) {
                var zeros = [UInt8](repeating: 0, count: count * rowBytes)
                for row in 0..<count { zeros[row * rowBytes] = PalettePNG.filterUp }
                var bytes: [UInt8] = []
                zeros.withUnsafeMutableBufferPointer { buffer in
                    deflateReset(stream)
                    stream.pointee.next_in = buffer.baseAddress
                    stream.pointee.avail_in = uInt(buffer.count)
                    deflatePiece(flush: Z_SYNC_FLUSH, into: &bytes)
                }
                return RepeatedRows.Piece(bytes: bytes, adler: adler32(1, zeros, uInt(zeros.count)), length: zeros.count)
            }
        }

        /// Signature, IHDR, PLTE, IDAT and IEND, and nothing else (no time or text chunks),
        /// so the same pixels always give the same bytes.
        private func png() -> [UInt8] {
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
                Self.appendBigEndian(UInt32(adler), to: &data)
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

    /// Compressed runs of rows equal to the row above (Up-filtered rows of zeros), by length:
    /// the same for every card of a build, so each is compressed once.
    package final class RepeatedRows: @unchecked Sendable {
        package static let shared = RepeatedRows()
        package struct Piece {
            package let bytes: [UInt8]
            /// The zlib checksum of the uncompressed rows and their length, to combine with the card's.
            package let adler: uLong
            package let length: Int
        }

        private struct Key: Hashable {
            let rows: Int
            let width: Int
        }

        private let lock = NSLock()
        private var pieces: [Key: Piece] = [:]

        /// The piece for `rows` rows `width` pixels wide, made by `make` the first time.
        package func piece(rows: Int, width: Int, make: () -> Piece) -> Piece {
            let key = Key(rows: rows, width: width)
            if let piece = lock.withLock({ pieces[key] }) { return piece }
            // Made outside the lock; two threads making the same piece make the same bytes.
            let piece = make()
            lock.withLock { pieces[key] = piece }
            return piece
        }
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
/// zlib's 256 KB of tables per card would cost their page faults every time, and at most one
/// per rendering thread is ever in use.
public enum PreviewImage {
    public static func png(_ card: PreviewCard) -> [UInt8] {
        let canvas = CanvasPool.shared.take()
        defer { CanvasPool.shared.give(canvas) }
        CardDrawing.draw(card, on: canvas.surface)
        cairo_surface_flush(canvas.surface)
        return canvas.encoder.encode(pixels: UnsafeRawPointer(cairo_image_surface_get_data(canvas.surface)!),
                                     stride: Int(cairo_image_surface_get_stride(canvas.surface)),
                                     flatColours: CardDrawing.Colour.all)
    }

    private final class Canvas {
        let surface: OpaquePointer
        let encoder = PalettePNG.Encoder(width: PreviewCard.width, height: PreviewCard.height)

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
