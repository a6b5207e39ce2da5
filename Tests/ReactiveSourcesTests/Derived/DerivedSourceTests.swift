import ReactiveSourcesTesting
import Foundation
import Signals
import Synchronization
import Testing
@testable import ReactiveSources

@Suite("Derived sources: map, filter, sorted")
struct DerivedSourceTests {
    struct Item: Hashable, Sendable, Identifiable {
        var id: Int
        var value: Int
    }

    /// Counts calls of a closure from any thread.
    final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
        func reset() { count.store(0, ordering: .relaxed) }
    }

    @Test func anAppendTransformsOnlyTheAppendedObjects() {
        let parent = SimpleDataSource(objects: (0..<1_000).map { Item(id: $0, value: $0) })
        let calls = Counter()
        let mapped = parent.map { item -> Item in
            calls.increment()
            return Item(id: item.id, value: item.value * 10)
        }
        let filtered = parent.filter { item in
            calls.increment()
            return item.value.isMultiple(of: 2)
        }
        #expect(mapped.snapshot.objectCount == 1_000)
        #expect(filtered.snapshot.objectCount == 500)
        calls.reset()
        parent.append((1_000..<1_010).map { Item(id: $0, value: $0) })
        #expect(mapped.snapshot.objectCount == 1_010)
        #expect(filtered.snapshot.objectCount == 505)
        #expect(calls.value == 20, "10 map calls and 10 predicate calls, not a pass over 1,000 objects")
    }

    @Test func anEditedObjectIsAnUpdateOfItsRowAndASortedRowThatMovesIsAMove() throws {
        let parent = SimpleDataSource(objects: [Item(id: 1, value: 10), Item(id: 2, value: 20), Item(id: 3, value: 30)])
        let filtered = parent.filter { $0.value < 100 }
        let sorted = parent.sorted(by: \.value)
        let filteredChanges = Recorder<ChangeSet>()
        let sortedChanges = Recorder<ChangeSet>()
        let a = filtered.observeChanges { _, changes in filteredChanges.append(changes) }
        let b = sorted.observeChanges { _, changes in sortedChanges.append(changes) }
        defer { a.cancel(); b.cancel() }
        try parent.replace(at: 1, with: Item(id: 2, value: 21))
        #expect(filteredChanges.values.last?.updatedRows == [RowPath(item: 1, section: 0)])
        #expect(filteredChanges.values.last?.deletedRows == [] && filteredChanges.values.last?.insertedRows == [])
        #expect(sortedChanges.values.last?.updatedRows == [RowPath(item: 1, section: 0)])
        #expect(sortedChanges.values.last?.movedRows == [])
        try parent.replace(at: 0, with: Item(id: 1, value: 50))
        #expect(sorted.snapshot.allObjects.map(\.id) == [2, 3, 1])
        let last = try #require(sortedChanges.values.last)
        #expect(last.movedRows == [.init(from: RowPath(item: 0, section: 0), to: RowPath(item: 2, section: 0))])
        #expect(last.updatedRows == [RowPath(item: 2, section: 0)])
        #expect(last.deletedRows.isEmpty && last.insertedRows.isEmpty)
    }

    @Test func aPredicateReadingAPropertyFiltersAgainWhenItChanges() {
        let parent = SimpleDataSource(objects: (0..<10).map { Item(id: $0, value: $0) })
        let limit = MutableProperty(5)
        let filtered = parent.filter { $0.value < limit.value }
        let updates = Recorder<(Snapshot<Item>, ChangeSet)>()
        let subscription = filtered.observeChanges { updates.append(($0, $1)) }
        defer { subscription.cancel() }
        #expect(filtered.snapshot.allObjects.map(\.id) == [0, 1, 2, 3, 4])
        limit.value = 3
        #expect(filtered.snapshot.allObjects.map(\.id) == [0, 1, 2])
        var recorded = updates.values
        #expect(recorded.count == 2)
        #expect(recorded[1].1.deletedRows == [RowPath(item: 3, section: 0), RowPath(item: 4, section: 0)])
        #expect(recorded[1].1.insertedRows.isEmpty && recorded[1].1.updatedRows.isEmpty)
        // Rows that change later are filtered with the new value, and a write of the same
        // value publishes nothing.
        parent.append([Item(id: 10, value: 2), Item(id: 11, value: 4)])
        limit.value = 3
        #expect(filtered.snapshot.allObjects.map(\.id) == [0, 1, 2, 10])
        recorded = updates.values
        #expect(recorded.count == 3)
        #expect(recorded[2].1.insertedRows == [RowPath(item: 3, section: 0)])
        limit.value = 11
        #expect(filtered.snapshot.allObjects.map(\.id) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        recorded = updates.values
        #expect(recorded.count == 4)
        #expect(recorded[3].1.applied(to: recorded[2].0, valuesFrom: recorded[3].0) == recorded[3].0)
    }

    @Test func aPropertyFirstReadOnARowThatArrivesLaterIsFollowedToo() {
        // The predicate reads `showAll` only for rows that are not favourites: none at first.
        let parent = SimpleDataSource(objects: (0..<3).map { Item(id: $0, value: 1) })
        let showAll = MutableProperty(false)
        let shown = parent.filter { $0.value == 1 || showAll.value }
        #expect(shown.snapshot.allObjects.map(\.id) == [0, 1, 2])
        parent.append([Item(id: 3, value: 0)])
        #expect(shown.snapshot.allObjects.map(\.id) == [0, 1, 2])
        showAll.value = true
        #expect(shown.snapshot.allObjects.map(\.id) == [0, 1, 2, 3])
    }

    @Test func aPropertyChangedInTheSameBatchAsTheParentIsFollowed() {
        let parent = SimpleDataSource(objects: (0..<6).map { Item(id: $0, value: $0) })
        let descending = MutableProperty(false)
        let sorted = parent.sorted { descending.value ? $0.value > $1.value : $0.value < $1.value }
        let updates = Recorder<(Snapshot<Item>, ChangeSet)>()
        let subscription = sorted.observeChanges { updates.append(($0, $1)) }
        defer { subscription.cancel() }
        batch {
            parent.append([Item(id: 6, value: 6)])
            descending.value = true
        }
        #expect(sorted.snapshot.allObjects.map(\.id) == [6, 5, 4, 3, 2, 1, 0])
        let recorded = updates.values
        #expect(recorded.count == 2)
        #expect(recorded[1].1.applied(to: recorded[0].0, valuesFrom: recorded[1].0) == recorded[1].0)
    }

    @Test func aPropertyReadByAMapOrASectionKeyRederivesToo() {
        let parent = SimpleDataSource(objects: (0..<4).map { Item(id: $0, value: $0) })
        let offset = MutableProperty(0)
        let mapped = parent.map { $0.value + offset.value }
        let buckets = MutableProperty(2)
        let sectioned = parent.sectioned(by: { $0.value % buckets.value })
        #expect(mapped.snapshot.allObjects == [0, 1, 2, 3])
        #expect(sectioned.snapshot.sections.count == 2)
        offset.value = 10
        buckets.value = 1
        #expect(mapped.snapshot.allObjects == [10, 11, 12, 13])
        #expect(sectioned.snapshot.sections.map { $0.objects.count } == [4])
    }

    @Test func aSourceWhosePredicateReadsAPropertyIsFreedWhileThePropertyLives() {
        let parent = SimpleDataSource(objects: (0..<3).map { Item(id: $0, value: $0) })
        let limit = MutableProperty(2)
        weak var weakFiltered: DerivedDataSource<Item, Item>?
        do {
            let filtered = parent.filter { $0.value < limit.value }
            weakFiltered = filtered
            let subscription = filtered.observeChanges { _, _ in }
            limit.value = 3
            #expect(filtered.snapshot.allObjects.map(\.id) == [0, 1, 2])
            subscription.cancel()
        }
        #expect(weakFiltered == nil)
        limit.value = 1
        #expect(parent.objects.count == 3)
    }

    @Test func aSortOrderParameterReordersWithMoves() {
        let parent = SimpleDataSource(objects: (0..<4).map { Item(id: $0, value: $0) })
        let descending = MutableProperty(false)
        let sorted = parent.sorted { lhs, rhs in
            descending.value ? lhs.value > rhs.value : lhs.value < rhs.value
        }
        let updates = Recorder<(Snapshot<Item>, ChangeSet)>()
        let subscription = sorted.observeChanges { updates.append(($0, $1)) }
        defer { subscription.cancel() }
        descending.value = true
        #expect(sorted.snapshot.allObjects.map(\.id) == [3, 2, 1, 0])
        let recorded = updates.values
        #expect(recorded.count == 2)
        let last = recorded[recorded.count - 1].1
        #expect(last.applied(to: recorded[0].0, valuesFrom: recorded[1].0) == recorded[1].0)
        #expect(last.insertedRows.isEmpty && last.deletedRows.isEmpty && last.movedRows.count == 3)
    }

    @Test func equalKeysStaySortedAndKeepEveryObject() {
        var random = SplitMix64(seed: 7)
        let parent = SimpleDataSource(objects: (0..<50).map { Item(id: $0, value: Int.random(in: 0..<5, using: &random)) })
        let sorted = parent.sorted(by: \.value)
        for round in 0..<200 {
            let count = parent.objects.count
            if random.chance(50) || count == 0 {
                try? parent.insert([Item(id: 100 + round, value: Int.random(in: 0..<5, using: &random))], at: Int.random(in: 0...count, using: &random))
            } else {
                try? parent.replace(at: Int.random(in: 0..<count, using: &random), with: Item(id: 1_000 + round, value: Int.random(in: 0..<5, using: &random)))
            }
            let shown = sorted.snapshot.allObjects
            #expect(shown.map(\.value) == shown.map(\.value).sorted())
            #expect(Set(shown) == Set(parent.objects) && shown.count == parent.objects.count)
        }
    }

    @Test func sectionsAndPlaceholdersAreThoseOfTheParent() async {
        let fetcher = ScriptedFetcher<Int>()
        let remote = RemoteDataSource(name: "r", fetcher: fetcher)
        let filtered = remote.filter { $0 > 1 }
        remote.fetchData()
        #expect(filtered.snapshot.sections.map(\.placeholder) == remote.snapshot.sections.map(\.placeholder))
        #expect(filtered.snapshot.sections.map(\.id) == remote.snapshot.sections.map(\.id))
    }

    @Test func willDisplayRowReachesTheParentRowShown() {
        let spy = DisplaySpy()
        let odd = spy.filter { $0 % 2 == 1 }
        odd.willDisplayRow(at: RowPath(item: 2, section: 0))
        odd.willDisplayRow(at: RowPath(item: 9, section: 0))
        odd.willDisplayRow(at: RowPath(item: -1, section: 0))
        let sorted = spy.sorted(by: >)
        sorted.willDisplayRow(at: RowPath(item: 9, section: 0))
        #expect(spy.displayed == [RowPath(item: 5, section: 0), RowPath(item: 9, section: 0)])
    }

    @Test func aChainNobodyHoldsIsFreed() {
        let parent = SimpleDataSource(objects: [1, 2, 3])
        weak var weakMapped: DerivedDataSource<Int, Int>?
        weak var weakSorted: DerivedDataSource<Int, Int>?
        do {
            let mapped = parent.map { $0 * 2 }
            let sorted = mapped.filter { $0 > 2 }.sorted(by: >)
            weakMapped = mapped
            weakSorted = sorted
            let subscription = sorted.observeChanges { _, _ in }
            parent.append([4])
            #expect(sorted.snapshot.allObjects == [8, 6, 4])
            subscription.cancel()
        }
        #expect(weakMapped == nil)
        #expect(weakSorted == nil)
    }
}

