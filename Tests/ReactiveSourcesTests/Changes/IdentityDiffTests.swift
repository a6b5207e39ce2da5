import ReactiveSourcesTesting
import Foundation
import Testing
@testable import ReactiveSources

@Suite("Change sets by identity")
struct IdentityDiffTests {
    struct Item: Hashable, Sendable, Identifiable {
        var id: Int
        var title: String
    }

    static func snapshot(_ items: [Item]) -> Snapshot<Item> {
        Snapshot(sections: [SnapshotSection(id: "s", objects: items)])
    }

    @Test func anEditedObjectIsAnUpdateNotADeleteAndAnInsert() {
        let old = Self.snapshot([Item(id: 1, title: "a"), Item(id: 2, title: "b"), Item(id: 3, title: "c")])
        let new = Self.snapshot([Item(id: 1, title: "a"), Item(id: 2, title: "B"), Item(id: 3, title: "c")])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.updatedRows == [RowPath(item: 1, section: 0)])
        #expect(changes.deletedRows.isEmpty && changes.insertedRows.isEmpty && changes.movedRows.isEmpty)
        #expect(changes.applied(to: old, valuesFrom: new) == new)
    }

    @Test func anEditedObjectThatMovesIsAMoveAndAnUpdate() {
        let old = Self.snapshot([Item(id: 1, title: "a"), Item(id: 2, title: "b"), Item(id: 3, title: "c")])
        let new = Self.snapshot([Item(id: 2, title: "b"), Item(id: 3, title: "c"), Item(id: 1, title: "A")])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.movedRows == [.init(from: RowPath(item: 0, section: 0), to: RowPath(item: 2, section: 0))])
        #expect(changes.updatedRows == [RowPath(item: 2, section: 0)])
        #expect(changes.applied(to: old, valuesFrom: new) == new)
    }

    @Test func objectsWithoutIdentityAreMatchedByEquality() {
        let old = Snapshot(sections: [SnapshotSection(id: "s", objects: ["a", "b"])])
        let new = Snapshot(sections: [SnapshotSection(id: "s", objects: ["a", "B"])])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.deletedRows == [RowPath(item: 1, section: 0)])
        #expect(changes.insertedRows == [RowPath(item: 1, section: 0)])
        #expect(changes.updatedRows.isEmpty)
    }

    @Test func randomEditsWithDuplicateIdsAlwaysApply() {
        var random = SplitMix64(seed: reliabilitySeed(default: 2026))
        for round in 0..<2_000 {
            func items(_ random: inout SplitMix64) -> [Item] {
                (0..<Int.random(in: 0..<12, using: &random)).map { _ in
                    Item(id: Int.random(in: 0..<8, using: &random), title: String(Int.random(in: 0..<3, using: &random)))
                }
            }
            let old = Snapshot(sections: [SnapshotSection(id: "a", objects: items(&random)), SnapshotSection(id: "b", objects: items(&random))])
            var new = Snapshot(sections: [SnapshotSection(id: "b", objects: items(&random)), SnapshotSection(id: "a", objects: items(&random))])
            if random.chance(30) { new.sections.append(SnapshotSection(id: "c", objects: items(&random), placeholder: .loading)) }
            let changes = ChangeSet(from: old, to: new)
            #expect(changes.applied(to: old, valuesFrom: new) == new, "round \(round)")
            var seen = Set<RowPath>()
            for path in changes.updatedRows { #expect(seen.insert(path).inserted, "round \(round): \(path) updated twice") }
        }
    }
}
