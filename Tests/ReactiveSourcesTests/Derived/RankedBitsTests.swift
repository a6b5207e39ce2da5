import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// The filter's bit sequence against a plain `[Bool]`: built from packed words, edited at random
/// (so blocks split and hold counts that are not multiples of 64), and compared bit for bit,
/// by rank and by the differences a parameter change reads. Replay with `RELIABILITY_SEED`.
@Suite("RankedBits")
struct RankedBitsTests {
    @Test("append, edits and differences match a plain array")
    func matchesAPlainArray() {
        let seed = reliabilitySeed(default: 0xB175_2026)
        for sequence in 0..<40 {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            var model = (0..<Int.random(in: 0..<3_000, using: &random)).map { _ in random.chance(60) }
            var bits = packed(model)
            #expect(bits.count == model.count && (0..<model.count).allSatisfy { bits.bit(at: $0) == model[$0] }, "seed \(seed), sequence \(sequence)")
            for _ in 0..<Int.random(in: 0..<400, using: &random) {
                if model.isEmpty || random.chance(60) {
                    let index = Int.random(in: 0...model.count, using: &random)
                    let bit = random.chance(50)
                    model.insert(bit, at: index)
                    bits.insert(bit, at: index)
                } else {
                    let index = Int.random(in: 0..<model.count, using: &random)
                    model.remove(at: index)
                    bits.remove(at: index)
                }
            }
            #expect(bits.count == model.count && bits.oneCount == model.filter { $0 }.count, "seed \(seed), sequence \(sequence)")
            #expect((0..<model.count).allSatisfy { bits.bit(at: $0) == model[$0] }, "seed \(seed), sequence \(sequence)")
            let other = model.map { _ in random.chance(50) }
            let (deleted, inserted) = bits.differences(to: packed(other))!
            var expectedDeleted: [Int] = []
            var expectedInserted: [Int] = []
            var oldRank = 0
            var newRank = 0
            for (was, now) in zip(model, other) {
                if was && !now { expectedDeleted.append(oldRank) }
                if now && !was { expectedInserted.append(newRank) }
                if was { oldRank += 1 }
                if now { newRank += 1 }
            }
            #expect(deleted == expectedDeleted && inserted == expectedInserted, "seed \(seed), sequence \(sequence)")
        }
        #expect(packed([]).differences(to: packed([true])) == nil, "different counts")
    }

    /// `bits` packed in words, as the filter's loop packs them.
    private func packed(_ bits: [Bool]) -> RankedBits {
        var words = [UInt64](repeating: 0, count: (bits.count + 63) / 64)
        for (index, bit) in bits.enumerated() where bit { words[index / 64] |= 1 << UInt64(index % 64) }
        return RankedBits(words: words, count: bits.count)
    }
}
