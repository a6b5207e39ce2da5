import Foundation
import ReactiveSources
import ReactiveSourcesTesting
import Signals
import Testing

/// Changes that touch many rows at once (a predicate change, a refresh editing, removing and
/// adding thousands of rows), which Sorted and Sectioned follow in one merge pass: each link's
/// snapshot equals the one computed from scratch, its change set turns the snapshot it
/// published before into the new one, and edited rows stay rows (updates or moves), not
/// deletes and inserts.
@Suite("Chains: large changes")
struct LargeChangeTests {
    struct Row: Hashable, Sendable, Identifiable {
        var id: Int
        var value: Int
        var group: Int
    }

    static let order: @Sendable (Row, Row) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }

    /// The chain's three links over `objects`, observed (so each keeps its snapshots).
    final class Chain: Sendable {
        let source: SimpleDataSource<Row>
        let threshold = MutableProperty(3)
        let filtered: DerivedDataSource<Row, Row>
        let sorted: DerivedDataSource<Row, Row>
        let sectioned: SectionedDataSource<Row, Int>

        init(_ objects: [Row]) {
            source = SimpleDataSource(name: "rows", objects: objects)
            let threshold = threshold
            filtered = source.filter { row in row.value % threshold.value != 0 }
            sorted = filtered.sorted(by: LargeChangeTests.order)
            sectioned = sorted.sectioned(by: \.group, sectionOrder: .ascending)
        }

        /// What every link should show for the source's current objects and threshold.
        func expectFromScratch() {
            let limit = threshold.value
            let kept = source.snapshot.allObjects.filter { $0.value % limit != 0 }
            // Booleans, so a failure prints a line, not 20,000 rows.
            let filteredMatches = filtered.snapshot.allObjects == kept
            #expect(filteredMatches, "filtered differs from scratch")
            let ordered = kept.sorted(by: LargeChangeTests.order)
            let sortedMatches = sorted.snapshot.allObjects == ordered
            #expect(sortedMatches, "sorted differs from scratch")
            let groups = Dictionary(grouping: ordered, by: \.group).sorted { $0.key < $1.key }
            #expect(sectioned.snapshot.sections.map(\.title) == groups.map { String($0.key) })
            let sectionedMatches = sectioned.snapshot.sections.map { Array($0.objects) } == groups.map(\.value)
            #expect(sectionedMatches, "sectioned differs from scratch")
        }

        /// Runs `change`, then checks each link's published change set against the snapshot
        /// it showed before; returns the three change sets (filtered, sorted, sectioned).
        @discardableResult
        func follow(_ change: () -> Void) -> [ChangeSet] {
            let before = [filtered.updates.value, sorted.updates.value, sectioned.updates.value]
            change()
            let after = [filtered.updates.value, sorted.updates.value, sectioned.updates.value]
            var result: [ChangeSet] = []
            for (old, new) in zip(before, after) {
                let changes = new.changes(since: old.version)
                #expect(changes != nil, "each link says what changed since the version before")
                if let changes {
                    let changeApplies = changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot
                    #expect(changeApplies, "the change set does not turn the old snapshot into the new one")
                    result.append(changes)
                }
            }
            expectFromScratch()
            return result
        }
    }

    static func rows(_ count: Int, from start: Int = 0, _ random: inout SplitMix64) -> [Row] {
        (start..<(start + count)).map { Row(id: $0, value: Int.random(in: 0..<100_000, using: &random), group: $0 % 37) }
    }

    @Test func aPredicateChangeOverManyRowsIsFollowedExactly() {
        var random = SplitMix64(seed: 20)
        let chain = Chain(Self.rows(20_000, &random))
        let subscriptions = [chain.filtered.updates.observe { _ in }, chain.sorted.updates.observe { _ in }, chain.sectioned.updates.observe { _ in }]
        defer { subscriptions.forEach { $0.cancel() } }
        chain.expectFromScratch()
        for limit in [4, 2, 5, 3] {
            let changes = chain.follow { chain.threshold.value = limit }
            // Hidden and shown rows are deletes and inserts; nothing moves or changes.
            #expect(changes.allSatisfy { $0.movedRows.isEmpty && $0.updatedRows.isEmpty })
            #expect(changes.allSatisfy { $0.deletedRows.count + $0.insertedRows.count > 1_000 })
        }
    }

    @Test func aRefreshEditingRemovingAndAddingThousandsOfRowsKeepsEditedRowsAsRows() {
        var random = SplitMix64(seed: 21)
        var objects = Self.rows(20_000, &random)
        let chain = Chain(objects)
        let subscriptions = [chain.filtered.updates.observe { _ in }, chain.sorted.updates.observe { _ in }, chain.sectioned.updates.observe { _ in }]
        defer { subscriptions.forEach { $0.cancel() } }
        for round in 0..<3 {
            // A fifth of the rows get a new value that keeps them shown (moved in the sorted
            // order), a tenth go, and 3,000 new rows come.
            var edited: Set<Int> = []
            for index in objects.indices where random.next() % 5 == 0 && objects[index].value % 3 != 0 {
                var value = Int.random(in: 0..<100_000, using: &random)
                while value % 3 == 0 { value += 1 }
                objects[index].value = value
                edited.insert(objects[index].id)
            }
            objects.removeAll { random.next() % 10 == 0 && !edited.contains($0.id) }
            objects += Self.rows(3_000, from: 100_000 * (round + 1), &random)
            let shown = objects.filter { $0.value % 3 != 0 }
            let changes = chain.follow { chain.source.replaceObjects(with: objects) }
            let sorted = changes[1]
            // Every edited row that stays shown is an update (or a move and an update) of its
            // row in the sorted link, never a delete and an insert.
            let updatedIDs = Set(sorted.updatedRows.compactMap { chain.sorted.snapshot.object(at: $0)?.id })
            let notUpdated = edited.subtracting(updatedIDs)
            #expect(notUpdated.isEmpty, "\(notUpdated.count) of \(edited.count) edited rows not reported as updates")
            let insertedIDs = Set(sorted.insertedRows.compactMap { chain.sorted.snapshot.object(at: $0)?.id })
            let reinserted = insertedIDs.intersection(edited)
            #expect(reinserted.isEmpty, "\(reinserted.count) edited rows reported as inserts")
            #expect(insertedIDs.count == shown.filter { $0.id >= 100_000 * (round + 1) }.count)
        }
    }
}

