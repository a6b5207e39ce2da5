import Foundation

/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64), so a
/// randomized test can be replayed exactly from the seed it prints.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether an event of probability `percent`/100 happens.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One value derived from `seed` and `index` (independent streams per index).
    static func mix(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (index &* 0xD6E8_FEB8_6659_FD93))
        return generator.next()
    }
}

/// The seed for a randomized reliability test: `RELIABILITY_SEED` from the environment when
/// set (to replay a failure), else `fallback` (so CI runs are reproducible).
func reliabilitySeed(default fallback: UInt64) -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["RELIABILITY_SEED"] {
        let trimmed = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
        if let value = UInt64(trimmed, radix: text.hasPrefix("0x") ? 16 : 10) { return value }
    }
    return fallback
}

/// An integer from the environment, or `fallback`.
func environmentInt(_ name: String, default fallback: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
}
