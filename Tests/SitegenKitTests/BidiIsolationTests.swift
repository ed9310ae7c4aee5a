import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenModel
import Testing

/// Names written right to left, and direction controls, keep to themselves on a page
/// (BidiIsolation; docs/pages.md, "Right-to-left text").
@Suite("Right-to-left text on the pages")
struct BidiIsolationTests {
    static let fsi = "\u{2068}", pdi = "\u{2069}", rlo = "\u{202E}"

    @Test("Latin, accents, CJK and emoji are left byte for byte; Hebrew, Arabic and direction controls are isolated")
    func whatIsIsolated() {
        for unchanged in ["", "Lone Star Loop", "Montréal & Québec", "Zürich → Köln", "東京 road trip", "🏈 Texas 🚗", "Москва", "Ἀθῆναι",
                          "\u{0580}", "\u{FEFF}BOM"] {
            #expect(BidiIsolation.isolated(unchanged) == unchanged, "\(unchanged)")
        }
        for (text, expected) in [
            ("מי בא לטקסס?", "\(Self.fsi)מי בא לטקסס?\(Self.pdi)"),
            ("مرحبا", "\(Self.fsi)مرحبا\(Self.pdi)"),
            ("Denver \(Self.rlo)26 points", "\(Self.fsi)Denver \(Self.rlo)26 points\(Self.pdi)"),
            ("a\u{200F}", "\(Self.fsi)a\u{200F}\(Self.pdi)"),
            ("\u{10900}", "\(Self.fsi)\u{10900}\(Self.pdi)"),        // Phoenician
            ("\u{1E900}", "\(Self.fsi)\u{1E900}\(Self.pdi)"),        // Adlam
        ] {
            #expect(BidiIsolation.isolated(text) == expected, "\(text)")
        }
    }

