import CCairo
import Foundation

/// Encodes a drawn card as an 8-bit palette PNG. A card is a few flat colours and the
/// antialiased edges between them, so a palette holds it closely, at a quarter of the RGB
/// bytes. A card with colour glyphs (emoji) is not: it is written in truecolour, every pixel
/// as drawn (`Encoder.begin`), unless that is too large (`PreviewImage.maxBytes`).
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
    /// And, for truecolour, Paeth (the difference from whichever of left, above and
    /// above-left predicts best).
    package static let filterPaeth: UInt8 = 4

    /// The compressor, palette and buffers of one thread's cards, reused from card to card.
    package final class Encoder {
        package let width: Int
        package let height: Int
        private var deflate = RunDeflate()
        private let palette = Palette()
        /// Per row of the last image encoded, where its pixels other than the background
        /// (the first flat colour) start and end.
        package let ink: UnsafeMutablePointer<Span>
        /// Per row of the image being encoded, the columns outside which every pixel is the
        /// background: `begin` sets the whole width, and a caller that knows where it drew
        /// narrows them before adding the rows. Nothing outside is read: a card's rows are
        /// about 40% margins and gaps.
        package let drawn: UnsafeMutablePointer<Span>

        /// Columns [start, end) of a row; none when start >= end.
        package struct Span: Equatable {
            package var start: Int32 = 0, end: Int32 = 0

            package init(start: Int32 = 0, end: Int32 = 0) {
                (self.start, self.end) = (start, end)
            }
        }

        package init(width: Int, height: Int) {
            precondition(width > 0 && width < 4_096, "RunDeflate takes a row's runs of at most 4,096 bytes")
            self.width = width
            self.height = height
            ink = .allocate(capacity: height)
            ink.initialize(repeating: Span(), count: height)
            drawn = .allocate(capacity: height)
            drawn.initialize(repeating: Span(start: 0, end: Int32(width)), count: height)
            lastRow = .allocate(capacity: width)
            lastRow.initialize(repeating: 0, count: width)
            runs = .allocate(capacity: width + 2)
            // A block's eight ends are stored whole, however few of them count.
            ends = .allocate(capacity: width + 16)
            truecolour = Truecolour(width: width)
        }

        deinit {
            ink.deallocate()
            drawn.deallocate()
            lastRow.deallocate()
            runs.deallocate()
            ends.deallocate()
            truecolour.deallocate()
        }

        /// The PNG of `height` rows of `width` pixels in cairo's RGB24 layout (0x00RRGGBB in
        /// native byte order), `stride` bytes apart. `flatColours` (0xRRGGBB) come first in the
        /// palette, so they stay exact however many antialiased edge colours there are; the
        /// first is the background, which `ink` tells apart. `inColour` (the card has colour
        /// glyphs: `CardPicture.inColour`) writes it in truecolour instead.
        package func encode(pixels: UnsafeRawPointer, stride: Int, flatColours: [UInt32], inColour: Bool = false) -> [UInt8] {
            begin(flatColours: flatColours, inColour: inColour)
            add(rows: pixels, stride: stride, count: height)
            return finish()
        }

        /// Starts an image whose rows come in bands (`add`), as `encode` describes.
        ///
        /// A palette holds a card's flat colours and the antialiased edges between them, and
        /// past 256 colours an edge's colour takes a near one (`Palette`). A colour glyph (an
        /// emoji drawn from Noto Color Emoji's bitmaps) is hundreds of colours of its own,
        /// which took entries far from them: a French flag drawn blue, white and brown, a
        /// stadium's green pitch orange. Such a card (`inColour`) is written in truecolour
        /// (`Truecolour`), every pixel as drawn, through the same compressor.
        package func begin(flatColours: [UInt32], inColour: Bool = false) {
            palette.reset(flatColours)
            deflate.reset()
            drawn.update(repeating: Span(start: 0, end: Int32(width)), count: height)
            background = flatColours[0]
            nextRow = 0
            isTruecolour = inColour
        }

        /// Adds the image's next `count` rows, `stride` bytes apart. The last of them is kept,
        /// so the first row of the next band can be compared with the row above it.
        package func add(rows pixels: UnsafeRawPointer, stride: Int, count: Int) {
            precondition(nextRow + count <= height, "more rows than the image has")
            guard count > 0 else { return }
            if isTruecolour {
                truecolour.add(rows: pixels, stride: stride, count: count, first: nextRow, drawn: drawn, to: &deflate)
                // Outside its drawn columns a row is the background: the caller clears them.
                (ink + nextRow).update(from: drawn + nextRow, count: count)
                nextRow += count
                return
            }
            // One access to the class's compressor for the whole band, not one a run.
            Self.addRows(pixels: pixels, stride: stride, count: count, first: nextRow, width: width, background: background,
                         above: nextRow > 0 ? UnsafeRawPointer(lastRow) : nil, palette: palette, drawn: drawn, ink: ink,
                         ends: ends, runs: runs, to: &deflate)
            nextRow += count
            lastRow.update(from: (pixels + (count - 1) * stride).assumingMemoryBound(to: UInt32.self), count: width)
        }

        /// The PNG, once every row has been added.
        package func finish() -> [UInt8] {
            precondition(nextRow == height, "\(height - nextRow) rows missing")
            let (compressed, adler) = deflate.finish()
            return png(compressed, adler: adler)
        }

        private var background: UInt32 = 0, nextRow = 0
        /// Whether the image being encoded is written in truecolour (`begin`).
        private var isTruecolour = false
        private let truecolour: Truecolour
        private let lastRow: UnsafeMutablePointer<UInt32>
        /// One row's runs, as `runs(of:)` finds them, and where they end.
        private let runs: UnsafeMutablePointer<UInt32>, ends: UnsafeMutablePointer<UInt32>

        /// Adds each row to the stream: its filter byte, then its palette indices, or zeros.
        /// `above` is the row above the first, if any.
        private static func addRows(pixels: UnsafeRawPointer, stride: Int, count: Int, first: Int, width: Int,
                                    background: UInt32, above: UnsafeRawPointer?, palette: Palette,
                                    drawn: UnsafeMutablePointer<Span>, ink: UnsafeMutablePointer<Span>,
                                    ends: UnsafeMutablePointer<UInt32>, runs: UnsafeMutablePointer<UInt32>,
                                    to deflate: inout RunDeflate) {
            for index in 0..<count {
                let row = pixels + index * stride, y = first + index
                let columns = drawn[y]
                if let above = index > 0 ? row - stride : above,
                   Self.sameRows(row, above, within: columns, drawn[y - 1], width: width) {
                    deflate.add(PalettePNG.filterUp, count: 1)
                    deflate.add(0, count: width)
                    ink[y] = ink[y - 1]
                } else {
                    let (span, count) = Self.runs(of: row, columns: columns, width: width, background: background,
                                                  palette: palette, ends: ends, into: runs)
                    ink[y] = span
                    deflate.add(runs: runs, count: count)
                }
            }
        }

        /// Whether two rows, each the background outside its drawn columns, are the same.
        @inline(__always)
        private static func sameRows(_ row: UnsafeRawPointer, _ above: UnsafeRawPointer, within columns: Span,
                                     _ aboveColumns: Span, width: Int) -> Bool {
            let (start, end) = Self.union(columns, aboveColumns, width: width)
            return end <= start || memcmp(row + 4 * start, above + 4 * start, 4 * (end - start)) == 0
        }

        /// The columns either span covers (and those between), within the row.
        @inline(__always)
        private static func union(_ first: Span, _ second: Span, width: Int) -> (Int, Int) {
            let firstEmpty = first.end <= first.start, secondEmpty = second.end <= second.start
            if firstEmpty && secondEmpty { return (0, 0) }
            let start = firstEmpty ? second.start : secondEmpty ? first.start : min(first.start, second.start)
            let end = firstEmpty ? second.end : secondEmpty ? first.end : max(first.end, second.end)
            return (max(Int(start), 0), min(Int(end), width))
        }

        /// A row with the None filter as runs of one palette index, each `length << 8 | index`
        /// (the filter byte first), into `runs` (room for `width` + 1), and where its pixels
        /// other than `background` start and end. Only `columns` are read: the row is the
        /// background (palette index 0) either side. A card's rows are long flat runs and the
        /// short ones of antialiased edges, and either way a run costs one palette lookup.
        ///
        /// The runs are written out and compressed by a second loop over them (RunDeflate): in
        /// one loop, the mapping and the compressor's state were more values than x86-64 has
        /// registers, and both spilled to memory at every run.
        ///
        /// Runs compare whole pixels, RGB24's unused byte included: cairo writes it as 0xFF, and
        /// were it ever to differ, a run would only be cut in two, whose halves have the same
        /// index and which the compressor joins again.
        private static func runs(of row: UnsafeRawPointer, columns: Span, width: Int, background: UInt32, palette: Palette,
                                 ends: UnsafeMutablePointer<UInt32>, into runs: UnsafeMutablePointer<UInt32>) -> (Span, count: Int) {
            let pixels = row.assumingMemoryBound(to: UInt32.self)
            runs[0] = 1 << 8 | UInt32(PalettePNG.filterNone)
            let start = max(Int(columns.start), 0), end = min(Int(columns.end), width)
            guard start < end else {
                runs[1] = UInt32(truncatingIfNeeded: width) << 8
                return (Span(), 2)
            }
            // First where each run ends, eight pixels at a time: the pixels that differ from
            // the one before them are found as a bit mask, and the mask's table entry (its set
            // bits' positions) plus the block's column gives their columns in one vector
            // store. Where a run ends is unpredictable: a loop over the mask's bits mispredicted
            // its exit at nearly every block, and eight stores a block (one a pixel, counted or
            // not) made this function a tenth slower than the table does.
            var found = 0, x = start &+ 1
            let positions = Self.bitPositions.baseAddress!
            let store = UnsafeMutableRawPointer(ends)
            while x &+ 8 <= end {
                let first = row.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD4<UInt32>.self)
                let second = row.loadUnaligned(fromByteOffset: 4 &* x &+ 16, as: SIMD4<UInt32>.self)
                let before = row.loadUnaligned(fromByteOffset: 4 &* x &- 4, as: SIMD4<UInt32>.self)
                let beforeSecond = row.loadUnaligned(fromByteOffset: 4 &* x &+ 12, as: SIMD4<UInt32>.self)
                let changed = Int(truncatingIfNeeded: (((first .!= before)._storage & SIMD4(1, 2, 4, 8))
                    | ((second .!= beforeSecond)._storage & SIMD4(16, 32, 64, 128))).wrappedSum())
                if changed != 0 {
                    store.storeBytes(of: positions[changed] &+ SIMD8(repeating: UInt32(truncatingIfNeeded: x)),
                                     toByteOffset: 4 &* found, as: SIMD8<UInt32>.self)
                    found &+= changed.nonzeroBitCount
                }
                x &+= 8
            }
            while x < end {
                ends[found] = UInt32(truncatingIfNeeded: x)
                found &+= pixels[x] != pixels[x &- 1] ? 1 : 0
                x &+= 1
            }
            ends[found] = UInt32(truncatingIfNeeded: end)
            found &+= 1
            // Then the runs, each with its palette index: the background before the drawn
            // columns first (index 0, which RunDeflate joins with a first run of the same
            // index), and after them last.
            runs[1] = UInt32(truncatingIfNeeded: start) << 8
            var runCount = start > 0 ? 2 : 1, runStart = start, inkEnd = 0
            for index in 0..<found {
                let runEnd = Int(truncatingIfNeeded: ends[index]), colour = pixels[runEnd &- 1] & 0xFF_FFFF
                if colour != background { inkEnd = runEnd }
                runs[runCount] = UInt32(truncatingIfNeeded: runEnd &- runStart) &<< 8 | UInt32(palette.index(of: colour))
                runCount &+= 1
                runStart = runEnd
            }
            if end < width {
                runs[runCount] = UInt32(truncatingIfNeeded: width &- end) << 8
                runCount &+= 1
            }
            guard inkEnd > 0 else { return (Span(), runCount) }
            // Some pixel is ink, so this stops.
            var inkStart = start
            let rgb = SIMD4<UInt32>(repeating: 0xFF_FFFF), blank = SIMD4(repeating: background)
            while inkStart &+ 4 <= width, all(row.loadUnaligned(fromByteOffset: 4 &* inkStart, as: SIMD4<UInt32>.self) & rgb .== blank) {
                inkStart &+= 4
            }
            while pixels[inkStart] & 0xFF_FFFF == background { inkStart &+= 1 }
            return (Span(start: Int32(truncatingIfNeeded: inkStart), end: Int32(truncatingIfNeeded: inkEnd)), runCount)
        }

        /// For each 8-bit mask, the positions of its set bits, lowest first (the rest zero).
        /// Written once, then only read: storage of its own, so the loop reads it without
        /// an array's checks.
        nonisolated(unsafe) private static let bitPositions: UnsafeBufferPointer<SIMD8<UInt32>> = {
            let table = UnsafeMutableBufferPointer<SIMD8<UInt32>>.allocate(capacity: 256)
            for mask in 0..<256 {
                var entry = SIMD8<UInt32>(), count = 0
                for bit in 0..<8 where mask & (1 << bit) != 0 {
                    entry[count] = UInt32(bit)
                    count += 1
                }
                table[mask] = entry
            }
            return UnsafeBufferPointer(table)
        }()

        /// Signature, IHDR, PLTE (none in truecolour), IDAT and IEND, and nothing else (no
        /// time or text chunks), so the same pixels always give the same bytes.
        private func png(_ compressed: UnsafeBufferPointer<UInt8>, adler: UInt32) -> [UInt8] {
            var png = PalettePNG.signature
            png.reserveCapacity(8 + 25 + 12 + palette.rgb.count + 12 + 2 + compressed.count + 4 + 12)
            Self.appendChunk("IHDR", to: &png) { data in
                Self.appendBigEndian(UInt32(width), to: &data)
                Self.appendBigEndian(UInt32(height), to: &data)
                // 8 bits per index (palette colours) or channel (truecolour), deflate, filters, no interlace
                data += [8, isTruecolour ? 2 : 3, 0, 0, 0]
            }
            if !isTruecolour { Self.appendChunk("PLTE", to: &png) { $0 += palette.rgb } }
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

    /// Rows written in truecolour (PNG colour type 2, 8 bits a channel) and handed to the
    /// compressor as runs of one byte: a row the same as the one above with the Up filter (one
    /// run of zeros), any other with Paeth, which leaves zeros wherever a pixel is its left,
    /// upper or upper-left neighbour's colour (flat stretches, straight edges) and small
    /// differences over an emoji's shading. Paeth is the better of PNG's filters on these cards
    /// nearly always: choosing per row the filter that left the fewest runs made them 5%
    /// smaller, at the cost of filtering every row three times.
    ///
    /// Only the columns either row was drawn in are read (`Encoder.drawn`), and a pixel right
    /// of them: elsewhere both rows are the background, which Paeth makes zeros. So a card
    /// drawn in bands gives the bytes of the card drawn whole, which is read whole.
    struct Truecolour {
        let width: Int
        /// The last row of the band before, as cairo wrote it.
        private let lastRow: UnsafeMutablePointer<UInt32>
        /// PNG's row above the first: zeros.
        private let zeros: UnsafeMutablePointer<UInt32>
        /// A row's drawn columns filtered (four bytes a pixel, as cairo's), and its runs.
        private let filtered: UnsafeMutablePointer<UInt8>, runs: UnsafeMutablePointer<UInt32>

        init(width: Int) {
            precondition(3 * width + 1 <= 4_096, "RunDeflate takes a row's runs of at most 4,096 bytes")
            self.width = width
            lastRow = .allocate(capacity: width)
            lastRow.initialize(repeating: 0, count: width)
            zeros = .allocate(capacity: width)
            zeros.initialize(repeating: 0, count: width)
            filtered = .allocate(capacity: 4 * width)
            filtered.initialize(repeating: 0, count: 4 * width)
            runs = .allocate(capacity: 3 * width + 4)
        }

        func deallocate() {
            lastRow.deallocate()
            zeros.deallocate()
            filtered.deallocate()
            runs.deallocate()
        }

        /// Adds `count` rows, `stride` bytes apart, the first of them the image's row `first`;
        /// each row's pixels outside its `drawn` columns are the background.
        func add(rows pixels: UnsafeRawPointer, stride: Int, count: Int, first: Int, drawn: UnsafePointer<Encoder.Span>,
                 to deflate: inout RunDeflate) {
            for index in 0..<count {
                let y = first + index
                let row = (pixels + index * stride).assumingMemoryBound(to: UInt32.self)
                let above = y == 0 ? UnsafePointer(zeros)
                    : index > 0 ? UnsafePointer((pixels + (index - 1) * stride).assumingMemoryBound(to: UInt32.self))
                    : UnsafePointer(lastRow)
                // The row above the first is zeros, not the background: read whole.
                let (start, end) = y == 0 ? (0, width) : Self.union(drawn[y], drawn[y - 1], width: width)
                if y > 0 && Self.sameColours(row, above, from: start, to: end) {
                    deflate.add(PalettePNG.filterUp, count: 1)
                    deflate.add(0, count: 3 * width)
                    continue
                }
                // A pixel right of the drawn columns has one of them on its left.
                let last = min(end + 1, width)
                Self.paeth(row, above: above, from: start, to: last, into: filtered)
                runs[0] = 1 << 8 | UInt32(PalettePNG.filterPaeth)
                var runCount = 1
                if start > 0 {
                    runs[runCount] = UInt32(truncatingIfNeeded: 3 * start) << 8
                    runCount += 1
                }
                runCount = Self.runs(of: filtered, pixels: last - start, into: runs, at: runCount)
                if last < width {
                    runs[runCount] = UInt32(truncatingIfNeeded: 3 * (width - last)) << 8
                    runCount += 1
                }
                // RunDeflate joins neighbouring runs of one byte, so the zeros either side and the
                // filtered columns' own make the runs of the whole row, as a row read whole does.
                deflate.add(runs: runs, count: runCount)
            }
            lastRow.update(from: (pixels + (count - 1) * stride).assumingMemoryBound(to: UInt32.self), count: width)
        }

        /// The columns either span covers (and those between), within the row.
        private static func union(_ first: Encoder.Span, _ second: Encoder.Span, width: Int) -> (Int, Int) {
            let firstEmpty = first.end <= first.start, secondEmpty = second.end <= second.start
            if firstEmpty && secondEmpty { return (0, 0) }
            let start = firstEmpty ? second.start : secondEmpty ? first.start : min(first.start, second.start)
            let end = firstEmpty ? second.end : secondEmpty ? first.end : max(first.end, second.end)
            return (max(Int(start), 0), min(Int(end), width))
        }

        /// Whether two rows have the same red, green and blue in columns `start`..<`end`
        /// (RGB24's unused byte aside).
        private static func sameColours(_ row: UnsafePointer<UInt32>, _ above: UnsafePointer<UInt32>, from start: Int, to end: Int) -> Bool {
            var x = start
            let colours: UInt64 = 0x00FF_FFFF_00FF_FFFF
            while x + 2 <= end {
                let here = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
                let there = UnsafeRawPointer(above + x).loadUnaligned(as: UInt64.self)
                if (here ^ there) & colours != 0 { return false }
                x += 2
            }
            while x < end {
                if (row[x] ^ above[x]) & 0xFF_FFFF != 0 { return false }
                x += 1
            }
            return true
        }

        /// Columns `start`..<`end` of `row` filtered with Paeth against `above`, into `out`
        /// as cairo lays pixels out (bytes blue, green, red, unused: RGB24 in little-endian
        /// order). One loop over bytes without branches, which the compiler turns into vector
        /// instructions; written with SIMD types, it was no faster in a release build, and the
        /// preview tests took 150 s instead of 58 in a debug one.
        private static func paeth(_ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, from start: Int, to end: Int,
                                  into out: UnsafeMutablePointer<UInt8>) {
            guard start < end else { return }
            let here = UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self)
            let over = UnsafeRawPointer(above).assumingMemoryBound(to: UInt8.self)
            let output = out - 4 * start
            // The first column has no left neighbours: PNG takes them as zeros.
            if start == 0 {
                for index in 0..<4 { output[index] = here[index] &- predict(0, Int16(over[index]), 0) }
            }
            for index in 4 * max(start, 1)..<4 * end {
                let predicted = predict(Int16(here[index &- 4]), Int16(over[index]), Int16(over[index &- 4]))
                output[index] = here[index] &- predicted
            }
        }

        /// PNG's Paeth predictor: of left, over and overLeft, the nearest to left + over −
        /// overLeft (the first of equals in that order). Masks, not branches, in 16 bits (the
        /// distances are under 2^10), eight bytes to a vector instruction.
        @inline(__always)
        private static func predict(_ left: Int16, _ over: Int16, _ overLeft: Int16) -> UInt8 {
            let toLeft = magnitude(over &- overLeft), toOver = magnitude(left &- overLeft)
            let toOverLeft = magnitude(left &+ over &- overLeft &- overLeft)
            // All ones where the difference is not negative: where the first is as near or nearer.
            let useLeft = ~((toOver &- toLeft) &>> 15) & ~((toOverLeft &- toLeft) &>> 15)
            let useOver = ~((toOverLeft &- toOver) &>> 15)
            let overOrOverLeft = over & useOver | overLeft & ~useOver
            return UInt8(truncatingIfNeeded: left & useLeft | overOrOverLeft & ~useLeft)
        }

        @inline(__always)
        private static func magnitude(_ value: Int16) -> Int16 {
            let sign = value &>> 15
            return (value ^ sign) &- sign
        }

        /// The runs of the red, green and blue bytes of `pixels` pixels laid out as cairo's
        /// (`paeth`), each `length << 8 | byte`, into `runs` from `at`; returns where they end.
        /// Four pixels at a time while they are all the run's byte.
        private static func runs(of bytes: UnsafePointer<UInt8>, pixels: Int, into runs: UnsafeMutablePointer<UInt32>, at: Int) -> Int {
            guard pixels > 0 else { return at }
            var runCount = at, runByte = bytes[2], runStart = 0, pixel = 0
            let raw = UnsafeRawPointer(bytes)
            // The unused byte of each of two pixels, made to match whatever it is. (Compared as
            // integers: Swift compares SIMD vectors for equality a lane at a time.)
            let unused: UInt64 = 0xFF00_0000_FF00_0000
            while pixel < pixels {
                let repeated = UInt64(runByte) &* 0x0101_0101_0101_0101 | unused
                if pixel &+ 4 <= pixels
                    && raw.loadUnaligned(fromByteOffset: 4 &* pixel, as: UInt64.self) | unused == repeated
                    && raw.loadUnaligned(fromByteOffset: 4 &* pixel &+ 8, as: UInt64.self) | unused == repeated {
                    pixel &+= 4
                    continue
                }
                // Red, green, blue: bytes 2, 1, 0.
                for channel in 0..<3 {
                    let byte = bytes[4 &* pixel &+ 2 &- channel]
                    if byte != runByte {
                        let position = 3 &* pixel &+ channel
                        runs[runCount] = UInt32(truncatingIfNeeded: position &- runStart) << 8 | UInt32(runByte)
                        runCount &+= 1
                        (runByte, runStart) = (byte, position)
                    }
                }
                pixel &+= 1
            }
            runs[runCount] = UInt32(truncatingIfNeeded: 3 * pixels - runStart) << 8 | UInt32(runByte)
            return runCount + 1
        }
    }

    /// Colours in the order they first appear (so the same pixels give the same palette).
    /// Past 256 colours, a new colour takes the nearest one already there: only the
    /// antialiased edges of text and shapes get there, the flat colours being placed first
    /// (a card with emoji, whose colours are their own, is written in truecolour instead:
    /// `Encoder.begin`).
    /// Colours are looked up in an open-addressing table of their own: a card changes colour
    /// some 100,000 times, and Dictionary's hashing cost more than drawing the card. 2,048
    /// slots (10 KB) stay in the processor's first cache beside the rows being read: 8,192
    /// made a tenth of the mapping's time cache misses. A colour not remembered maps the same
    /// way again (to its bucket's entry: the palette is full long before the table).
    package final class Palette {
        /// Red, green and blue of each entry. Storage of its own, like the tables below: a
        /// class's array property is checked for exclusive access at run time whenever it
        /// changes, which cost more than the rest of adding a colour.
        private let entries = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * 256)
        @exclusivity(unchecked) package private(set) var count = 0
        package var rgb: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: entries, count: 3 * count) }
        private static let slots = 1 << 11
        /// Beyond this many remembered colours (three quarters full) new ones are not remembered.
        private static let remembered = slots * 3 / 4
        private let keys = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
        private let values = UnsafeMutablePointer<UInt8>.allocate(capacity: slots)
        @exclusivity(unchecked) private var filled = 0
        /// No 0xRRGGBB colour has a high byte, so this marks an empty slot.
        private static let empty = UInt32.max

        package init() {
            keys.initialize(repeating: Self.empty, count: Self.slots)
            values.initialize(repeating: 0, count: Self.slots)
            planes.initialize(repeating: SIMD4(), count: 3 * 64)
            entries.initialize(repeating: 0, count: 3 * 256)
            nearestInBucket.initialize(repeating: -1, count: 1 << 12)
        }

        deinit {
            keys.deallocate()
            values.deallocate()
            planes.deallocate()
            entries.deallocate()
            nearestInBucket.deallocate()
        }

        /// Empties the palette for the next card, which starts with `flatColours`.
        package func reset(_ flatColours: [UInt32]) {
            keys.update(repeating: Self.empty, count: Self.slots)
            filled = 0
            count = 0
            nearestInBucket.update(repeating: -1, count: 1 << 12)
            for colour in flatColours { _ = index(of: colour) }
        }

        @inline(__always)
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
            let entry = count
            (entries[3 * entry], entries[3 * entry + 1], entries[3 * entry + 2]) = (red, green, blue)
            count += 1
            planes[3 * (entry / 4)][entry % 4] = Float(red)
            planes[3 * (entry / 4) + 1][entry % 4] = Float(green)
            planes[3 * (entry / 4) + 2][entry % 4] = Float(blue)
            return UInt8(entry)
        }

        /// For a full palette: the entry chosen for the first colour seen with these top 4 bits
        /// of red, green and blue, or -1.
        private let nearestInBucket = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 12)

        /// The palette's red, green and blue as floats, four entries to a block (red, green,
        /// blue of entries 4k…4k+3 at 3k, 3k+1, 3k+2), so `nearest` compares four at a time.
        private let planes = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 3 * 64)

        /// The first of the 256 entries nearest to this colour (squared distance in RGB, exact
        /// in Float: at most 3 × 255²).
        private func nearest(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
            let red = SIMD4(repeating: Float(red)), green = SIMD4(repeating: Float(green)), blue = SIMD4(repeating: Float(blue))
            var best = SIMD4<Float>(repeating: .infinity), bestBlock = SIMD4<Int32>(repeating: 0)
            for block in 0..<64 {
                let dr = planes[3 &* block] - red, dg = planes[3 &* block &+ 1] - green, db = planes[3 &* block &+ 2] - blue
                let distance = dr * dr + dg * dg + db * db
                // Strictly closer: each lane keeps its first entry at the least distance.
                let closer = distance .< best
                best.replace(with: distance, where: closer)
                bestBlock.replace(with: SIMD4(repeating: Int32(block)), where: closer)
            }
            var answer = 0, answerDistance = Float.infinity
            for lane in 0..<4 {
                let index = Int(bestBlock[lane]) * 4 + lane
                if best[lane] < answerDistance || best[lane] == answerDistance && index < answer {
                    (answer, answerDistance) = (index, best[lane])
                }
            }
            return UInt8(answer)
        }
    }
}