@Suite("Skipped versions are composed, not diffed")
struct SkippedVersionTests {
    @Test func aBatchIsDeliveredAsTheComposedEdits() {
        let source = SimpleDataSource(objects: [7, 7])
        let changes = Recorder<ChangeSet>()
        let subscription = source.observeChanges { _, change in changes.append(change) }
        defer { subscription.cancel() }
        batch {
            _ = try? source.remove(at: 0)
            source.append([7])
        }
        // A diff of [7, 7] against [7, 7] finds nothing; the edits themselves were a removal
        // of the first row and an append.
        #expect(changes.values.count == 2)
        #expect(changes.values.last?.deletedRows == [RowPath(item: 0, section: 0)])
        #expect(changes.values.last?.insertedRows == [RowPath(item: 1, section: 0)])
    }

    @Test func aDerivedSourceFollowsABatchThroughItsChanges() {
        let parent = SimpleDataSource(objects: Array(0..<1_000))
        let calls = DerivedSourceTests.Counter()
        let mapped = parent.map { value -> Int in
            calls.increment()
            return value * 2
        }
        #expect(mapped.snapshot.objectCount == 1_000)
        calls.reset()
        batch {
            parent.append([1_000])
            parent.append([1_001])
            try? parent.replace(at: 3, with: -3)
        }
        #expect(mapped.snapshot.allObjects.suffix(2) == [2_000, 2_002])
        #expect(mapped.snapshot.object(at: RowPath(item: 3, section: 0)) == -6)
        #expect(calls.value == 3)
    }