    /// What `needsIsolation` decides, written plainly over the text's scalars.
    static func reference(_ text: String) -> Bool {
        var depth = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (0x2066...0x2068).contains(value) { depth += 1; continue }
            if value == 0x2069 {
                if depth == 0 { return true }
                depth -= 1
                continue
            }
            let rightToLeft = [0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
                               0x200E...0x200F, 0x202A...0x202E].contains { $0.contains(Int(value)) }
            if depth == 0 && rightToLeft { return true }
        }
        return depth > 0
    }

    @Test("Which texts need isolating, decided from their bytes, is what their scalars say: at every edge of every range")
    func bytesAgreeWithScalars() {
        var generator = SplitMix64(seed: 29)
        let edges: [UInt32] = [0x41, 0xE9, 0x57F, 0x580, 0x58F, 0x590, 0x5D0, 0x7FF, 0x800, 0x8FF, 0x900, 0x2013, 0x200D, 0x200E,
                               0x200F, 0x2010, 0x2029, 0x202A, 0x202E, 0x202F, 0x2065, 0x2066, 0x2067, 0x2068, 0x2069, 0x206A,
                               0x2192, 0x6771, 0xFB1C, 0xFB1D, 0xFDFF, 0xFE00, 0xFE6F, 0xFE70, 0xFEFE, 0xFEFF, 0xFFFD, 0x107FF,
                               0x10800, 0x10FFF, 0x11000, 0x1E7FF, 0x1E800, 0x1EFFF, 0x1F000, 0x1F3C8, 0x10FFFF]
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 8) {
                // Runs of ASCII between them, so that they fall anywhere in an eight-byte word.
                text.append(contentsOf: String(repeating: "a", count: Int(generator.next() % 12)).unicodeScalars)
                text.append(Unicode.Scalar(edges[Int(generator.next() % UInt64(edges.count))])!)
            }
            let string = String(text)
            #expect(BidiIsolation.needsIsolation(string) == Self.reference(string), "\(string.debugDescription)")
        }
    }

    @Test("Isolates inside are balanced: a stray end is dropped, an unclosed one is closed before this one ends")
    func balanced() {
        // A stray POP DIRECTIONAL ISOLATE would close ours, and the override after it would
        // run on over the rest of the line.
        #expect(BidiIsolation.isolated("a\(Self.pdi)\(Self.rlo)b") == "\(Self.fsi)a\(Self.rlo)b\(Self.pdi)")
        // An unclosed isolate would take our end as its own.
        #expect(BidiIsolation.isolated("a\u{2067}b") == "\(Self.fsi)a\u{2067}b\(Self.pdi)\(Self.pdi)")
        #expect(BidiIsolation.isolated("\u{2066}\u{2068}x") == "\(Self.fsi)\u{2066}\u{2068}x\(Self.pdi)\(Self.pdi)\(Self.pdi)")
        // Balanced isolates, and names already isolated, are not isolated again.
        let route = BidiIsolation.isolated(["תל אביב", "ירושלים", "Philadelphia"]).joined(separator: " → ")
        #expect(route == "\(Self.fsi)תל אביב\(Self.pdi) → \(Self.fsi)ירושלים\(Self.pdi) → Philadelphia")
        #expect(BidiIsolation.isolated(route) == route)
        #expect(BidiIsolation.isolated("\u{2066}x\(Self.pdi)") == "\u{2066}x\(Self.pdi)")
    }

    @Test("Random text: the result is the text, or the text in one balanced isolate with its own balanced")
    func randomText() {
        var generator = SplitMix64(seed: 23)
        let pieces = ["a", " ", "?", "→", "ש", "م", "\u{202E}", "\u{202C}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200F}", "東", "é"]
        for _ in 0..<2_000 {
            let text = (0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let result = BidiIsolation.isolated(text)
            guard result != text else {
                #expect(!BidiIsolation.needsIsolation(text))
                continue
            }
            let scalars = Array(result.unicodeScalars)
            #expect(scalars.first == "\u{2068}" && scalars.last == "\u{2069}")
            // Depth never goes below zero and ends at zero, and ours closes last.
            var depth = 0
            for (index, scalar) in scalars.enumerated() {
                switch scalar.value {
                case 0x2066...0x2068: depth += 1
                case 0x2069: depth -= 1
                default: break
                }
                #expect(depth > 0 || index == scalars.count - 1, "\(text.debugDescription) → \(result.debugDescription)")
            }
            #expect(depth == 0)
            // Nothing but stray ends was taken out, and only a closing mark was added (trailingMark).
            let isIsolate: (Unicode.Scalar) -> Bool = { (0x2066...0x2069).contains($0.value) }
            let mark = BidiIsolation.trailingMark(text).map { [$0] } ?? []
            #expect(result.unicodeScalars.filter { !isIsolate($0) } == text.unicodeScalars.filter { !isIsolate($0) } + mark)
            #expect(BidiIsolation.plain(result) == BidiIsolation.plain(text))
        }
    }

    @Test("On the pages: a Hebrew title and cities, an override in a trip's name; the data files keep the names as they are")
    func onThePages() throws {
        let (fsi, pdi, rlo) = (Self.fsi, Self.pdi, Self.rlo)
        let (tree, _) = try FriendsViewTests().build { site in
            var polls = try site.read("Data/polls/polls.json")
            polls = polls.replacingOccurrences(of: "\"Spec example <3 trips>\"", with: "\"מי בא? <3 trips>\"")
                .replacingOccurrences(of: "\"city\": \"Chicago\"", with: "\"city\": \"תל אביב\"")
                .replacingOccurrences(of: "\"notes\": \"Fountains", with: "\"notes\": \"שלום! Fountains")
            // The tie poll's trips are a base64 snapshot, as the app writes them.
            let snapshot = #"[{"id":"44444444-4444-4444-4444-444444444444","name":"Denver \#(rlo)26 points","preferences":{"startDate":"2026-09-04","endDate":"2026-09-06"},"stops":[]},{"id":"55555555-5555-5555-5555-555555555555","name":"Phoenix","preferences":{"startDate":"2026-09-11","endDate":"2026-09-13"},"stops":[]}]"#
            let old = try #require(polls.range(of: #""tripSnapshots": "W3siaWQiOiI0NDQ0[^"]*""#, options: .regularExpression))
            polls.replaceSubrange(old, with: "\"tripSnapshots\": \"\(Data(snapshot.utf8).base64EncodedString())\"")
            try site.write("Data/polls/polls.json", polls)
            let trips = try site.read("Data/trips/chicago-milwaukee.json")
            try site.write("Data/trips/chicago-milwaukee.json", trips.replacingOccurrences(of: "\"city\": \"Chicago\"", with: "\"city\": \"תל אביב\""))
        }
        let poll = try #require(tree["polls/X7K9M2/index.html"])
        // Metadata is plain text (RightToLeftTitleTests); the heading takes its direction from its first letter.
        #expect(poll.contains("<title>מי בא? &lt;3 trips&gt; · Golden Trips</title>"))
        #expect(poll.contains("<meta property=\"og:title\" content=\"מי בא? &lt;3 trips&gt;\">"))
        #expect(poll.contains("<h1 dir=\"auto\">\(fsi)מי בא? &lt;3 trips&gt;\(pdi)</h1>"))
        #expect(poll.contains("<p class=\"route\">\(fsi)תל אביב\(pdi) → Milwaukee</p>"))
        let home = try #require(tree["index.html"])
        #expect(home.contains("<p class=\"route\">\(fsi)תל אביב\(pdi) → Milwaukee</p>"))
        let itinerary = try #require(tree[FriendsViewTests.savedTrip + "index.html"])
        #expect(itinerary.contains("<p class=\"day-city\">\(fsi)תל אביב\(pdi) → Milwaukee</p>"))
        #expect(itinerary.contains("Stops in order: \(fsi)תל אביב\(pdi) → Milwaukee."))
        // A trip view's cards are HTML made by sitegen: nothing is put around them, though a
        // card's notes (Markdown, not isolated) hold Hebrew.
        let view = try #require(tree["polls/X7K9M2/most-cities/index.html"])
        #expect(view.contains("<p>שלום! Fountains "))
        #expect(!view.contains("\(fsi)<li") && !view.contains("\(fsi)\n") && !view.contains("</li>\n\(pdi)"))
        #expect(view.components(separatedBy: fsi).count == view.components(separatedBy: pdi).count)
        // The override ends with the name: the rest of the sentence reads as written.
        let tie = try #require(tree["polls/TWB2AA/index.html"])
        #expect(tie.contains("<p class=\"callout tie\">It&#39;s a tie for first: \(fsi)Denver \(rlo)26 points\(pdi) and Phoenix, with 3 points each.</p>"))
        // Data for other programs keeps each name exactly as exported.
        for path in ["polls/X7K9M2/results.json", "polls/TWB2AA/results.json", FriendsViewTests.savedTrip + "calendar.ics",
                     FriendsViewTests.savedTrip + "route.gpx"] {
            let file = try #require(tree[path])
            #expect(!file.contains(fsi) && !file.contains(pdi), "\(path)")
        }
        #expect(try #require(tree["polls/TWB2AA/results.json"]).contains("\"Denver \(rlo)26 points\""))
        #expect(try #require(tree[FriendsViewTests.savedTrip + "route.gpx"]).contains("<name>תל אביב"))
    }
}
