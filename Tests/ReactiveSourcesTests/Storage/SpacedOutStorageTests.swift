import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// Storage built with room in every node (a Sorted or Filtered source's rows): the same
/// elements as built packed, sound, and sound after random inserts and removes, at every fill
/// (out-of-range fills clamped).
@Suite("RowStorage(spacedOut:eighths:)")
struct SpacedOutStorageTests {
    @Test("holds the elements, keeps its invariants through random edits", arguments: [0, 1, 47, 48, 49, 64, 1_000, 36_865, 100_000], [0, 1, 6, 7, 8, 9])
    func holdsTheElements(count: Int, eighths: Int) {
        let seed = reliabilitySeed(default: 0x5ACE_2026 &+ UInt64(count))
        var random = SplitMix64(seed: seed)
        var model = (0..<count).map { $0 * 2 }
        var storage = RowStorage(spacedOut: model, eighths: eighths)
        #expect(storage.invariantViolation() == nil, "seed \(seed)")
        #expect(Array(storage) == model, "seed \(seed)")
        for _ in 0..<300 {
            if model.isEmpty || random.chance(70) {
                let index = Int.random(in: 0...model.count, using: &random)
                model.insert(-index, at: index)
                storage.insert(-index, at: index)
            } else {
                let index = Int.random(in: 0..<model.count, using: &random)
                model.remove(at: index)
                storage.remove(at: index)
            }
        }
        #expect(storage.invariantViolation() == nil, "seed \(seed)")
        #expect(Array(storage) == model, "seed \(seed)")
        #expect((0..<model.count).allSatisfy { storage[$0] == model[$0] }, "seed \(seed)")
    }

    @Test("loading the paths of inserts reads only", arguments: [0, 1, 1_000, 100_000])
    func touchingPathsChangesNothing(count: Int) {
        var storage = RowStorage(spacedOut: Array(0..<count), eighths: 6)
        storage.append(contentsOf: [count, count + 1])
        let positions = [0, count / 3, count / 2, count, count + 1, count + 2]
        storage.touchPaths(to: positions)
        storage.touchPaths(to: [])
        #expect(storage.invariantViolation() == nil)
        #expect(Array(storage) == Array(0..<(count + 2)))
    }
}
