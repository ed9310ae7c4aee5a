import ArgumentParser
import Foundation
import SitegenRender

/// Times link preview cards (issue #17) in one process: the same poll cards drawn and encoded
/// round after round, each band height in turn, on one thread, timed by that thread's CPU
/// clock. Whole builds on the shared 2-core machine move by ±20% from run to run; this moves
/// by about 1%, so it can tell whether a change to the card code pays at all before
/// `ONLY=previews Benchmarks/run.sh 10000` measures what it does to a build
/// (Benchmarks/README.md, "Cards in one process").
@main
struct CardBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card-bench",
        abstract: "Times drawing and encoding link preview cards, band heights interleaved.")

    @Option(help: "Rounds; each draws every card once per band height.")
    var rounds = 10

    @Option(help: "Poll cards drawn per round.")
    var cards = 300

    @Option(help: "Band heights to compare, comma-separated (at most 96 rows).")
    var bands = "96"

    @Option(help: "KB of memory written between two cards, as a build's page rendering would (0: none).")
    var pollute = 0

    func run() throws {
        let heights = bands.split(separator: ",").compactMap { Int($0) }
        guard !heights.isEmpty, heights.allSatisfy({ (1...96).contains($0) }), rounds > 0, cards > 0, pollute >= 0 else {
            throw ValidationError("--bands takes heights of 1 to 96 rows; --rounds and --cards must be positive, --pollute not negative")
        }
        let drawn = SampleCards.polls(cards)
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
        print("\(drawn.count) poll cards × \(rounds) rounds, one thread; µs of CPU a card:")
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
