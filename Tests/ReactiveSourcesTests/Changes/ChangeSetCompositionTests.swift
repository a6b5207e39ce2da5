import ReactiveSourcesTesting
import Foundation
import Testing
@testable import ReactiveSources

@Suite("Change sets composed")
struct ChangeSetCompositionTests {
    struct Item: Hashable, Sendable, Identifiable {
        var id: Int
        var value: Int
    }

    /// A random snapshot with sections "a" and "b" (fixed order) over a few ids.
    static func snapshot(_ random: inout SplitMix64) -> Snapshot<Item> {
        func objects(_ random: inout SplitMix64) -> [Item] {
            Array(Set((0..<Int.random(in: 0..<9, using: &random)).map { _ in Int.random(in: 0..<14, using: &random) }))
                .map { Item(id: $0, value: Int.random(in: 0..<2, using: &random)) }
                .shuffled(using: &random)
        }
        var a = objects(&random)
        let b = objects(&random).filter { item in !a.contains { $0.id == item.id } }
        a = a.filter { _ in true }
        let placeholder: Placeholder? = random.chance(30) ? .loadingMore : nil
        return Snapshot(sections: [SnapshotSection(id: "a", objects: a), SnapshotSection(id: "b", objects: b, placeholder: placeholder)])
    }

    @Test func aComposedChangeTurnsTheFirstSnapshotIntoTheLast() throws {
        var random = SplitMix64(seed: reliabilitySeed(default: 1125))
        for round in 0..<3_000 {
            let steps = (0..<Int.random(in: 2...5, using: &random)).map { _ in Self.snapshot(&random) }
            var composed = ChangeSet()
            for (old, new) in zip(steps, steps.dropFirst()) {
                let changes = ChangeSet(from: old, to: new)
                #expect(changes.touchesOnlyRows)
                composed = try #require(composed.followed(by: changes))
            }
            let first = steps[0]
            let last = steps[steps.count - 1]
            #expect(composed.applied(to: first, valuesFrom: last) == last, "round \(round): \(composed)")
        }
    }

    /// Edits in place (the same ids in the same order, values changed), sometimes with a
    /// structural change between them: runs of update-only changes compose without moves.
    @Test func editsInPlaceComposeToTheUnionOfTheirRows() throws {
        var random = SplitMix64(seed: reliabilitySeed(default: 1129))
        for round in 0..<2_000 {
            var steps = [Self.snapshot(&random)]
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                if random.chance(20) {
                    steps.append(Self.snapshot(&random))
                    continue
                }
                let last = steps[steps.count - 1]
                let sections = last.sections.map { section in
                    SnapshotSection(id: section.id, objects: section.objects.map { item in
                        random.chance(30) ? Item(id: item.id, value: item.value + 1) : item
                    }, placeholder: section.placeholder)
                }
                steps.append(Snapshot(sections: sections))
            }
            var composed = ChangeSet()
            var updated = Set<RowPath>()
            var onlyEdits = true
            for (old, new) in zip(steps, steps.dropFirst()) {
                let changes = ChangeSet(from: old, to: new)
                onlyEdits = onlyEdits && changes.updatesOnlyRows
                updated.formUnion(changes.updatedRows)
                composed = try #require(composed.followed(by: changes))
            }
            let first = steps[0]
            let last = steps[steps.count - 1]
            #expect(composed.applied(to: first, valuesFrom: last) == last, "round \(round): \(composed)")
            if onlyEdits {
                #expect(composed.updatesOnlyRows && composed.updatedRows == updated.sorted(), "round \(round): \(composed)")
            }
        }
    }

    @Test func sectionChangesAreNotComposed() {
        var moved = ChangeSet()
        moved.movedSections = [.init(from: 0, to: 1)]
        var rows = ChangeSet()
        rows.insertedRows = [RowPath(item: 0, section: 0)]
        #expect(rows.followed(by: moved) == nil)
        #expect(moved.followed(by: rows) == nil)
    }

    @Test func anInsertThenDeleteOfTheSameRowCancelsOut() throws {
        var insert = ChangeSet()
        insert.insertedRows = [RowPath(item: 2, section: 0)]
        var delete = ChangeSet()
        delete.deletedRows = [RowPath(item: 2, section: 0)]
        let composed = try #require(insert.followed(by: delete))
        #expect(composed.isEmpty)
    }
}
