import Testing
@testable import ReactiveSources

@Suite("Hash value table (the Paginated source's duplicate check)")
struct HashValueTableTests {
    /// Few distinct hash values, so probe chains are long and unequal elements collide; the
    /// string makes every copy, move and destroy go through a real value witness.
    struct Key: Hashable {
        let id: Int
        let text: String
        /// Moves the seven hash classes each round, so their home slots (and which chains
        /// wrap around the table's end) differ between rounds.
        let salt: Int
        init(_ id: Int, salt: Int = 0) {
            self.id = id
            self.salt = salt
            text = "key \(id) with text long enough to be stored out of line"
        }
        func hash(into hasher: inout Hasher) { hasher.combine(id % 7 &+ salt) }
    }

    @Test func matchesSetOverRandomInsertsAndRemovals() {
        var generator = SplitMix64(seed: 0x5EED_7AB1E)
        for round in 0..<50 {
            let table = HashValueTable<Key>()
            var model = Set<Key>()
            for _ in 0..<2_000 {
                let key = Key(Int(generator.next() % 300), salt: round * 1_000)
                switch generator.next() % 10 {
                case 0..<6:
                    #expect(table.insert(key) == model.insert(key).inserted, "round \(round): insert \(key.id)")
                case 6..<9:
                    table.remove(key)
                    model.remove(key)
                default:
                    if generator.next() % 20 == 0 {
                        table.removeAll()
                        model.removeAll()
                    }
                }
                #expect(table.count == model.count, "round \(round)")
            }
            for id in 0..<300 {
                let key = Key(id, salt: round * 1_000)
                #expect(table.insert(key) == !model.contains(key), "round \(round): membership of \(id)")
            }
        }
    }

    @Test func growsPastManyElementsAndForgetsOnRemoveAll() {
        let table = HashValueTable<Int>()
        for value in 0..<100_000 { #expect(table.insert(value)) }
        #expect(!table.insert(99_999))
        for value in stride(from: 0, to: 100_000, by: 2) { table.remove(value) }
        #expect(table.count == 50_000)
        #expect(table.insert(0) && !table.insert(1))
        table.removeAll()
        #expect(table.count == 0 && table.insert(1))
    }
}
