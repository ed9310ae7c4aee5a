import CCairo
import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

@Suite("Link preview images (docs/pages.md)")
struct PreviewTests {
    static func published(_ names: [String], _ rankings: [[Int]], minBallots: Int = 3, title: String = "Poll") -> PublishedPoll {
        var poll = Sample.poll(names)
        poll.title = title
        return PublishedPoll(poll: poll, results: BordaTally.tally(poll: poll, votes: Sample.ballots(rankings), minBallotsForBreakdown: minBallots))
    }

    static func row(_ rank: String, _ name: String, _ points: String, _ share: Double, first: Bool = false, tied: Bool = false) -> PreviewCard.PollCard.Row {
        PreviewCard.PollCard.Row(rank: rank, name: name, points: points, share: share, isFirst: first, tied: tied)
    }

    // MARK: What a card says

    @Test("A tie for first is drawn as a tie: both first, both marked, no single winner")
    func tieCard() {
        // A 7, B 7, C 4 (BordaTallyTests.tieAtTop)
        let card = PreviewCard.poll(Self.published(["A", "B", "C"], [[0, 1, 2], [0, 1, 2], [1, 2, 0]]), siteTitle: "Site")
        #expect(card == .poll(PreviewCard.PollCard(
            title: "Poll", siteTitle: "Site", voters: "3 people have voted.", tie: "Tie for first",
            rows: [Self.row("1st", "A", "7 points", 1, first: true, tied: true),
                   Self.row("1st", "B", "7 points", 1, first: true, tied: true),
                   Self.row("3rd", "C", "4 points", 4.0 / 7)],
            more: nil)))
        #expect(card.altText == "Poll. Poll standings: 3 people have voted. Tie for first. 1st A with 7 points; 1st B with 7 points; 3rd C with 4 points.")
    }

    @Test("The text equivalent says a trip is tied when the trip it ties with is past the card's rows")
    func tieOutOfSight() {
        let card = PreviewCard.poll(PreviewCard.PollCard(
            title: "Poll", siteTitle: "Site", voters: "3 people have voted.", tie: nil,
            rows: [Self.row("1st", "A", "12 points", 1, first: true), Self.row("2nd", "B", "11 points", 0.9),
                   Self.row("3rd", "C", "10.5 points", 0.8),
                   PreviewCard.PollCard.Row(rank: "4th", name: "S", points: "10 points", share: 0.75, isFirst: false, tied: true, tiedPastCard: true)],
            more: "+ 2 more trips"))
        #expect(card.altText == "Poll. Poll standings: 3 people have voted. 1st A with 12 points; 2nd B with 11 points; 3rd C with 10.5 points; 4th S with 10 points, tied with a trip below; + 2 more trips.")
        // From a count: four trips tied for second behind A, four rows shown, so the last row's
        // tie runs on past the card; said once, of it (rows 2–4 read as tied by their ranks).
        let published = Self.published(["A", "B", "C", "D", "E"], [[0, 1, 2, 3, 4], [0, 2, 3, 4, 1], [0, 3, 4, 1, 2], [0, 4, 1, 2, 3]])
        let counted = PreviewCard.poll(published, siteTitle: "Site")
        guard case .poll(let poll) = counted else { Issue.record("not a poll card"); return }
        #expect(poll.rows.map(\.tiedPastCard) == [false, false, false, true])
        #expect(counted.altText.hasSuffix("2nd D with 10 points, tied with a trip below; + 1 more trip."))
    }

    @Test("The itinerary card's text equivalent names a place stopped at again and again once, as route lines do")
    func repeatedStopsNamedOnce() {
        let card = PreviewCard.trip(PreviewCard.TripCard(
            name: "Loop", siteTitle: "Site", dates: "Jun 1 – 3, 2026", games: "2 games", miles: "90 mi", cities: "2 cities",
            route: RoutePicture.make(places: [("Chicago", 41.88, -87.63), ("Chicago", 41.88, -87.63), ("Milwaukee", 43.04, -87.91), ("Chicago", 41.88, -87.63)]
                .enumerated().map { RoutePicture.Place(name: $1.0, marker: String($0 + 1), latitude: $1.1, longitude: $1.2) })))
        #expect(card.altText == "Loop, Jun 1 – 3, 2026: 2 games, 90 mi. Route: Chicago → Milwaukee → Chicago.")
    }

    @Test("Below minBallotsForBreakdown a card shows what the page shows: points and bars, nothing of the breakdown")
    func belowThreshold() {
        let rankings = [[1, 0, 2], [1, 2, 0]]
        let below = Self.published(["A", "B", "C"], rankings, minBallots: 3)
        #expect(below.results.breakdown == nil)
        let card = PreviewCard.poll(below, siteTitle: "Site")
        #expect(card == .poll(PreviewCard.PollCard(
            title: "Poll", siteTitle: "Site", voters: "2 people have voted.", tie: nil,
            // A and C tie for second, as the page marks them.
            rows: [Self.row("1st", "B", "6 points", 1, first: true),
                   Self.row("2nd", "A", "3 points", 0.5, tied: true),
                   Self.row("2nd", "C", "3 points", 0.5, tied: true)],
            more: nil)))
        // The card never carries the breakdown, so publishing it changes nothing drawn.
        #expect(PreviewCard.poll(Self.published(["A", "B", "C"], rankings, minBallots: 1), siteTitle: "Site") == card)
    }

    @Test("With no counted ballot a card says nobody has voted yet and shows no ranks, points or bars")
    func noVotes() {
        let card = PreviewCard.poll(Self.published(["A", "B"], []), siteTitle: "Site")
        let plain = { (name: String) in PreviewCard.PollCard.Row(rank: nil, name: name, points: nil, share: nil, isFirst: false, tied: false) }
        #expect(card == .poll(PreviewCard.PollCard(title: "Poll", siteTitle: "Site", voters: "Nobody has voted yet.", tie: nil,
                                                   rows: [plain("A"), plain("B")], more: nil)))
        #expect(card.altText == "Poll. Poll standings: Nobody has voted yet.")
    }

    @Test("A poll with more trips than fit lists the leaders and counts the rest")
    func moreTrips() {
        let names = (1...7).map { "Trip \($0)" }
        guard case .poll(let card) = PreviewCard.poll(Self.published(names, [Array(0..<7)]), siteTitle: "Site") else {
            Issue.record("not a poll card"); return
        }
        #expect(card.rows.map(\.name) == Array(names.prefix(PreviewCard.maxRows)))
        #expect(card.more == "+ 3 more trips")
    }

    @Test("A title too wide for the card is drawn smaller before it is cut: Fenway, Cooperstown & the Bronx whole at 54 px")
    func titleShrinksBeforeCutting() {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        CardDrawing.prepare(cairo)
        #expect(CardDrawing.titleSize("A: Chicago & Milwaukee", measuringWith: cairo) == 58)
        #expect(CardDrawing.titleSize("Fenway, Cooperstown & the Bronx", measuringWith: cairo) == 54)
        #expect(CardDrawing.titleSize("Great Lakes Loop via Toronto, Detroit and Cleveland", measuringWith: cairo) == 42, "cut at the smallest")
        // The card's width less its margins is 1,072 px: the largest size that fits, else the smallest.
        #expect(CardDrawing.titleSize { $0 * 20 } == 50)
        #expect(CardDrawing.titleSize { $0 * 100 } == 42)
    }

    @Test("Hostile text becomes one drawable line, shortened with an ellipsis to fit")
    func drawableText() {
        #expect(CardText.drawable("  a\u{0}b\n\n\tc\u{2028}d  ") == "a b c d")
        // Plain ASCII is taken as it is; a double space, an edge space or a control is not plain.
        #expect(CardText.drawable("Fenway & the Bronx (2 games)") == "Fenway & the Bronx (2 games)")
        #expect(CardText.drawable("a  b") == "a b")
        #expect(CardText.drawable(" a") == "a")
        #expect(CardText.drawable("a ") == "a")
        #expect(CardText.drawable("a\u{7F}b") == "a b")
        let fitted = CardText.fitted(String(repeating: "W", count: 100), maxWidth: 10) { Double($0.count) }
        #expect(fitted == String(repeating: "W", count: 9) + "…")
        #expect(CardText.fitted("short", maxWidth: 10) { Double($0.count) } == "short")
        // After a whole word where that keeps half the line: "sum…" read as another word.
        #expect(CardText.fitted("which summer mega-trip", maxWidth: 10) { Double($0.count) } == "which…")
        #expect(CardText.fitted("Fenway, Cooperstown & the Bronx", maxWidth: 14) { Double($0.count) } == "Fenway…")
        #expect(CardText.fitted("(Draft) Trip to the coast", maxWidth: 14) { Double($0.count) } == "(Draft) Trip…")
        // A long run-on word is cut within it.
        #expect(CardText.fitted("A TheGreatAmericanBallparkTour", maxWidth: 14) { Double($0.count) } == "A TheGreatAme…")
    }

    // MARK: The PNG

    /// The PNG's chunk types in order, and its IHDR's width, height, bit depth and colour type.
    static func chunks(_ png: [UInt8]) -> (types: [String], width: Int, height: Int, depth: UInt8, colourType: UInt8) {
        func be32(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var types: [String] = [], offset = 8
        while offset + 8 <= png.count {
            let length = be32(offset)
            types.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return (types, be32(16), be32(20), png[24], png[25])
    }

    static let hostileTitle = "‮<script>alert(1)</script> 🏟️🇺🇸 Z̷̢͉a̶l̵g̸o\u{0}\n" + String(repeating: "ﷺ 𒐫 ", count: 200)

    static let cards: [(String, PreviewCard)] = [
        ("tie", PreviewCard.poll(published(["Chicago Loop", "Texas Swing", "Bay Area"], [[0, 1, 2], [0, 1, 2], [1, 2, 0]]), siteTitle: "Summer")),
        ("no votes", PreviewCard.poll(published(["A", "B"], []), siteTitle: "Summer")),
        ("hostile", PreviewCard.poll(published([hostileTitle, "B"], [[0, 1]], title: hostileTitle), siteTitle: hostileTitle)),
        ("trip", PreviewCard.trip(Sample.trip(hostileTitle, index: 1), siteTitle: "Summer", format: Formatting(timeZone: TimeZone(identifier: "UTC")!))),
        ("route", PreviewCard.trip(routeTrip, siteTitle: "Summer", format: Formatting(timeZone: TimeZone(identifier: "UTC")!))),
        ("scripts", PreviewCard.trip(scriptsTrip, siteTitle: "夏の旅 ☀️", format: Formatting(timeZone: TimeZone(identifier: "UTC")!))),
        ("flags", flagsCard),
    ]

    /// A trip named and routed in other scripts and emoji: its lines are shaped by Pango
    /// (ShapedText), its route labels with their halo.
    static let scriptsTrip: Trip = {
        var trip = Sample.trip("⚾ Fenway → 東京 → تل أبيب", index: 3)
        trip.stops = [("Québec", "QC", 46.81, -71.21), ("東京", "", 42.70, -74.92), ("תל אביב", "", 40.71, -74.01),
                      ("São Paulo 🇧🇷", "", 39.95, -75.17)].map {
            Stop(city: $0.0, state: $0.1, latitude: $0.2, longitude: $0.3, arrivalDate: Sample.day, departureDate: Sample.day, games: [])
        }
        return trip
    }()

    /// A trip with stops, so its card draws the route.
    static let routeTrip: Trip = {
        var trip = Sample.trip("Fenway, Cooperstown & the Bronx", index: 2)
        trip.stops = [("Boston", "MA", 42.35, -71.06), ("Cooperstown", "NY", 42.70, -74.92), ("New York", "NY", 40.71, -74.01)].map {
            Stop(city: $0.0, state: $0.1, latitude: $0.2, longitude: $0.3, arrivalDate: Sample.day, departureDate: Sample.day, games: [])
        }
        return trip
    }()

    @Test("A card is a 1200×630 PNG under 300 KB with only the chunks it needs, the same bytes every time: a palette PNG, or truecolour with emoji",
          arguments: cards.indices)
    func png(_ index: Int) {
        let (name, card) = Self.cards[index]
        let png = PreviewImage.png(card)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let parsed = Self.chunks(png)
        #expect(parsed.width == 1200 && parsed.height == 630)
        let inColour = Self.inColour(card)
        #expect(inColour == ["hostile", "trip", "scripts", "flags"].contains(name), "the cards with emoji")
        if inColour {
            #expect(parsed.depth == 8 && parsed.colourType == 2, "truecolour")
            #expect(parsed.types == ["IHDR", "IDAT", "IEND"], "no time, text or other metadata chunks")
        } else {
            #expect(parsed.depth == 8 && parsed.colourType == 3)
            #expect(parsed.types == ["IHDR", "PLTE", "IDAT", "IEND"], "no time, text or other metadata chunks")
        }
        #expect(png.count < 300_000)
        #expect(PreviewImage.png(card) == png)
    }

    /// The image a PNG holds, as 0xRRGGBB per pixel, and its palette (empty for truecolour):
    /// IDAT inflated by zlib (which checks the stream's checksum), rows unfiltered (any of PNG's
    /// five filters), indices looked up in PLTE. Every chunk's CRC is checked.
    static func decode(_ png: [UInt8]) -> (pixels: [UInt32], palette: [UInt32])? {
        func be32(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        guard png.count > 33 else { return nil }
        var palette: [UInt32] = [], idat: [UInt8] = [], offset = 8
        while offset + 12 <= png.count {
            let length = be32(offset), type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let crc = png.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + offset + 4, uInt(length + 4)) }
            guard Int(crc) == be32(offset + 8 + length) else { return nil }
            let data = Array(png[offset + 8..<offset + 8 + length])
            if type == "PLTE" { palette = stride(from: 0, to: data.count, by: 3).map { UInt32(data[$0]) << 16 | UInt32(data[$0 + 1]) << 8 | UInt32(data[$0 + 2]) } }
            if type == "IDAT" { idat += data }
            offset += 12 + length
        }
        let (width, height) = (PreviewCard.width, PreviewCard.height)
        guard png[24] == 8, png[26] == 0, png[27] == 0, png[28] == 0 else { return nil }
        let channels: Int
        switch png[25] {
        case 3: channels = 1
        case 2 where palette.isEmpty: channels = 3
        default: return nil
        }
        let rowBytes = width * channels
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height + 1)
        var rawCount = uLong(raw.count)
        guard uncompress(&raw, &rawCount, idat, uLong(idat.count)) == Z_OK, rawCount == uLong((rowBytes + 1) * height) else { return nil }
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let filter = raw[y * (rowBytes + 1)]
            for x in 0..<rowBytes {
                let value = raw[y * (rowBytes + 1) + 1 + x]
                let left = x >= channels ? Int(bytes[y * rowBytes + x - channels]) : 0
                let up = y > 0 ? Int(bytes[(y - 1) * rowBytes + x]) : 0
                let upLeft = y > 0 && x >= channels ? Int(bytes[(y - 1) * rowBytes + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
                default: return nil
                }
                bytes[y * rowBytes + x] = value &+ UInt8(truncatingIfNeeded: predicted)
            }
        }
        if channels == 3 {
            return ((0..<width * height).map { UInt32(bytes[3 * $0]) << 16 | UInt32(bytes[3 * $0 + 1]) << 8 | UInt32(bytes[3 * $0 + 2]) }, [])
        }
        guard bytes.allSatisfy({ Int($0) < palette.count }) else { return nil }
        return (bytes.map { palette[Int($0)] }, palette)
    }

    /// Whether `card` has colour glyphs (emoji), which make it a truecolour PNG.
    static func inColour(_ card: PreviewCard) -> Bool {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        CardDrawing.prepare(cairo)
        return CardDrawing.layout(card, measuringWith: cairo).inColour
    }

    /// The pixels cairo draws for `card`, as 0xRRGGBB.
    static func drawn(_ card: PreviewCard) -> [UInt32] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(PreviewCard.height))!
        defer { cairo_surface_destroy(surface) }
        CardDrawing.draw(card, on: surface)
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!, stride = Int(cairo_image_surface_get_stride(surface))
        return (0..<PreviewCard.height).flatMap { y in
            UnsafeRawPointer(data + y * stride).withMemoryRebound(to: UInt32.self, capacity: PreviewCard.width) { row in
                (0..<PreviewCard.width).map { row[$0] & 0xFF_FFFF }
            }
        }
    }

    @Test("A card's PNG decodes to the pixels cairo drew: every colour its palette holds exactly where it was drawn, and in truecolour every pixel",
          arguments: cards.indices)
    func decodesToDrawing(_ index: Int) throws {
        let card = Self.cards[index].1
        let (pixels, palette) = try #require(Self.decode(PreviewImage.png(card)))
        let drawn = Self.drawn(card)
        #expect(palette.isEmpty == Self.inColour(card))
        let inPalette = Set(palette)
        // Past 256 colours, a colour the palette could not take is drawn as one it holds.
        let differences = zip(pixels, drawn).enumerated().filter { $0.element.0 != $0.element.1 && (palette.isEmpty || inPalette.contains($0.element.1)) }
        #expect(differences.isEmpty, "\(differences.count) pixels differ, the first in row \((differences.first?.offset ?? 0) / PreviewCard.width)")
        let replaced = zip(pixels, drawn).filter { $0 != $1 }.count
        #expect(replaced == 0 || (palette.count == 256 && Set(drawn).count > 256))
    }

    /// The PNG of `card` drawn whole on one surface and encoded in one go: what drawing in
    /// bands must give byte for byte.
    static func drawnWhole(_ card: PreviewCard) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(PreviewCard.width), Int32(PreviewCard.height))!
        defer { cairo_surface_destroy(surface) }
        let picture = CardDrawing.draw(card, on: surface)
        cairo_surface_flush(surface)
        return PalettePNG.Encoder(width: PreviewCard.width, height: PreviewCard.height)
            .encode(pixels: cairo_image_surface_get_data(surface)!, stride: Int(cairo_image_surface_get_stride(surface)),
                    flatColours: CardDrawing.Colour.all, inColour: picture.inColour)
    }

    /// An itinerary card from `card-bench --kind trip` (Benchmarks/CardBench): the first glyph
    /// of its "Kansas City" label landed a pixel to the right when the canvas had drawn the
    /// card in bands of 96 rows just before, which left a current point on its context.
    static let labelCard = PreviewCard.trip(PreviewCard.TripCard(
        name: "Long-Weekend Road Trip #36", siteTitle: "sitegen benchmark (1000 polls)", dates: "Jun 17 – 24, 2026",
        games: "6 games", miles: "1285 mi", cities: "6 cities",
        route: RoutePicture.make(places: [("Milwaukee", 43.04, -87.91), ("Denver", 39.74, -104.99), ("Los Angeles", 34.05, -118.24),
                                          ("San Francisco", 37.77, -122.42), ("Kansas City", 39.10, -94.58), ("Minneapolis", 44.98, -93.27)]
            .enumerated().map { RoutePicture.Place(name: $1.0, marker: String($0 + 1), latitude: $1.1, longitude: $1.2) })))

    @Test("A card's bytes do not depend on what its canvas drew before: its text is measured from no current point")
    func measuredFromNoCurrentPoint() {
        let whole = Self.drawnWhole(Self.labelCard)
        for rows in [96, 80, 96, 64, 80, 90] {
            #expect(PreviewImage.png(Self.labelCard, bandRows: rows) == whole, "bands of \(rows) rows")
        }
    }

    @Test("Drawn in bands of any height, a card's PNG is the PNG of the card drawn whole, byte for byte",
          arguments: cards.indices)
    func bandsDrawTheWholeCard(_ index: Int) {
        let card = Self.cards[index].1
        let whole = Self.drawnWhole(card)
        #expect(PreviewImage.png(card) == whole)
        // 8 rows: every line of text is taller, so the card is drawn whole on a surface of its own.
        for rows in [8, 33, 64, 90] {
            #expect(PreviewImage.png(card, bandRows: rows) == whole, "bands of \(rows) rows")
        }
    }

    @Test("Outside the columns its steps reach, a card drawn whole is the background: the encoder reads only those",
          arguments: cards.indices)
    func drawnColumns(_ index: Int) throws {
        let card = Self.cards[index].1
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        CardDrawing.prepare(cairo)
        let picture = CardDrawing.layout(card, measuringWith: cairo)
        let columns = UnsafeMutablePointer<PalettePNG.Encoder.Span>.allocate(capacity: PreviewCard.height)
        defer { columns.deallocate() }
        picture.drawnColumns(into: columns, height: PreviewCard.height)
        let drawn = Self.drawn(card), width = PreviewCard.width
        var outside = 0, firstRow: Int?
        for y in 0..<PreviewCard.height {
            let span = columns[y]
            for x in 0..<width where (x < span.start || x >= span.end) && drawn[y * width + x] != CardDrawing.Colour.surface {
                outside += 1
                firstRow = firstRow ?? y
            }
        }
        #expect(outside == 0, "\(outside) pixels drawn outside the columns, the first in row \(firstRow ?? -1)")
        // Not trivially true: the margins are outside every step.
        #expect((0..<PreviewCard.height).allSatisfy { columns[$0].start >= 60 || columns[$0].end <= columns[$0].start || $0 < 16 })
    }

    @Test("A route point that is not a number does not crash the drawing, and the cards drawn after it are whole")
    func notANumber() throws {
        guard case .trip(var trip) = Self.cards[4].1, var route = trip.route else { Issue.record("the route card"); return }
        route.points[1].y = .nan
        route.points[2].x = .infinity
        trip.route = route
        for _ in 0..<3 {
            let png = PreviewImage.png(.trip(trip))
            #expect(Self.chunks(png).width == PreviewCard.width && png.count < 300_000)
            _ = try #require(Self.decode(png))
            for (_, card) in Self.cards { #expect(PreviewImage.png(card) == Self.drawnWhole(card)) }
        }
    }

    @Test("Bands cover the card top to bottom, each at most the height asked, and no edge cuts a line of text",
          arguments: cards.indices)
    func bandsNeverCutText(_ index: Int) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        CardDrawing.prepare(cairo)
        let picture = CardDrawing.layout(Self.cards[index].1, measuringWith: cairo)
        let text = picture.steps.filter(\.isText).map(\.rows)
        let title = switch Self.cards[index].1 {
        case .poll(let poll): poll.title
        case .trip(let trip): trip.name
        }
        if CardText.needsShaping(CardText.drawable(title)) {
            // Drawn by Pango into a sprite, whose pixels are the same whichever band paints them.
            #expect(picture.steps.contains { !$0.isText && $0.rows.count >= 50 }, "the title's sprite: 58 px and more")
        } else {
            #expect(text.contains { $0.count >= 50 }, "the title, measured to its ink: 58 px")
        }
        // Lines of text that overlap (a route's stop numbers and names) cannot be parted either.
        let lines = text.sorted { $0.lowerBound < $1.lowerBound }.reduce(into: [Range<Int>]()) { lines, rows in
            if let last = lines.last, last.upperBound > rows.lowerBound {
                lines[lines.count - 1] = last.lowerBound..<max(last.upperBound, rows.upperBound)
            } else {
                lines.append(rows)
            }
        }
        let tallest = lines.map(\.count).max()!
        #expect(tallest <= 96, "every test card is drawn in PreviewImage's bands, none whole")
        for maxRows in [tallest, tallest + 17, 96] {
            let bands = try #require(picture.bands(maxRows: maxRows, height: PreviewCard.height))
            #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == PreviewCard.height)
            #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(bands.allSatisfy { !$0.isEmpty && $0.count <= maxRows })
            let edges = bands.dropLast().map(\.upperBound)
            #expect(!edges.contains { edge in text.contains { $0.lowerBound < edge && $0.upperBound > edge } })
        }
        #expect(picture.bands(maxRows: tallest - 1, height: PreviewCard.height) == nil, "a line taller than a band")
    }

    /// `shapes` filled one after another on a blank 1200×80 surface in the accent blue, by a cairo
    /// context with a canvas's masks or without (which draws each from its two ends' masks and
    /// a rectangle); the surface's bytes.
    static func filled(_ shapes: [(x: Double, y: Double, width: Double, height: Double, radius: Double)], keepingMasks: Bool) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1200, 80)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        if keepingMasks { ShapeMasks.attach(to: cairo) }
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_paint(cairo)
        cairo_set_source_rgb(cairo, 0x0B / 255.0, 0x5C / 255.0, 0xAD / 255.0)
        for shape in shapes {
            ShapeMasks.fillRoundedRect(cairo, shape.x, shape.y, shape.width, shape.height, radius: shape.radius)
        }
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        return Array(UnsafeBufferPointer(start: data, count: Int(cairo_image_surface_get_stride(surface)) * 80))
    }

    @Test("A rounded rectangle drawn from its whole mask has the pixels of its ends' masks and its middle")
    func wholeMasksMatchEnds() {
        // A badge and a bar track as the cards draw them, a bar over the track, and shapes
        // whose ends meet or whose radius is not a whole number, each drawn twice (the second
        // time from the mask the first one kept).
        let shapes: [(x: Double, y: Double, width: Double, height: Double, radius: Double)] = [
            (64, 4, 96, 44, 22), (180, 52, 956, 14, 7), (180, 52, 600, 14, 7), (64, 4, 96, 44, 22),
            (10, 50, 14, 14, 7), (30, 50, 14, 13, 6.5), (50, 60, 15, 12, 5.5), (200, 2, 120, 40, 19.25),
            (400, 5, 64, 64, 32), (10, 50, 14, 14, 7),
        ]
        let kept = Self.filled(shapes, keepingMasks: true), ends = Self.filled(shapes, keepingMasks: false)
        #expect(kept.count == 1200 * 4 * 80 && ends.count == kept.count)
        let differing = zip(kept, ends).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) bytes differ")
        #expect(Set(kept).count > 2, "the shapes were drawn")
    }

    @Test("A card of flat colours and their edges with more colours than a palette holds keeps its palette: full, and the card still decodes")
    func fullPalette() throws {
        let card = Self.cards[0].1
        let (pixels, palette) = try #require(Self.decode(PreviewImage.png(card)))
        #expect(palette.count == 256 && Set(Self.drawn(card)).count > 256)
        #expect(pixels.count == PreviewCard.width * PreviewCard.height)
    }

    @Test("The hostile card, with emoji and thousands of colours, is written in truecolour, every pixel as drawn")
    func hostileInTruecolour() throws {
        let card = Self.cards[2].1
        let png = PreviewImage.png(card)
        let (pixels, palette) = try #require(Self.decode(png))
        let drawn = Self.drawn(card)
        #expect(palette.isEmpty && Self.chunks(png).colourType == 2 && Set(drawn).count > 256)
        #expect(pixels == drawn)
    }

    @Test("Lines with emoji have colour glyphs; Latin, other scripts and symbols drawn in one colour have none")
    func colourGlyphs() {
        for line in ["🏈 Road trip", "🇫🇷", "Paris 🇬🇧", "☀️", "⚾", "São Paulo 🇧🇷", "👨‍👩‍👧"] {
            #expect(ShapedText.hasColourGlyphs(line), "\(line)")
            #expect(ShapedText.hasColourGlyphs(line, bold: true), "\(line)")
        }
        for line in ["東京", "مرحبا", "תל אביב", "→", "Z̷a̶l̵g̸o", "Fenway"] {
            #expect(!ShapedText.hasColourGlyphs(line), "\(line)")
        }
    }

    /// A poll whose title is flags and a stadium: red, white, blue and green emoji, more
    /// colours than a palette holds.
    static let flagsCard = PreviewCard.poll(published(["A", "B"], [[0, 1]], title: "🇫🇷🇬🇧🇯🇵🏟️ Paris"), siteTitle: "Summer")

    @Test("Emoji past a palette's 256 colours keep their own: the French flag's red, Japan's disc, the stadium's green, as cairo drew them")
    func emojiPastThePalette() throws {
        let card = Self.flagsCard
        let (pixels, _) = try #require(Self.decode(PreviewImage.png(card)))
        let drawn = Self.drawn(card)
        #expect(Set(drawn).count > 256, "the card has more colours than a palette holds")
        // The title's emoji (baseline 148, 58 px, from x = 64), each pixel against cairo's.
        var worst = 0, worstAt = (x: 0, y: 0)
        var decodedHues = (red: 0, green: 0, blue: 0), drawnHues = (red: 0, green: 0, blue: 0)
        func count(_ rgb: UInt32, into hues: inout (red: Int, green: Int, blue: Int)) {
            let (red, green, blue) = (Int(rgb >> 16), Int(rgb >> 8 & 0xFF), Int(rgb & 0xFF))
            if red > 180 && green < 90 && blue < 90 { hues.red += 1 }
            // The stadium's pitch is a yellowish green (about 183, 208, 22).
            if green > 120 && green > red + 15 && green > blue + 80 { hues.green += 1 }
            if blue > 100 && red < 60 && green < blue - 40 { hues.blue += 1 }
        }
        for y in 80..<170 {
            for x in 60..<420 {
                let (decoded, cairo) = (pixels[y * PreviewCard.width + x], drawn[y * PreviewCard.width + x])
                let error = [16, 8, 0].map { abs(Int(decoded >> $0 & 0xFF) - Int(cairo >> $0 & 0xFF)) }.max()!
                if error > worst { (worst, worstAt) = (error, (x, y)) }
                count(decoded, into: &decodedHues)
                count(cairo, into: &drawnHues)
            }
        }
        #expect(worst <= 8, "a channel \(worst) of 255 away from cairo's at (\(worstAt.x), \(worstAt.y))")
        #expect(drawnHues.red > 300 && drawnHues.green > 100 && drawnHues.blue > 300, "cairo drew red, green and blue: \(drawnHues)")
        #expect(decodedHues.red > 300 && decodedHues.green > 100 && decodedHues.blue > 300, "\(decodedHues)")
    }

    @Test("A card's bytes do not depend on the cards drawn before it or on the thread drawing it")
    func reuseAndThreads() async {
        let first = Self.cards.map { PreviewImage.png($0.1) }
        #expect(Self.cards.reversed().map { PreviewImage.png($0.1) } == first.reversed())
        let concurrent = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<3 {
                for index in Self.cards.indices { group.addTask { (index, PreviewImage.png(Self.cards[(index + round) % Self.cards.count].1)) } }
            }
            return await group.reduce(into: [(Int, [UInt8])]()) { $0.append($1) }
        }
        #expect(concurrent.count == 3 * Self.cards.count)
        #expect(Set(concurrent.map { $0.1 }) == Set(first))
    }

    @Test("A scaled font a card was drawn with keeps a reference of its own: cairo 1.16 aborts when one loses its last while another thread draws with it")
    func scaledFontsKept() throws {
        // Built the way CardDrawing builds it (the toy face is cairo's same object, the
        // options the cards' own), this context gets the title's scaled font from cairo's font
        // map. Other tests' threads hold fonts too, so its reference count alone proves
        // nothing: the test asks whether it is one of those kept.
        let poll = try #require(Self.cards.first { if case .poll = $0.1 { true } else { false } })
        _ = PreviewImage.png(poll.1)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 16, 16)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        CardDrawing.prepare(cairo)
        let bold = cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)!
        defer { cairo_font_face_destroy(bold) }
        cairo_set_font_face(cairo, bold)
        cairo_set_font_size(cairo, 58)
        let title = try #require(cairo_get_scaled_font(cairo))
        #expect(CardDrawing.keepsForever(title))
        #expect(cairo_scaled_font_get_reference_count(title) >= 2, "this context's reference and the kept one")
        cairo_set_font_size(cairo, 57)
        #expect(!CardDrawing.keepsForever(try #require(cairo_get_scaled_font(cairo))), "a size no card uses")
    }

    // MARK: Text in other scripts

    @Test("Latin, Greek and Cyrillic keep cairo's own text; emoji, other scripts, marks and direction controls are shaped by Pango")
    func whichLinesAreShaped() {
        for line in ["Fenway & the Bronx", "Montréal – Zürich “Ø” €5 ™ …", "Αθήνα", "Москва", "Łódź, Kraków"] {
            #expect(!CardText.needsShaping(line), "\(line)")
        }
        for line in ["🏟️ Ballparks", "東京", "مرحبا", "תל אביב", "नमस्ते", "กรุงเทพ", "서울", "e\u{301}", "a\u{200D}b",
                     "\u{202E}abc", "soft\u{AD}hyphen", "ok\u{FE0F}", "→"] {
            #expect(CardText.needsShaping(line), "\(line)")
        }
    }

    @Test("Emoji and the scripts friends write in have a font: nothing is drawn as a box")
    func noMissingGlyphs() {
        for line in ["🏈 Road trip 🚗", "🇺🇸 🇯🇵 👨‍👩‍👧 ⚾️", "東京 大阪", "서울", "مرحبا بكم", "תל אביב", "नमस्ते", "กรุงเทพ",
                     "Ελλάδα", "São Paulo", "Z̷a̶l̵g̸o"] {
            #expect(ShapedText.missingGlyphs(line) == 0, "\(line)")
            #expect(ShapedText.missingGlyphs(line, bold: true) == 0, "\(line)")
        }
        #expect(ShapedText.missingGlyphs("\u{E000}") == 1, "a private-use character has no font: the count sees boxes")
    }

    @Test("An emoji in a title is drawn in its own colours, where cairo's own text drew a box")
    func emojiInColour() throws {
        let card = PreviewCard.poll(Self.published(["A", "B"], [[0, 1]], title: "🏈 Game day"), siteTitle: "Summer")
        let (pixels, _) = try #require(Self.decode(PreviewImage.png(card)))
        // Around the title's first character (baseline 148, 58 px, from x = 64): the
        // football's browns, which neither the text's colour nor a blend of it with white is.
        let warm = (90..<165).flatMap { y in (60..<140).map { pixels[y * PreviewCard.width + $0] } }.filter { rgb in
            let (red, green, blue) = (Int(rgb >> 16), Int(rgb >> 8 & 0xFF), Int(rgb & 0xFF))
            return red > green + 40 && red > blue + 60
        }
        #expect(warm.count > 200, "\(warm.count) brown pixels")
    }

    @Test("A title that reads right to left starts at the card's margin like every line")
    func rightToLeftTitle() throws {
        let card = PreviewCard.poll(Self.published(["A", "B"], [[0, 1]], title: "שלום עולם?"), siteTitle: "Summer")
        let (pixels, _) = try #require(Self.decode(PreviewImage.png(card)))
        // The title's rows (baseline 148, 58 px): where its ink starts and ends.
        let inked = (90..<165).flatMap { y in (0..<PreviewCard.width).filter { pixels[y * PreviewCard.width + $0] != CardDrawing.Colour.surface } }
        let (first, last) = (try #require(inked.min()), try #require(inked.max()))
        #expect((60...70).contains(first), "starts at \(first), the margin is 64")
        #expect(last < 600, "ends at \(last): not pushed to the right edge, as Pango aligns a right-to-left line")
    }

    /// Random text from the ranges that reach Pango and those that trip up text drawing:
    /// marks, joiners, direction controls, private use, unassigned planes, controls.
    static func randomText(_ generator: inout some RandomNumberGenerator) -> String {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x590...0x5FF, 0x600...0x6FF,
                                             0x900...0x97F, 0xE00...0xE7F, 0x1100...0x11FF, 0x200B...0x200F, 0x202A...0x202E,
                                             0x2066...0x2069, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xE000...0xE0FF, 0xFE00...0xFE0F,
                                             0x1F300...0x1FAFF, 0x1F1E6...0x1F1FF, 0xE0020...0xE007F, 0x30000...0x3134A, 0x0...0x1F]
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...120, using: &generator) {
            let range = ranges.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { text.append(scalar) }
        }
        return String(text)
    }

    @Test("Random text in every script, with marks, joiners and direction controls, draws cards that decode, the same in bands as whole")
    func randomTextCards() throws {
        var generator = SplitMix64(seed: 17)
        for round in 0..<25 {
            let title = Self.randomText(&generator), name = Self.randomText(&generator)
            var trip = Self.scriptsTrip
            trip.name = title
            trip.stops[1].city = name
            let cards = [PreviewCard.poll(Self.published([name, Self.randomText(&generator)], [[0, 1], [1, 0], [0, 1]], title: title),
                                          siteTitle: Self.randomText(&generator)),
                         PreviewCard.trip(trip, siteTitle: name, format: Formatting(timeZone: TimeZone(identifier: "UTC")!))]
            for card in cards {
                let png = PreviewImage.png(card)
                #expect(Self.decode(png) != nil, "round \(round)")
                #expect(png.count < 300_000, "round \(round)")
                #expect(png == Self.drawnWhole(card), "round \(round): bands and whole differ")
            }
        }
    }

    @Test("Cards in every script drawn beside Latin cards on other threads: no crash, and the Latin cards keep their bytes (GlyphLock)")
    func scriptsBesideLatinOnThreads() async {
        // Without the lock around every use of glyphs, this crashed in cairo within a few
        // runs of the suite (a null or wild pointer in its shared glyph caches).
        let latin = Self.cards[0].1
        let expected = PreviewImage.png(latin)
        let drawn = await withTaskGroup(of: Bool.self) { group in
            for seed in [UInt64(5), 6] {
                group.addTask {
                    var generator = SplitMix64(seed: seed)
                    for _ in 0..<25 {
                        let text = Self.randomText(&generator)
                        _ = PreviewImage.png(PreviewCard.poll(Self.published([text, Self.randomText(&generator)], [[0, 1]], title: text),
                                                              siteTitle: Self.randomText(&generator)))
                    }
                    return true
                }
            }
            for _ in 0..<2 {
                group.addTask { (0..<40).allSatisfy { _ in PreviewImage.png(latin) == expected } }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(drawn)
    }

    @Test("A shaped line is cut to 1,000 characters and 4,000 scalars before Pango shapes it; a megabyte title still makes a card")
    func shapedLineCapped() {
        #expect(ShapedText.capped(String(repeating: "東", count: 5_000)) == String(repeating: "東", count: 1_000))
        #expect(ShapedText.capped("e" + String(repeating: "\u{301}", count: 10_000)).unicodeScalars.count == 4_000)
        #expect(ShapedText.capped("東京") == "東京")
        let title = String(repeating: "🏟️ 東京 ", count: 150_000)
        let png = PreviewImage.png(PreviewCard.poll(Self.published([title, "B"], [[0, 1]], title: title), siteTitle: title))
        #expect(Self.chunks(png).width == 1200 && png.count < 300_000)
    }

    // MARK: The drawing code

    /// An itinerary of 60 stops each named by 12 emoji, titled and signed with emoji, every
    /// name drawn: in truecolour, every pixel as drawn, its card is over 400 KB. (Placed as a
    /// build places them, most of those names are left out of so crowded a picture.)
    static let emojiRouteCard: PreviewCard = {
        let emoji = Array(0x1F300...0x1F5FF) + Array(0x1F600...0x1F64F) + Array(0x1F680...0x1F6C5) + Array(0x1F900...0x1F9FF)
        var trip = Sample.trip("🏈🇯🇵 Emoji road trip 🚗🏟️", index: 4)
        trip.stops = (0..<60).map { stop in
            let name = String(String.UnicodeScalarView((0..<12).compactMap { Unicode.Scalar(UInt32(emoji[(stop * 12 + $0) * 7_919 % emoji.count])) }))
            return Stop(city: name, state: "", latitude: 25 + Double(stop * 37 % 23), longitude: -120 + Double(stop * 53 % 50),
                        arrivalDate: Sample.day, departureDate: Sample.day, games: [])
        }
        guard case .trip(var card) = PreviewCard.trip(trip, siteTitle: "夏の旅 ☀️🌊", format: Formatting(timeZone: TimeZone(identifier: "UTC")!)) else {
            fatalError("an itinerary's card")
        }
        let points = card.route!.points.map { point in
            var shown = point
            shown.labelShown = true
            return shown
        }
        card.route?.points = points
        return .trip(card)
    }()

    @Test("A card whose emoji make it 300 KB or more in truecolour is the palette PNG of the same pixels, under 300 KB, the same bytes every time")
    func emojiCardUnderTheLimit() throws {
        let card = Self.emojiRouteCard
        #expect(Self.inColour(card))
        let truecolour = Self.drawnWhole(card)
        #expect(truecolour.count >= PreviewImage.maxBytes, "\(truecolour.count) bytes in truecolour")
        let png = PreviewImage.png(card)
        #expect(png.count < 300_000, "\(png.count) bytes")
        let parsed = Self.chunks(png)
        #expect(parsed.depth == 8 && parsed.colourType == 3 && parsed.types == ["IHDR", "PLTE", "IDAT", "IEND"])
        #expect(PreviewImage.png(card) == png)
        #expect(PreviewImage.png(card, bandRows: 64) == png, "the same drawn in other bands")
        // Every pixel whose colour the palette holds is that colour; the palette is the card's
        // flat colours, then the colours most of its pixels are near.
        let (pixels, palette) = try #require(Self.decode(png))
        var seen: Set<UInt32> = []
        let flat = CardDrawing.Colour.all.filter { seen.insert($0).inserted }
        #expect(palette.count == 256 && Array(palette.prefix(flat.count)) == flat)
        let drawn = Self.drawn(card), inPalette = Set(palette)
        let wrong = zip(pixels, drawn).filter { $0 != $1 && inPalette.contains($1) }.count
        #expect(wrong == 0)
        // Any other is drawn as a near one: no emoji turns brown.
        func distance(_ a: UInt32, _ b: UInt32) -> Int {
            var sum = 0
            for shift: UInt32 in [16, 8, 0] {
                let difference = Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF)
                sum += difference * difference
            }
            return sum
        }
        let far = zip(pixels, drawn).filter { distance($0, $1) > 3 * 24 * 24 }.count
        #expect(far < drawn.count / 200, "\(far) pixels more than 24 a channel away from their colour")
    }

    /// A poll or itinerary card titled `title`.
    static func titled(_ title: String, trip: Bool) -> PreviewCard {
        trip ? PreviewCard.trip(Sample.trip(title, index: 1), siteTitle: "Summer", format: Formatting(timeZone: TimeZone(identifier: "UTC")!))
            : PreviewCard.poll(published(["Trip 1", "Trip 2"], [[0, 1], [1, 0], [0, 1]], title: title), siteTitle: "Summer")
    }

    @Test("Combining marks stacked on one letter are drawn within the title's line: the top bar, the eyebrow and everything below keep their pixels",
          arguments: [(0x301, false), (0x301, true), (0x316, false), (0x316, true)])
    func markStackClipped(_ mark: UInt32, trip: Bool) throws {
        let accent = String(Unicode.Scalar(mark)!)
        let stacked = Self.drawn(Self.titled("Z" + String(repeating: accent, count: 500) + " trip", trip: trip))
        let single = Self.drawn(Self.titled("Z" + accent + " trip", trip: trip))
        // The title's line box at 58 px, baseline 148: DejaVu Sans Bold's ascent and descent
        // (0.928 and 0.236 of the size), and a quarter of the size and a pixel more either side.
        let line = 78..<178
        let width = PreviewCard.width
        let changedRows = Set(zip(stacked, single).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset / width })
        #expect(!changedRows.isEmpty && changedRows.isSubset(of: Set(line)), "rows \(changedRows.sorted().first ?? 0)–\(changedRows.sorted().last ?? 0) changed")
        #expect(stacked[0..<14 * width].allSatisfy { $0 == CardDrawing.Colour.accent }, "the top bar")
        let card = Self.titled("Z" + String(repeating: accent, count: 500) + " trip", trip: trip)
        #expect(PreviewImage.png(card) == Self.drawnWhole(card), "the same drawn in bands")
    }

    @Test("Every key covers the cards' drawing code: its version, size, colours, the libraries that draw it and the fonts they draw with")
    func keysCoverTheDrawing() throws {
        let code = PreviewCard.drawingCode
        #expect(code.hasPrefix("sitegen cards \(PreviewCard.drawingVersion); 1200x630; colours ffffff,f6f7f9,1c2330,"))
        #expect(code.contains("; cairo \(String(cString: cairo_version_string())); pango \(String(cString: pango_version_string())); fonts "))
        #expect(code.hasSuffix("; fontconfig \(FcGetVersion()); freetype \(Self.freeTypeVersion()); harfbuzz \(String(cString: hb_version_string()))"
            + "; pixman \(String(cString: pixman_version_string()))"))
        // "fonts N <SHA-256>": at least DejaVu Sans, DejaVu Sans Bold and fontconfig's own configuration.
        let fonts = try #require(code.components(separatedBy: "; ").first { $0.hasPrefix("fonts ") }).split(separator: " ")
        #expect(fonts.count == 3 && Int(fonts[1]).map { $0 >= 3 } == true && fonts[2].count == 64)
        #expect(CardDrawing.Colour.all.first == CardDrawing.Colour.surface, "a reused surface is cleared to the encoder's background")
        #expect(BuildFingerprint.toolLines(previews: true).contains("cards " + code))
        #expect(!BuildFingerprint.toolLines(previews: false).contains { $0.hasPrefix("cards ") }, "a site without cards does not depend on fonts")
    }

    static func freeTypeVersion() -> String {
        var library: FT_Library?
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        guard FT_Init_FreeType(&library) == 0 else { return "?" }
        defer { FT_Done_FreeType(library) }
        FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    // MARK: The pages

    func build(_ configure: (inout String) -> Void) throws -> (TemporarySite, [String: Data]) {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        var yaml = try site.read("site.yml")
        configure(&yaml)
        try site.write("site.yml", yaml)
        let log = DiagnosticLog()
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: log).run()
        return (site, try fileTree(site.root.appendingPathComponent("Output")))
    }

    @Test("Poll and itinerary pages name their card with absolute URLs, size, a text equivalent and a large Twitter card")
    func metaTags() throws {
        let (_, tree) = try build { _ in }
        let poll = String(decoding: tree["polls/X7K9M2/index.html"]!, as: UTF8.self)
        #expect(poll.contains(#"<meta property="og:image" content="https://example.org/trips/polls/X7K9M2/preview.png">"#))
        #expect(poll.contains(#"<meta property="og:image:width" content="1200">"#))
        #expect(poll.contains(#"<meta property="og:image:height" content="630">"#))
        #expect(poll.contains(#"<meta property="og:image:alt" content="#))
        #expect(poll.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
        let trip = String(decoding: tree["trips/11111111-1111-1111-1111-111111111111/index.html"]!, as: UTF8.self)
        #expect(trip.contains(#"content="https://example.org/trips/trips/11111111-1111-1111-1111-111111111111/preview.png""#))
        let pollTrip = String(decoding: tree["polls/X7K9M2/trips/1/index.html"]!, as: UTF8.self)
        #expect(pollTrip.contains(#"content="https://example.org/trips/polls/X7K9M2/preview.png""#))
        #expect(tree["polls/X7K9M2/preview.png"] != nil && tree["trips/11111111-1111-1111-1111-111111111111/preview.png"] != nil)
        let tips = String(decoding: tree["tips/index.html"]!, as: UTF8.self)
        #expect(!tips.contains("og:image") && tips.contains(#"<meta name="twitter:card" content="summary">"#))
    }

    @Test("Without baseURL the image URL is relative")
    func relativeImage() throws {
        let (_, tree) = try build { $0 = $0.replacingOccurrences(of: "baseURL: https://example.org/trips/\n", with: "") }
        let poll = String(decoding: tree["polls/X7K9M2/index.html"]!, as: UTF8.self)
        #expect(poll.contains(#"<meta property="og:image" content="../../polls/X7K9M2/preview.png">"#))
    }

    @Test("previews: false draws no card and names none")
    func turnedOff() throws {
        let (_, tree) = try build { $0 += "previews: false\n" }
        #expect(tree.keys.filter { $0.hasSuffix(".png") }.isEmpty)
        let poll = String(decoding: tree["polls/X7K9M2/index.html"]!, as: UTF8.self)
        #expect(!poll.contains("og:image") && poll.contains(#"<meta name="twitter:card" content="summary">"#))
    }

    @Test("previews must be true or false")
    func configValue() throws {
        let file = URL(fileURLWithPath: "/tmp/site.yml")
        #expect(try SiteConfigLoader.parse("title: T\n", file: file).previews)
        #expect(try !SiteConfigLoader.parse("title: T\npreviews: false\n", file: file).previews)
        #expect(throws: ConfigError.self) { try SiteConfigLoader.parse("title: T\npreviews: sometimes\n", file: file) }
    }
}

