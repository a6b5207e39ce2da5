import Testing
@testable import ReactiveSources

@Suite("Key numbering")
struct KeyNumberingTests {
    /// Equal hash values for every key: only `==` tells keys apart.
    struct Colliding: Hashable {
        let value: String
        static func == (lhs: Colliding, rhs: Colliding) -> Bool { lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    @Test func numbersKeysInOrderOfFirstAppearanceAndCountsThem() {
        let numbering = KeyNumbering<String>()
        let numbers = ["b", "a", "b", "c", "a", "b"].map { numbering.record($0) }
        #expect(numbers == [0, 1, 0, 2, 1, 0])
        #expect(numbering.count == 3)
        #expect(numbering.allKeys == ["b", "a", "c"])
        #expect(numbering.allOccurrences == [3, 2, 1])
    }

    @Test func growsAndSurvivesCollidingHashes() {
        let numbering = KeyNumbering<Colliding>()
        let keys = (0..<300).map { Colliding(value: "k\($0)") }
        for round in 0..<3 {
            for (index, key) in keys.enumerated() {
                #expect(numbering.record(key) == index, "round \(round)")
            }
        }
        #expect(numbering.allKeys == keys)
        #expect(numbering.allOccurrences == Array(repeating: 3, count: 300))
    }
}
