import ReactiveSourcesTesting
import Foundation
import Testing
@testable import ReactiveSources

/// A small, seedable generator (SplitMix64) so failures can be replayed from their seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum RandomSnapshots {
    static let placeholders: [Placeholder?] = [nil, nil, nil, .loading, .loadingMore, .noResults, .error(message: "x")]

    static func snapshot(using generator: inout SeededGenerator, valueRange: Int, maxSections: Int = 5, maxRows: Int = 12) -> Snapshot<Int> {
        let sectionCount = Int.random(in: 0...maxSections, using: &generator)
        let sections = (0..<sectionCount).map { _ in
            let id = "s\(Int.random(in: 0..<(maxSections + 2), using: &generator))" // duplicates possible
            let title = Bool.random(using: &generator) ? id : "\(id)-alt"
            let objects = (0..<Int.random(in: 0...maxRows, using: &generator)).map { _ in Int.random(in: 0..<valueRange, using: &generator) }
            return SnapshotSection(id: id, title: title, objects: objects, placeholder: placeholders.randomElement(using: &generator)!)
        }
        return Snapshot(sections: sections)
    }

    /// `old` edited the way sources edit: some sections and rows removed, inserted, moved.
    static func edited(_ old: Snapshot<Int>, using generator: inout SeededGenerator, valueRange: Int) -> Snapshot<Int> {
        var sections = old.sections.filter { _ in Int.random(in: 0..<5, using: &generator) > 0 }
        for index in sections.indices {
            var objects = sections[index].objects.filter { _ in Int.random(in: 0..<4, using: &generator) > 0 }
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                objects.insert(Int.random(in: 0..<valueRange, using: &generator), at: Int.random(in: 0...objects.count, using: &generator))
            }
            if objects.count > 1 && Bool.random(using: &generator) {
                let moved = objects.remove(at: Int.random(in: 0..<objects.count, using: &generator))
                objects.insert(moved, at: Int.random(in: 0...objects.count, using: &generator))
            }
            sections[index].objects = objects
            if Int.random(in: 0..<4, using: &generator) == 0 { sections[index].placeholder = placeholders.randomElement(using: &generator)! }
            if Int.random(in: 0..<6, using: &generator) == 0 { sections[index].title = "retitled" }
        }
        if sections.count > 1 && Bool.random(using: &generator) {
            sections.swapAt(0, sections.count - 1)
        }
        if Bool.random(using: &generator) {
            let fresh = snapshot(using: &generator, valueRange: valueRange, maxSections: 1).sections
            sections.insert(contentsOf: fresh, at: Int.random(in: 0...sections.count, using: &generator))
        }
        return Snapshot(sections: sections)
    }
}

@Suite("Change sets")
struct ChangeSetTests {
    @Test func randomSnapshotPairsAlwaysDiffIntoChangeSetsThatApply() {
        let baseSeed = UInt64(20_261_122)
        var failures = 0
        for case_ in 0..<6_000 {
            let seed = baseSeed &+ UInt64(case_)
            var generator = SeededGenerator(seed: seed)
            // Small value ranges force duplicates; larger ones exercise moves.
            let range = [3, 8, 40][case_ % 3]
            let old = RandomSnapshots.snapshot(using: &generator, valueRange: range)
            let new = case_ % 2 == 0
                ? RandomSnapshots.edited(old, using: &generator, valueRange: range)
                : RandomSnapshots.snapshot(using: &generator, valueRange: range)
            let changes = ChangeSet(from: old, to: new)
            let applied = changes.applied(to: old, valuesFrom: new)
            if applied != new {
                failures += 1
                if failures <= 3 {
                    Issue.record("seed \(seed): applying \(changes) to \(old) gave \(String(describing: applied)), expected \(new)")
                }
            }
            if old == new && !changes.isEmpty {
                Issue.record("seed \(seed): equal snapshots gave a non-empty change set \(changes)")
            }
        }
        #expect(failures == 0, "replay a failure with its printed seed")
    }