extension PalettePNG {
    /// The `count` colours (0xRRGGBB) that most of an image's pixels other than `besides` are
    /// near: its colours counted in cells of 16 × 16 × 16 (the top four bits of red, green
    /// and blue), the fullest cells' average colours, fullest first (a tie: the lower cell).
    /// Sums of whole numbers, in a fixed order: the same pixels give the same colours.
    package static func commonColours(pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int, besides: [UInt32],
                                      count: Int) -> [UInt32] {
        let cells = 1 << 12
        var pixelCount = [Int](repeating: 0, count: cells), sums = [SIMD4<Int>](repeating: .zero, count: cells)
        let excluded = Set(besides)
        for y in 0..<height {
            let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let colour = row[x] & 0xFF_FFFF
                guard !excluded.contains(colour) else { continue }
                let red = Int(colour >> 16), green = Int(colour >> 8 & 0xFF), blue = Int(colour & 0xFF)
                let cell = (red >> 4) << 8 | (green >> 4) << 4 | blue >> 4
                pixelCount[cell] += 1
                sums[cell] &+= SIMD4(red, green, blue, 0)
            }
        }
        let fullest = (0..<cells).filter { pixelCount[$0] > 0 }
            .sorted { pixelCount[$0] != pixelCount[$1] ? pixelCount[$0] > pixelCount[$1] : $0 < $1 }
        return fullest.prefix(count).map { cell in
            let total = pixelCount[cell], sum = sums[cell]
            func mean(_ channel: Int) -> UInt32 { UInt32((sum[channel] + total / 2) / total) }
            return mean(0) << 16 | mean(1) << 8 | mean(2)
        }
    }
}