    @Test func moreSkippedVersionsThanTheLogKeepsFallBackToADiff() {
        let source = SimpleDataSource(objects: [0])
        let updates = Recorder<(Snapshot<Int>, ChangeSet)>()
        let subscription = source.observeChanges { updates.append(($0, $1)) }
        defer { subscription.cancel() }
        batch {
            for value in 1...200 { source.append([value]) }
        }
        let recorded = updates.values
        #expect(recorded.count == 2)
        #expect(recorded[1].1.applied(to: recorded[0].0, valuesFrom: recorded[1].0) == recorded[1].0)
        #expect(source.updates.value.changes(since: source.updates.value.version - 200) == nil)
        #expect(source.updates.value.changes(since: source.updates.value.version - 10)?.insertedRows.count == 10)
    }

    @Test func willDisplayRowFromAnotherThreadWhileTheParentChanges() async {
        // Under ThreadSanitizer (CI's sanitizer step) this catches unguarded transform state.
        let parent = SimpleDataSource(objects: Array(0..<100))
        let filtered = parent.filter { $0 % 3 != 0 }
        _ = filtered.snapshot
        let done = DispatchGroup()
        done.enter()
        Thread.detachNewThread {
            for value in 100..<1_100 {
                parent.append([value])
                _ = filtered.snapshot
            }
            done.leave()
        }
        done.enter()
        Thread.detachNewThread {
            for item in 0..<5_000 { filtered.willDisplayRow(at: RowPath(item: item % 60, section: 0)) }
            done.leave()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            done.notify(queue: .global()) { continuation.resume() }
        }
        #expect(filtered.snapshot.allObjects == parent.objects.filter { $0 % 3 != 0 })
    }

