import Foundation
import ReactiveSourcesTesting
import Signals
import Testing
@testable import ReactiveSources

/// What every derived source gets from the one node kind they share: the parent's load
/// state and events, fetch, cancel and display forwarded the same way, and derived sources
/// that compose (a Multi over derived children, a chain over a switching source).
@Suite("Derived nodes")
struct DerivedNodeTests {
    /// Each derived kind over one parent, by name.
    static let kinds: [(name: String, make: @Sendable (any DataSource<Int>) -> any DataSource<Int>)] = [
        ("map", { $0.map { $0 } }),
        ("compactMap", { $0.compactMap { $0 } }),
        ("filter", { $0.filter { $0 > 0 } }),
        ("filter reading a property", { source in let zero = Property(value: 0); return source.filter { $0 > zero.value } }),
        ("sorted", { $0.sorted(by: >) }),
        ("sectioned", { $0.sectioned(by: { $0 % 2 }) }),
        ("switching", { SwitchingDataSource(following: Property(value: $0)) }),
        ("segmented", { SegmentedDataSource(children: [$0]) }),
        ("chain", { $0.filter { $0 > 0 }.sorted(by: <).sectioned(by: { $0 % 2 }).map { $0 } }),
    ]

    @Test(arguments: 0..<kinds.count)
    func forwardsLoadStateEventsFetchAndCancelAsItsParent(kind: Int) async {
        let (name, make) = Self.kinds[kind]
        let fetcher = ScriptedFetcher<Int>()
        let parent = RemoteDataSource(name: "p", fetcher: fetcher)
        let node = make(parent)
        let parentEvents = Recorder<LoadEvent>()
        let nodeEvents = Recorder<LoadEvent>()
        let subscriptions = [
            parent.loadEvents.observe { parentEvents.append($0) },
            node.loadEvents.observe { nodeEvents.append($0) },
        ]
        defer { subscriptions.forEach { $0.cancel() } }
        #expect(node.loadState.value == parent.loadState.value, "\(name)")
        node.fetchData()
        await eventually("first call", until: fetcher) { fetcher.calls.count == 1 }
        #expect(node.loadState.value == parent.loadState.value, "\(name)")
        fetcher.calls[0].deliver([3, 1, 2])
        fetcher.calls[0].finish()
        await eventually("finished", until: parent) { parent.loadState.value.status == .finished }
        #expect(node.loadState.value == parent.loadState.value, "\(name)")
        #expect(Set(node.snapshot.allObjects) == [1, 2, 3], "\(name)")
        node.fetchData()
        await eventually("second call", until: fetcher) { fetcher.calls.count == 2 }
        node.cancelFetch()
        await eventually("cancelled", until: parent) { !parent.loadState.value.isFetching }
        #expect(node.loadState.value == parent.loadState.value, "\(name)")
        #expect(nodeEvents.values == parentEvents.values, "\(name)")
        #expect(parentEvents.values.first == .willLoad && parentEvents.values.last == .didFail(.cancelled), "\(name): \(parentEvents.values)")
        #expect(Set(node.snapshot.allObjects) == [1, 2, 3], "\(name): a cancelled refresh keeps the rows")
    }

    @Test func everyKindForwardsADisplayedRowToTheParentRowItShows() {
        // (kind, own row displayed, the parent row it shows)
        let cases: [(String, @Sendable (any DataSource<Int>) -> any DataSource<Int>, RowPath, RowPath)] = [
            ("map", { $0.map { $0 + 1 } }, RowPath(item: 4, section: 0), RowPath(item: 4, section: 0)),
            ("filter", { $0.filter { $0 % 2 == 1 } }, RowPath(item: 2, section: 0), RowPath(item: 5, section: 0)),
            ("sorted", { $0.sorted(by: >) }, RowPath(item: 9, section: 0), RowPath(item: 9, section: 0)),
            ("sectioned", { $0.sectioned(by: { $0 % 2 }) }, RowPath(item: 2, section: 1), RowPath(item: 5, section: 0)),
            ("switching", { SwitchingDataSource(following: Property(value: $0)) }, RowPath(item: 7, section: 0), RowPath(item: 7, section: 0)),
            ("segmented", { SegmentedDataSource(children: [$0]) }, RowPath(item: 3, section: 0), RowPath(item: 3, section: 0)),
            ("multi", { MultiDataSource(children: [$0]) }, RowPath(item: 6, section: 0), RowPath(item: 6, section: 0)),
            ("multi spliced", { MultiDataSource(children: [$0], splicesChildSections: true) }, RowPath(item: 1, section: 0), RowPath(item: 1, section: 0)),
        ]
        for (name, make, own, expected) in cases {
            let spy = DisplaySpy()
            let node = make(spy)
            _ = node.snapshot
            node.willDisplayRow(at: own)
            #expect(spy.displayed == [expected], "\(name)")
        }
    }

