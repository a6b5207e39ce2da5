import ReactiveSourcesTesting
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
                    let added = table.insertNewKeys(page, after: shown[...]) { $0.key }
                    shown += added
                    #expect(added == model.appendNew(page), "round \(round) step \(step)")
                case 7..<9:
                    let dropped = Int(generator.next() % UInt64(shown.count + 2))
                    table.dropFirstKeys(dropped, of: shown, identity: { $0.key })
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
            let added = table.insertNewKeys(probe, after: shown[...]) { $0.key }
            #expect(added == probe.filter { row in !shown.contains { $0.key == row.key } }, "round \(round)")
        }
    }

    /// An identity whose hash changes after it was recorded (against the documented rule)
    /// leaves a stale slot; later probes skip it instead of reading outside the objects.
    @Test func anIdentityWhoseHashChangedLeavesNoCrash() {
        final class Box: @unchecked Sendable {
            var value: Int
            init(_ value: Int) { self.value = value }
        }
        let table = IdentityTable()
        let boxes = (0..<40).map(Box.init)
        var shown = table.insertNewKeys(boxes, after: []) { $0.value }
        for box in boxes { box.value += 1_000 }
        table.dropFirstKeys(30, of: shown, identity: { $0.value })
        shown.removeFirst(30)
        for box in boxes { box.value -= 1_000 }
        let again = table.insertNewKeys((0..<40).map(Box.init), after: shown[...]) { $0.value }
        #expect(again.map(\.value) == Array(0..<30))
    }

    @Test func growsPastManyObjectsAndForgetsOnRemoveAll() {
        let table = IdentityTable()
        var shown = table.insertNewKeys(Array(0..<100_000), after: []) { $0 }
        #expect(shown.count == 100_000)
        shown += table.insertNewKeys([99_999, 100_000, 100_000], after: shown[...]) { $0 }
        #expect(shown.count == 100_001)
        table.dropFirstKeys(50_000, of: shown, identity: { $0 })
        shown.removeFirst(50_000)
        #expect(table.count == 50_001)
        #expect(table.insertNewKeys([0, 1, 50_000], after: shown[...]) { $0 } == [0, 1])
        table.removeAll()
        #expect(table.count == 0 && table.insertNewKeys([1, 1], after: []) { $0 } == [1])
    }
}

/// The table's calls with an identity closure, as `SeenIdentities.keys` makes them.
private extension IdentityTable {
    func insertNewKeys<Object, Identity: Hashable>(_ objects: [Object], after shown: ArraySlice<Object>, identity: (Object) -> Identity) -> [Object] {
        insertNew(objects, after: RowStorage(shown)[...], hash: { $0.combine(identity($1)) }, same: { identity($0) == identity($1) })
    }

    func dropFirstKeys<Object, Identity: Hashable>(_ dropped: Int, of shown: [Object], identity: (Object) -> Identity) {
        dropFirst(dropped, of: RowStorage(shown), hash: { $0.combine(identity($1)) })
    }
}
