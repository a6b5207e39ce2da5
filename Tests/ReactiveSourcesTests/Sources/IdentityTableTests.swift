import Testing
@testable import ReactiveSources

@Suite("Identity table (the Paginated source's duplicate check)")
struct IdentityTableTests {
    /// Few distinct hash values, so probe chains are long and unequal identities collide.
    struct Key: Hashable {
        let id: Int
        /// Moves the seven hash classes each round, so their home slots (and which chains
        /// wrap around the table's end) differ between rounds.
        let salt: Int
        func hash(into hasher: inout Hasher) { hasher.combine(id % 7 &+ salt) }
    }

    /// An object shown by a source: its identity is `key`; `serial` tells copies apart.
    struct Row: Equatable {
        let key: Key
        let serial: Int
    }

    /// What the table should do, written plainly: keep the rows whose key is not shown.
    struct Model {
        var shown: [Row] = []
        mutating func appendNew(_ rows: [Row]) -> [Row] {
            var added: [Row] = []
            for row in rows where !shown.contains(where: { $0.key == row.key }) {
                shown.append(row)
                added.append(row)
            }
            return added
        }
    }

    @Test func matchesAPlainModelOverRandomPagesDropsAndRefreshes() {
        var generator = SplitMix64(seed: 0x5EED_7AB1E)
        var serial = 0
        for round in 0..<40 {
            let table = IdentityTable()
            var shown: [Row] = []
            var model = Model()
            for step in 0..<400 {
                switch generator.next() % 10 {
                case 0..<7:
                    let page = (0..<Int(generator.next() % 30)).map { _ in
                        serial += 1
                        return Row(key: Key(id: Int(generator.next() % 200), salt: round * 1_000), serial: serial)
                    }
                    let before = shown.count
                    let added = table.appendNew(page, to: &shown) { $0.key }
                    let expected = model.appendNew(page)
                    #expect(added == expected.count && Array(shown[before...]) == expected, "round \(round) step \(step)")
                case 7..<9:
                    let dropped = Int(generator.next() % UInt64(shown.count + 2))
                    table.dropFirst(dropped, of: shown) { $0.key }
                    shown.removeFirst(min(dropped, shown.count))
                    model.shown.removeFirst(min(dropped, model.shown.count))
                default:
                    if generator.next() % 4 == 0 {
                        table.removeAll()
                        shown = []
                        model.shown = []
                    }
                }
                #expect(shown == model.shown && table.count == shown.count, "round \(round) step \(step)")
            }
            // Every shown key is found again; every other key is new.
            let probe = (0..<200).map { Row(key: Key(id: $0, salt: round * 1_000), serial: -1) }
            var copy = shown
            let added = table.appendNew(probe, to: &copy) { $0.key }
            #expect(added == probe.filter { row in !shown.contains { $0.key == row.key } }.count, "round \(round)")
        }
    }

    @Test func growsPastManyObjectsAndForgetsOnRemoveAll() {
        let table = IdentityTable()
        var shown: [Int] = []
        #expect(table.appendNew(Array(0..<100_000), to: &shown) { $0 } == 100_000)
        #expect(table.appendNew([99_999, 100_000, 100_000], to: &shown) { $0 } == 1)
        table.dropFirst(50_000, of: shown) { $0 }
        shown.removeFirst(50_000)
        #expect(table.count == 50_001)
        #expect(table.appendNew([0, 1, 50_000], to: &shown) { $0 } == 2)
        #expect(shown.suffix(2) == [0, 1])
        table.removeAll()
        shown = []
        #expect(table.count == 0 && table.appendNew([1, 1], to: &shown) { $0 } == 1)
    }
}