extension LargeChangeTests {
    /// Sections by key or by first appearance, rows ordered by object: rows that change
    /// section, sections whose first row changes, thousands at once.
    @Test(arguments: [true, false])
    func aRefreshMovingRowsBetweenSectionsOrderedByObjectIsFollowedExactly(ascendingKeys: Bool) {
        var random = SplitMix64(seed: 22)
        var objects = Self.rows(6_000, &random).map { Row(id: $0.id, value: $0.value, group: $0.id % 7) }
        let source = SimpleDataSource(name: "rows", objects: objects)
        let byIDDescending: @Sendable (Row, Row) -> Bool = { $0.id > $1.id }
        let sectioned = source.sorted(by: Self.order)
            .sectioned(by: \.group, sectionOrder: ascendingKeys ? .ascending : .firstAppearance, objectOrder: byIDDescending)
        let subscription = sectioned.updates.observe { _ in }
        defer { subscription.cancel() }
        for round in 0..<4 {
            for index in objects.indices where random.next() % 5 == 0 {
                objects[index].group = Int(random.next() % 7)
                objects[index].value = Int.random(in: 0..<100_000, using: &random)
            }
            objects.removeAll { _ in random.next() % 10 == 0 }
            objects += Self.rows(500, from: 100_000 * (round + 1), &random).map { Row(id: $0.id, value: $0.value, group: $0.id % 7) }
            let before = sectioned.updates.value
            source.replaceObjects(with: objects)
            let after = sectioned.updates.value
            let changes = after.changes(since: before.version)
            let changeApplies = changes.map { $0.applied(to: before.snapshot, valuesFrom: after.snapshot) == after.snapshot } == true
            #expect(changeApplies, "the change set does not turn the old snapshot into the new one")
            // From scratch: keys ascending or by first appearance in the sorted rows; rows by id, descending.
            let ordered = objects.sorted(by: Self.order)
            var keys: [Int] = []
            for row in ordered where !keys.contains(row.group) { keys.append(row.group) }
            if ascendingKeys { keys.sort() }
            let expected = keys.map { key in ordered.filter { $0.group == key }.sorted(by: byIDDescending) }
            #expect(sectioned.snapshot.sections.map(\.title) == keys.map(String.init))
            let sectionsMatch = sectioned.snapshot.sections.map { Array($0.objects) } == expected
            #expect(sectionsMatch, "sections differ from scratch")
        }
    }
}