    @Test func movesAreTheFewestThatExplainTheNewOrder() {
        let old = Snapshot(sections: [SnapshotSection(id: "a", objects: [1, 2, 3, 4, 5])])
        let new = Snapshot(sections: [SnapshotSection(id: "a", objects: [2, 3, 4, 5, 1])])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.movedRows == [ChangeSet.RowMove(from: RowPath(item: 0, section: 0), to: RowPath(item: 4, section: 0))])
        #expect(changes.insertedRows.isEmpty && changes.deletedRows.isEmpty)
    }

    @Test func onlyInsertsAndDeletesProduceNoMoves() {
        let old = Snapshot(sections: [SnapshotSection(id: "a", objects: [1, 2, 3, 4])])
        let new = Snapshot(sections: [SnapshotSection(id: "a", objects: [0, 1, 3, 4, 9])])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.movedRows.isEmpty)
        #expect(changes.deletedRows == [RowPath(item: 1, section: 0)])
        #expect(changes.insertedRows == [RowPath(item: 0, section: 0), RowPath(item: 4, section: 0)])
    }

    @Test func objectsChangingSectionAreRowMovesAndSectionsMatchByID() {
        let old = Snapshot(sections: [SnapshotSection(id: "a", title: "A", objects: [1, 2]), SnapshotSection(id: "b", title: "B", objects: [3])])
        let new = Snapshot(sections: [SnapshotSection(id: "b", title: "Bee", objects: [3, 2]), SnapshotSection(id: "a", title: "A", objects: [1])])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.movedSections.count == 1)
        #expect(changes.retitledSections == [0])
        #expect(changes.movedRows == [ChangeSet.RowMove(from: RowPath(item: 1, section: 0), to: RowPath(item: 1, section: 0))])
        #expect(changes.applied(to: old, valuesFrom: new) == new)
    }

    @Test func duplicatesPairKthOccurrenceWithKthOccurrence() {
        let old = Snapshot(sections: [SnapshotSection(id: "a", objects: [7, 7, 7])])
        let new = Snapshot(sections: [SnapshotSection(id: "a", objects: [7, 7])])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.deletedRows == [RowPath(item: 2, section: 0)], "the surplus last occurrence is deleted")
        #expect(changes.movedRows.isEmpty)
        #expect(changes.applied(to: old, valuesFrom: new) == new)
    }

    @Test func aChangedPlaceholderIsAnUpdatedRow() {
        let old = Snapshot(sections: [SnapshotSection(id: "a", objects: [1], placeholder: .loading)])
        let new = Snapshot(sections: [SnapshotSection(id: "a", objects: [1], placeholder: .error(message: "boom"))])
        let changes = ChangeSet(from: old, to: new)
        #expect(changes.updatedRows == [RowPath(item: 1, section: 0)])
        #expect(changes.applied(to: old, valuesFrom: new) == new)
    }

    @Test func inconsistentChangeSetsAreRejectedNotApplied() {
        let old = Snapshot(sections: [SnapshotSection(id: "a", objects: [1, 2])])
        let new = Snapshot(sections: [SnapshotSection(id: "a", objects: [1, 2, 3])])
        var outOfRange = ChangeSet()
        outOfRange.deletedRows = [RowPath(item: 5, section: 0)]
        #expect(outOfRange.applied(to: old, valuesFrom: new) == nil)
        var twice = ChangeSet()
        twice.deletedRows = [RowPath(item: 0, section: 0), RowPath(item: 0, section: 0)]
        #expect(twice.applied(to: old, valuesFrom: new) == nil)
        var malformed = ChangeSet()
        malformed.insertedRows = [RowPath(item: -1, section: 0)]
        #expect(malformed.applied(to: old, valuesFrom: new) == nil)
        var rowInDeletedSection = ChangeSet()
        rowInDeletedSection.deletedSections = [0]
        rowInDeletedSection.deletedRows = [RowPath(item: 0, section: 0)]
        #expect(rowInDeletedSection.applied(to: old, valuesFrom: new) == nil)
        var placeholderNotLast = ChangeSet()
        placeholderNotLast.insertedRows = [RowPath(item: 0, section: 0)]
        let withPlaceholder = Snapshot<Int>(sections: [SnapshotSection(id: "a", objects: [], placeholder: .loading)])
        #expect(placeholderNotLast.applied(to: old, valuesFrom: withPlaceholder) == nil)
    }

    @Test func largeDiffsStayCorrect() {
        var generator = SeededGenerator(seed: 7)
        let old = Array(0..<20_000)
        var new = old.filter { _ in Int.random(in: 0..<10, using: &generator) > 0 }
        for _ in 0..<2_000 { new.insert(Int.random(in: 20_000..<40_000, using: &generator), at: Int.random(in: 0...new.count, using: &generator)) }
        for _ in 0..<400 {
            let moved = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
            new.insert(moved, at: Int.random(in: 0...new.count, using: &generator))
        }
        let before = Snapshot(sections: [SnapshotSection(id: "all", objects: old)])
        let after = Snapshot(sections: [SnapshotSection(id: "all", objects: new)])
        let changes = ChangeSet(from: before, to: after)
        #expect(changes.applied(to: before, valuesFrom: after) == after)
        #expect(changes.movedRows.count <= 400, "no more moves than were made")
    }
}