    // MARK: Nodes over nodes

    @Test(arguments: [false, true])
    func aMultiOverDerivedChildrenEqualsAFreshOneAfterEveryEdit(splices: Bool) throws {
        let leaf = SimpleDataSource(name: "leaf", objects: Array(0..<20))
        let children: [any DataSource<Int>] = [
            leaf.filter { $0 % 2 == 0 }, leaf.sorted(by: >), leaf.sectioned(by: { $0 % 3 }, name: "by3"), leaf.map { $0 * 10 },
        ]
        let multi = MultiDataSource(children: children, splicesChildSections: splices)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        var generator = SplitMix64(seed: 20)
        for step in 0..<200 {
            let count = leaf.objects.count
            switch generator.next() % 5 {
            case 0: leaf.append([100 + step, 1_000 + step])
            case 1: if count > 0 { _ = try leaf.remove(at: Int(generator.next() % UInt64(count))) }
            case 2: if count > 1 { try leaf.move(from: Int(generator.next() % UInt64(count)), to: 0) }
            case 3: if count > 0 { try leaf.replace(at: Int(generator.next() % UInt64(count)), with: 5_000 + step) }
            default: if step % 40 == 0 { leaf.replaceObjects(with: Array(0..<(step / 10))) }
            }
            #expect(multi.snapshot == MultiDataSource(children: children, splicesChildSections: splices).snapshot, "step \(step)")
        }
        expectChangeSetsReplay(seen.values)
        #expect(seen.values.count > 150, "one update per visible edit")
    }

    @Test func aMultiShowsTheErrorRowOfADerivedChildWhoseRefreshFails() async {
        let fetcher = ScriptedFetcher<Int>()
        let remote = RemoteDataSource(name: "r", fetcher: fetcher, placeholders: [])
        let multi = MultiDataSource(children: [remote.filter { $0 > 1 }.sorted(by: >)])
        multi.fetchData()
        await eventually("first call", until: fetcher) { fetcher.calls.count == 1 }
        #expect(multi.snapshot.sections[0].placeholder == .loading)
        fetcher.calls[0].deliver([1, 2, 3])
        fetcher.calls[0].finish()
        await eventually("finished", until: multi) { multi.loadState.value.status == .finished }
        #expect(Array(multi.snapshot.sections[0].objects) == [3, 2])
        #expect(multi.snapshot.sections[0].placeholder == nil)
        multi.fetchData()
        await eventually("second call", until: fetcher) { fetcher.calls.count == 2 }
        fetcher.calls[1].fail(TestFailure("boom"))
        await eventually("failed", until: multi) { !multi.loadState.value.isFetching }
        #expect(Array(multi.snapshot.sections[0].objects) == [3, 2], "the objects stay")
        #expect(multi.snapshot.sections[0].placeholder == .error(message: "boom"))
    }

    @Test func aChainOverASwitchingSourceFollowsEverySwitchAndEdit() throws {
        let a = SimpleDataSource(name: "a", objects: Array(0..<30))
        let b = SimpleDataSource(name: "b", objects: Array(50..<70))
        let current = MutableProperty<any DataSource<Int>>(a)
        let switching = SwitchingDataSource(following: current)
        @Sendable func chain(_ source: any DataSource<Int>) -> any DataSource<Int> {
            source.filter { $0 % 2 == 0 }.sorted(by: >).sectioned(by: { $0 % 3 }, sectionOrder: .ascending).map { $0 + 1 }
        }
        let derived = chain(switching)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = derived.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        let steps: [(String, () throws -> Void)] = [
            ("append to a", { a.append([30, 31, 32]) }),
            ("switch to b", { current.value = b }),
            ("append to b", { b.append([70, 72]) }),
            ("edit a (hidden)", { a.append([100]) }),
            ("remove from b", { _ = try b.remove(at: 0) }),
            ("switch back to a", { current.value = a }),
            ("move in a", { try a.move(from: 0, to: 10) }),
            ("replace a", { a.replaceObjects(with: [6, 4, 2]) }),
        ]
        for (name, step) in steps {
            try step()
            #expect(derived.snapshot == chain(current.value).snapshot, "\(name)")
            #expect(derived.loadState.value == current.value.loadState.value, "\(name)")
        }
        expectChangeSetsReplay(seen.values)
        #expect(seen.values.count == steps.count, "one update per step (the hidden edit included: the switch back shows it)")
    }
}
