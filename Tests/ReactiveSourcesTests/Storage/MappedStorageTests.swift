import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// `RowStorage(mapping:_:)` (a Mapped source's first derivation): the mapped elements in
/// order, in a sound tree, from packed, spaced-out and appended-to sources, into elements of
/// another size (other leaf capacities).
@Suite("RowStorage(mapping:)")
struct MappedStorageTests {
    @Test("maps every element in order, keeps the invariants", arguments: [0, 1, 63, 64, 65, 127, 128, 129, 1_000, 8_193, 100_000])
    func mapsEveryElement(count: Int) {
        let values = Array(0..<count)
        let sources = [
            RowStorage(values),
            RowStorage(spacedOut: values, eighths: 5),
            { var appended = RowStorage(values.prefix(count / 2)); appended.append(contentsOf: values.dropFirst(count / 2)); return appended }(),
        ]
        for (index, source) in sources.enumerated() {
            // 8-byte elements into 16- and 1-byte ones: other leaf capacities than the source's.
            let pairs = RowStorage(mapping: source) { ($0, -$0) }
            #expect(pairs.invariantViolation() == nil, "source \(index), \(count) elements")
            #expect(pairs.count == count)
            #expect(pairs.map(\.0) == values && pairs.map(\.1) == values.map { -$0 }, "source \(index), \(count) elements")
            let bytes = RowStorage(mapping: source) { UInt8(truncatingIfNeeded: $0) }
            #expect(bytes.invariantViolation() == nil, "source \(index), \(count) elements")
            #expect(Array(bytes) == values.map { UInt8(truncatingIfNeeded: $0) }, "source \(index), \(count) elements")
        }
    }

    @Test("a mapped storage takes edits like any other")
    func takesEdits() {
        var mapped = RowStorage(mapping: RowStorage(Array(0..<5_000))) { $0 * 3 }
        var model = (0..<5_000).map { $0 * 3 }
        var random = SplitMix64(seed: reliabilitySeed(default: 0x3A9_2026))
        for _ in 0..<500 {
            let index = Int.random(in: 0..<model.count, using: &random)
            if random.chance(50) {
                model.insert(-1, at: index)
                mapped.insert(-1, at: index)
            } else {
                model.remove(at: index)
                mapped.remove(at: index)
            }
        }
        #expect(mapped.invariantViolation() == nil)
        #expect(Array(mapped) == model)
    }
}
