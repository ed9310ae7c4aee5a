import ArgumentParser
import Foundation
import SitegenModel
import SitegenRender

/// Times link preview cards (issue #17) in one process: the same poll (or itinerary) cards
/// drawn and encoded round after round, each band height in turn, on one thread, timed by
/// that thread's CPU clock. Whole builds on the shared 2-core machine move by ±20% from run
/// to run; on a quiet host this moves by about 1%, so it can tell whether a change to the
/// card code pays at all before `ONLY=previews Benchmarks/run.sh 10000` measures what it
/// does to a build (Benchmarks/README.md, "Cards in one process").
@main
struct CardBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card-bench",
        abstract: "Times drawing and encoding link preview cards, band heights interleaved.")

    @Option(help: "Rounds; each draws every card once per band height.")
    var rounds = 10

    @Option(help: "Cards drawn per round.")
    var cards = 300

    @Option(help: "poll: cards like a poll's (title, four rows of standings); trip: like an itinerary's (route with 4 to 8 stops).")
    var kind = "poll"

    @Option(help: "Band heights to compare, comma-separated (at most 96 rows).")
    var bands = "96"

    @Option(help: "KB of memory written between two cards, as a build's page rendering would (0: none).")
    var pollute = 0

    @Flag(help: "Time nothing: check that each card drawn in bands of each height is the card drawn whole, byte for byte.")
    var check = false

    func run() throws {
        let heights = bands.split(separator: ",").compactMap { Int($0) }
        guard !heights.isEmpty, heights.allSatisfy({ (1...96).contains($0) }), rounds > 0, cards > 0, pollute >= 0,
              ["poll", "trip"].contains(kind) else {
            throw ValidationError("--bands takes heights of 1 to 96 rows; --rounds and --cards must be positive, --pollute not negative; --kind is poll or trip")
        }
        let drawn = kind == "poll" ? SampleCards.polls(cards) : SampleCards.trips(cards)
        if check {
            // Bands of 8 rows are lower than any line of text, so the card is drawn whole.
            var differing = 0
            for (index, card) in drawn.enumerated() {
                let whole = PreviewImage.png(card, bandRows: 8)
                let heights = heights.filter { PreviewImage.png(card, bandRows: $0) != whole }
                if !heights.isEmpty {
                    print("\(kind) card \(index): drawn in bands of \(heights.map(String.init).joined(separator: ", ")) rows, not the card drawn whole")
                    differing += 1
                }
            }
            print("\(differing) of \(drawn.count) \(kind) cards differ from the card drawn whole")
            if differing > 0 { throw ExitCode(1) }
            return
        }
        // Warm up: fonts, glyph caches, the canvas.
        for height in heights { for card in drawn.prefix(20) { _ = PreviewImage.png(card, bandRows: height) } }
        var times: [Int: [Double]] = [:], bytes: [Int: Int] = [:]
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(pollute, 1) << 10)
        defer { scratch.deallocate() }
        for round in 0..<rounds {
            // Alternate the order, so that no height always follows another.
            for height in round.isMultiple(of: 2) ? heights : heights.reversed() {
                var total = 0, spent = 0.0
                for card in drawn {
                    let start = threadCPUTime()
                    total += PreviewImage.png(card, bandRows: height).count
                    spent += threadCPUTime() - start
                    // Not timed: what a build does between two cards, leaving them colder caches.
                    if pollute > 0 { scratch.update(repeating: UInt8(truncatingIfNeeded: total), count: pollute << 10) }
                }
                times[height, default: []].append(spent / Double(drawn.count) * 1e6)
                bytes[height] = total
            }
        }
        print("\(drawn.count) \(kind) cards × \(rounds) rounds, one thread; µs of CPU a card:")
        for height in heights {
            let sorted = times[height]!.sorted()
            print(String(format: "  bands of %2d rows: median %6.1f, fastest %6.1f, slowest %6.1f; %d bytes a round",
                         height, sorted[sorted.count / 2], sorted.first!, sorted.last!, bytes[height]!))
        }
    }

    private func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Poll cards like those of Benchmarks/generate.py's corpus: a title, 3 to 5 trips named
/// "<kind> <word> via <city>", four rows shown, points falling by 1 to 8. The same count
/// gives the same cards.
enum SampleCards {
    static let kinds = ["Ballpark", "Alumni", "Summer", "Doubleheader", "Long-Weekend", "Rivalry", "Desert", "Lakefront"]
    static let words = ["Sprint", "Tour", "Crawl", "Loop", "Swing", "Run", "Getaway", "Marathon"]
    static let cities = ["Los Angeles", "Pittsburgh", "Milwaukee", "Cincinnati", "Denver", "Arlington", "San Francisco", "Chicago"]

    static func polls(_ count: Int) -> [PreviewCard] {
        var random = SplitMix(seed: 17)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        return (0..<count).map { number in
            let trips = 3 + Int(random.next() % 3)
            var points = 40
            let rows = (0..<min(trips, PreviewCard.maxRows)).map { index in
                defer { points -= 1 + Int(random.next() % 8) }
                return PreviewCard.PollCard.Row(rank: ["1st", "2nd", "3rd", "4th"][index],
                                                name: "\(pick(kinds)) \(pick(words)) via \(pick(cities))",
                                                points: "\(points) points", share: Double(points) / 40,
                                                isFirst: index == 0, tied: false)
            }
            return .poll(PreviewCard.PollCard(title: "\(pick(kinds)) \(pick(words)) #\(number)",
                                              siteTitle: "sitegen benchmark (1000 polls)",
                                              voters: "\(5 + number % 20) people have voted.", tie: nil, rows: rows,
                                              more: trips > PreviewCard.maxRows ? "+ 1 more trip" : nil))
        }
    }

    /// Itinerary cards like the corpus's: 4 to 8 stops in US cities, names, dates, games, miles.
    static func trips(_ count: Int) -> [PreviewCard] {
        let places: [(String, Double, Double)] = [
            ("Los Angeles", 34.05, -118.24), ("Pittsburgh", 40.44, -79.99), ("Milwaukee", 43.04, -87.91),
            ("Cincinnati", 39.10, -84.51), ("Denver", 39.74, -104.99), ("Arlington", 32.74, -97.11),
            ("San Francisco", 37.77, -122.42), ("Chicago", 41.88, -87.63), ("St. Louis", 38.63, -90.20),
            ("Kansas City", 39.10, -94.58), ("Minneapolis", 44.98, -93.27), ("Detroit", 42.33, -83.05),
        ]
        var random = SplitMix(seed: 29)
        return (0..<count).map { number in
            let stops = 4 + Int(random.next() % 5)
            var chosen = places
            for index in chosen.indices.reversed() { chosen.swapAt(index, Int(random.next() % UInt64(index + 1))) }
            let route = RoutePicture.make(places: chosen.prefix(stops).enumerated().map { index, place in
                RoutePicture.Place(name: place.0, marker: String(index + 1), latitude: place.1, longitude: place.2)
            })
            return .trip(PreviewCard.TripCard(name: "\(kinds[number % kinds.count]) Road Trip #\(number)",
                                              siteTitle: "sitegen benchmark (1000 polls)",
                                              dates: "Jun \(1 + number % 20) – \(8 + number % 20), 2026",
                                              games: "\(stops) games", miles: "\(800 + 97 * (number % 31)) mi",
                                              cities: "\(stops) cities", route: route))
        }
    }

    /// A small, fixed pseudo-random sequence (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