/// A parent whose updates are written by the test, change sets included.
final class ScriptedParent: DataSource {
    let name = "scripted"
    let published: MutableProperty<SnapshotUpdate<Int>>
    var updates: Property<SnapshotUpdate<Int>> { published.readOnly }
    let loadState = MutableProperty(LoadState()).readOnly
    var loadEvents: Signal<LoadEvent> { .never }

    init(_ objects: [Int]) {
        published = MutableProperty(SnapshotUpdate(snapshot: Snapshot(sections: [SnapshotSection(id: "s", title: nil, objects: RowStorage(objects))])))
    }

    /// Publishes `objects` as the next version, with `changes` as the change that made them.
    func publish(_ objects: [Int], changes: ChangeSet) {
        let previous = published.value
        published.value = SnapshotUpdate(
            snapshot: Snapshot(sections: [SnapshotSection(id: "s", title: nil, objects: RowStorage(objects))]),
            changes: changes, version: previous.version + 1
        )
    }

    func fetchData() {}
    func cancelFetch() {}
}

@Suite("Chains: change sets that do not fit")
struct UnfitChangeTests {
    /// [1, 2, 3] -> [9, 4, 2, 3] published as "insert at 0, update 0 and 1": a change set that
    /// applies (update 0 overwrites the inserted row) but updates a row it inserted, so no
    /// old row stands behind it. Derived sources do not trust it: they derive again.
    @Test func anUpdateOfAnInsertedRowIsDerivedAgainNotFollowed() {
        let parent = ScriptedParent([1, 2, 3])
        let sorted = parent.sorted(by: <)
        let sectioned = parent.sectioned(by: { $0 % 2 }, sectionOrder: .ascending)
        let filtered = parent.filter { $0 != 3 }
        let subscriptions = [sorted.updates.observe { _ in }, sectioned.updates.observe { _ in }, filtered.updates.observe { _ in }]
        defer { subscriptions.forEach { $0.cancel() } }
        var changes = ChangeSet()
        changes.insertedRows = [RowPath(item: 0, section: 0)]
        changes.updatedRows = [RowPath(item: 0, section: 0), RowPath(item: 1, section: 0)]
        let before = parent.snapshot
        parent.publish([9, 4, 2, 3], changes: changes)
        #expect(changes.applied(to: before, valuesFrom: parent.snapshot) == parent.snapshot)
        #expect(sorted.snapshot.allObjects == [2, 3, 4, 9])
        #expect(sectioned.snapshot.sections.map { Array($0.objects) } == [[4, 2], [9, 3]])
        #expect(filtered.snapshot.allObjects == [9, 4, 2])
        // The same row updated twice is not trusted either.
        var twice = ChangeSet()
        twice.updatedRows = [RowPath(item: 1, section: 0), RowPath(item: 1, section: 0)]
        parent.publish([9, 5, 2, 3], changes: twice)
        #expect(sorted.snapshot.allObjects == [2, 3, 5, 9])
        #expect(sectioned.snapshot.sections.map { Array($0.objects) } == [[2], [9, 5, 3]])
    }
}
