/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64), for
/// randomized tests that must replay exactly from the seed they print. Not for cryptography.
///
/// Every seed is valid (0 included). Each value costs O(1).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is a function of `seed` alone.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether an event of probability `percent`/100 happens (at most 0: never; 100 or
    /// more: always).
    public mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// A seed derived from `seed` and `index`, so each index gets an independent sequence
    /// (sequence `index` of a run seeded with `seed`).
    public static func mix(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (index &* 0xD6E8_FEB8_6659_FD93))
        return generator.next()
    }
}