    @Test func theChangeSinceTheVersionJustBeforeIsTheUpdatesOwnEvenWhenItAddsASection() {
        let parent = SimpleDataSource(objects: [1, 2])
        let sectioned = SectionedDataSource(child: parent, key: { $0 % 10 })
        let before = sectioned.updates.value.version
        parent.append([13])
        let update = sectioned.updates.value
        #expect(update.version == before + 1)
        #expect(update.changes.insertedSections == [2])
        #expect(update.changes(since: before) == update.changes, "one step back is always bridged, sections or not")
        parent.append([24])
        #expect(sectioned.updates.value.changes(since: before) == nil, "two steps that add sections are not composed")
    }
}

@Suite("Sectioned follows every kind of edit")
struct IncrementalSectionedTests {
    struct Item: Hashable, Sendable, Identifiable {
        var id: Int
        var value: Int
    }

    @Test func insertsRemovalsAndEditsCallTheKeyOnlyForTheRowsThatChanged() throws {
        let parent = SimpleDataSource(objects: (0..<1_000).map { Item(id: $0, value: $0) })
        let calls = DerivedSourceTests.Counter()
        let sectioned = SectionedDataSource(child: parent, key: { (item: Item) -> Int in
            calls.increment()
            return item.value % 10
        })
        let seen = Recorder<(Snapshot<Item>, ChangeSet)>()
        let subscription = sectioned.observeChanges { seen.append(($0, $1)) }
        defer { subscription.cancel() }
        calls.reset()
        try parent.insert([Item(id: 5_000, value: 3)], at: 500)
        _ = try parent.remove(at: 10)
        try parent.replace(at: 20, with: Item(id: 21, value: 25))
        #expect(calls.value < 12, "the key is called for the rows that changed, not for all 1,000 (\(calls.value))")
        let updates = seen.values
        for (old, new) in zip(updates, updates.dropFirst()) {
            #expect(new.1.applied(to: old.0, valuesFrom: new.0) == new.0)
        }
        let last = try #require(updates.last)
        #expect(last.1.movedRows.count == 1, "an edit that changes the key moves the row to its new section")
        #expect(last.1.updatedRows == last.1.movedRows.map(\.to))
    }
}

@Suite("Derived sources: bad orders and equal keys")
struct DerivedOrderEdgeTests {
    struct Scored: Hashable, Sendable, Identifiable {
        var id: Int
        var score: Double
    }