/// Draws cards into PNGs, a band of rows at a time: each band is drawn, encoded and cleared
/// while its 460 KB are still in the processor's caches. Drawing a whole card
/// first meant that the encoder, and the clearing for the next card, read its 3 MB back from
/// memory. Surfaces and encoders are kept for reuse, one per rendering thread in use.
public enum PreviewImage {
    public static func png(_ card: PreviewCard) -> [UInt8] {
        png(card, bandRows: Canvas.bandRows)
    }

    /// `card` drawn in bands of at most `bandRows` rows (tests try other heights than the
    /// default: the bytes must not depend on it).
    package static func png(_ card: PreviewCard, bandRows: Int) -> [UInt8] {
        precondition(bandRows > 0 && bandRows <= Canvas.bandRows, "a band is at most \(Canvas.bandRows) rows")
        let canvas = CanvasPool.shared.take()
        // A cairo context that met an error stays in it and draws nothing more: such a canvas
        // is not used again.
        defer { if cairo_status(canvas.cairo) == CAIRO_STATUS_SUCCESS { CanvasPool.shared.give(canvas) } }
        let picture = CardDrawing.layout(card, measuringWith: canvas.cairo)
        let encoder = canvas.encoder
        encoder.begin(flatColours: CardDrawing.Colour.all, inColour: picture.inColour)
        if let bands = picture.bands(maxRows: bandRows, height: PreviewCard.height) {
            // The surface is blank between cards (`Canvas.clear`), so outside where the steps
            // reach, every pixel is the background.
            picture.drawnColumns(into: encoder.drawn, height: PreviewCard.height)
            for band in bands {
                let reached = picture.draw(rows: band, with: canvas.cairo)
                cairo_surface_flush(canvas.surface)
                encoder.add(rows: canvas.pixels, stride: canvas.stride, count: band.count)
                canvas.clear(band, ink: encoder.ink, drawnTo: reached)
            }
        } else {
            // A line of text taller than a band (hostile text): the card whole, on a surface of its own.
            let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(PreviewCard.height))!
            defer { cairo_surface_destroy(surface) }
            CardDrawing.draw(card, on: surface)
            cairo_surface_flush(surface)
            encoder.add(rows: UnsafeRawPointer(cairo_image_surface_get_data(surface)!),
                        stride: Int(cairo_image_surface_get_stride(surface)), count: PreviewCard.height)
        }
        let png = encoder.finish()
        guard picture.inColour && png.count >= maxBytes else { return png }
        return fittedToPalette(card, encoder: encoder)
    }

    /// The most bytes a card may have: link previews are "under 300 KB" (SPEC §8), whichever
    /// kilobyte is meant.
    package static let maxBytes = 300_000

    /// A card whose emoji made it too large in truecolour (every pixel as drawn costs about 2.5
    /// times the palette's bytes: 60 route labels of emoji made 450 KB), as a palette PNG of
    /// the same pixels. Its palette is the card's flat colours, then the colours it has most
    /// of (`PalettePNG.commonColours`), and every other colour is drawn as the nearest of
    /// them. A palette filled in the order colours come, as other cards' is, took the first
    /// emoji's browns and drew the later ones brown. The card is drawn whole, once to count its
    /// colours and for the encoder (drawing in bands gives the same pixels).
    private static func fittedToPalette(_ card: PreviewCard, encoder: PalettePNG.Encoder) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(PreviewCard.height))!
        defer { cairo_surface_destroy(surface) }
        CardDrawing.draw(card, on: surface)
        cairo_surface_flush(surface)
        let pixels = UnsafeRawPointer(cairo_image_surface_get_data(surface)!), stride = Int(cairo_image_surface_get_stride(surface))
        let flat = CardDrawing.Colour.all
        let common = PalettePNG.commonColours(pixels: pixels, stride: stride, width: PreviewCard.width, height: PreviewCard.height,
                                              besides: flat, count: 256 - flat.count)
        return encoder.encode(pixels: pixels, stride: stride, flatColours: flat + common)
    }

    private final class Canvas {
        /// Rows in a band (460 KB), taller than any line of a card's text but hostile ones. The
        /// benchmark machine's Zen 3 cores have 512 KB of second-level cache each, not 1 MB,
        /// yet bands of 64 rows (307 KB) were no faster (Benchmarks/CardBench: 805 against
        /// 795 µs a card); bands too short for the title draw the card whole (1,091 µs).
        static let bandRows = 96
        /// A band of rows, blank between cards (RGB24: cards are opaque, so there is no alpha
        /// to carry into the PNG).
        let surface: OpaquePointer
        /// Draws on `surface`, and measures text while laying a card out.
        let cairo: OpaquePointer
        let pixels: UnsafeMutableRawPointer
        let stride: Int
        let encoder = PalettePNG.Encoder(width: PreviewCard.width, height: PreviewCard.height)

        init() {
            surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(Self.bandRows))!
            cairo = cairo_create(surface)!
            CardDrawing.prepare(cairo)
            ShapeMasks.attach(to: cairo)
            cairo_set_source_rgb(cairo, 1, 1, 1)  // CardDrawing.Colour.surface
            cairo_rectangle(cairo, 0, 0, Double(PreviewCard.width), Double(Self.bandRows))
            cairo_fill(cairo)
            cairo_surface_flush(surface)
            pixels = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
            stride = Int(cairo_image_surface_get_stride(surface))
        }

        deinit {
            cairo_destroy(cairo)
            cairo_surface_destroy(surface)
        }

        /// Paints the ink of `band`'s rows, and only that, in the background colour, and the
        /// surface's rows below the band that its shapes reached (up to card row `drawnTo`)
        /// whole, so the surface is blank again. The encoder found the band's ink from every
        /// pixel, and cairo writes 0xFF in RGB24's unused byte, so the surface is then byte
        /// for byte a blank one.
        func clear(_ band: Range<Int>, ink: UnsafeMutablePointer<PalettePNG.Encoder.Span>, drawnTo: Int) {
            let background = 0xFF00_0000 | CardDrawing.Colour.surface
            for y in band {
                let span = ink[y]
                guard span.end > span.start else { continue }
                (pixels + (y - band.lowerBound) * stride).assumingMemoryBound(to: UInt32.self).advanced(by: Int(span.start))
                    .update(repeating: background, count: Int(span.end - span.start))
            }
            let below = min(drawnTo - band.lowerBound, Self.bandRows)
            if below > band.count {
                (pixels + band.count * stride).assumingMemoryBound(to: UInt32.self)
                    .update(repeating: background, count: (below - band.count) * stride / 4)
            }
            cairo_surface_mark_dirty(surface)
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
