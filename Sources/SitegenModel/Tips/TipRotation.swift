/// Which tips are featured on a given day (docs/rules.md, "Tips"): a seeded permutation of the catalog,
/// walked `featured` tips at a time, so no tip repeats until every tip has been featured.
/// Pure and platform-independent: the PRNG and the shuffle are ours, not the standard
/// library's, whose algorithms may change between Swift versions.
public struct TipRotation: Sendable, Equatable {
    public let seed: UInt64
    public let featured: Int

    public init(seed: UInt64, featured: Int) {
        self.seed = seed
        self.featured = max(1, featured)
    }

    /// Indices into the catalog featured at `step` (the UTC day number for daily rotation,
    /// 0 for fixed rotation).
    public func featuredIndices(count: Int, step: Int) -> [Int] {
        guard count > 0 else { return [] }
        let order = Self.permutation(count: count, seed: seed)
        let take = min(featured, count)
        // Position of this step in the endless walk around the permutation.
        let start = Int((Int64(step) * Int64(take)) % Int64(count) + Int64(count)) % count
        return (0..<take).map { order[(start + $0) % count] }
    }

    /// Fisher–Yates with SplitMix64 and unbiased bounded draws.
    public static func permutation(count: Int, seed: UInt64) -> [Int] {
        var order = Array(0..<count)
        var generator = SplitMix64(seed: seed)
        var index = count - 1
        while index > 0 {
            let other = Int(generator.next(below: UInt64(index + 1)))
            order.swapAt(index, other)
            index -= 1
        }
        return order
    }

    /// Days since 1970-01-01 (UTC) of an instant.
    public static func dayNumber(_ secondsSince1970: Double) -> Int {
        Int((secondsSince1970 / 86_400).rounded(.down))
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and the same on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in 0..<bound, by rejection (no modulo bias).
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = next()
            if value < limit { return value % bound }
        }
    }
}