    @Test func aSortOrderWithNaNKeysStillShowsExactlyTheParentsRows() throws {
        var random = SplitMix64(seed: 7)
        let parent = SimpleDataSource(objects: (0..<200).map {
            Scored(id: $0, score: $0 % 5 == 0 ? .nan : Double(Int.random(in: 0..<1_000, using: &random)))
        })
        let sorted = parent.sorted(by: \.score)
        _ = sorted.snapshot
        for _ in 0..<100 {
            _ = try parent.remove(at: Int.random(in: 0..<parent.objects.count, using: &random))
            #expect(Set(sorted.snapshot.allObjects.map(\.id)) == Set(parent.objects.map(\.id)))
        }
        #expect(sorted.snapshot.objectCount == parent.snapshot.objectCount)
    }

    @Test func rowsThatCompareEqualKeepTheParentsOrderAfterEdits() throws {
        let parent = SimpleDataSource(objects: [Scored(id: 1, score: 0), Scored(id: 2, score: 0)])
        let sorted = parent.sorted(by: \.score)
        _ = sorted.snapshot
        try parent.insert([Scored(id: 3, score: 0)], at: 0)
        #expect(sorted.snapshot.allObjects.map(\.id) == [3, 1, 2])
        #expect(sorted.snapshot.allObjects.map(\.id) == parent.sorted(by: \.score).snapshot.allObjects.map(\.id))
        try parent.move(from: 2, to: 0)
        #expect(sorted.snapshot.allObjects.map(\.id) == [2, 3, 1])
    }

    @Test func removingOneOfManyEqualRowsDoesNotScanThemAll() throws {
        let calls = Atomic<Int>(0)
        let parent = SimpleDataSource(objects: (0..<20_000).map { Scored(id: $0, score: Double($0 % 2)) })
        let sorted = parent.sorted { lhs, rhs in
            calls.add(1, ordering: .relaxed)
            return lhs.score < rhs.score
        }
        _ = sorted.snapshot
        calls.store(0, ordering: .relaxed)
        _ = try parent.remove(at: 19_999)
        _ = sorted.snapshot
        #expect(sorted.snapshot.objectCount == 19_999)
        #expect(calls.load(ordering: .relaxed) < 500, "found by (value, label), not by scanning the 10,000 equal rows")
    }

    @Test func manyPrependsNeitherRegroupNorResort() throws {
        let keyCalls = Atomic<Int>(0)
        let comparisons = Atomic<Int>(0)
        let parent = SimpleDataSource(objects: (0..<10_000).map { Scored(id: $0, score: Double($0 % 7)) })
        let sectioned = SectionedDataSource(child: parent, key: { (row: Scored) -> Int in
            keyCalls.add(1, ordering: .relaxed)
            return row.id % 4
        })
        let sorted = parent.sorted { lhs, rhs in
            comparisons.add(1, ordering: .relaxed)
            return lhs.score < rhs.score
        }
        _ = (sectioned.snapshot, sorted.snapshot)
        keyCalls.store(0, ordering: .relaxed)
        comparisons.store(0, ordering: .relaxed)
        for index in 0..<200 {
            try parent.insert([Scored(id: 100_000 + index, score: 3)], at: 0)
            _ = (sectioned.snapshot, sorted.snapshot)
        }
        #expect(keyCalls.load(ordering: .relaxed) < 2_000, "200 prepends group 200 rows, not 10,000 again")
        #expect(comparisons.load(ordering: .relaxed) < 20_000, "200 prepends place 200 rows, not sort 10,000 again")
        #expect(sorted.snapshot.allObjects == parent.objects.enumerated().sorted { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }.map(\.element))
    }

    @Test func sectionsWhoseKeysTheOrderRanksEqualFollowFirstAppearanceWhateverTheHistory() throws {
        let parent = SimpleDataSource(objects: [1])
        let order = SectionOrder<Int>.sorted(by: { $0 / 10 < $1 / 10 })
        let live = SectionedDataSource(child: parent, key: { $0 }, sectionOrder: order)
        _ = live.snapshot
        try parent.insert([2], at: 0)
        try parent.insert([25], at: 1)
        let fresh = SectionedDataSource(child: parent, key: { $0 }, sectionOrder: order)
        #expect(live.snapshot.sections.map(\.title) == fresh.snapshot.sections.map(\.title))
        #expect(live.snapshot.sections.map(\.title) == ["2", "1", "25"])
        try parent.move(from: 1, to: 0)
        let again = SectionedDataSource(child: parent, key: { $0 }, sectionOrder: order)
        #expect(live.snapshot.sections.map(\.title) == again.snapshot.sections.map(\.title))
    }
}
