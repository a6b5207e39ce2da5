import Foundation
import Signals
import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

@Suite("Multi data source")
struct MultiDataSourceTests {
    @Test func oneSectionPerChildTitledByName() {
        let multi = MultiDataSource(children: [
            SimpleDataSource(name: "A", objects: [1, 2]),
            SimpleDataSource(name: "B", objects: [3]),
        ])
        #expect(multi.numberOfSections == 2)
        #expect(multi.title(ofSection: 0) == "A")
        #expect(multi.title(ofSection: 1) == "B")
        #expect(multi.object(at: RowPath(item: 0, section: 1)) == 3)
        #expect(multi.path(of: 3) == RowPath(item: 0, section: 1))
        #expect(multi.object(at: RowPath(item: 2, section: 0)) == nil)
        #expect(multi.object(at: RowPath(item: 0, section: 2)) == nil)
    }

    @Test func updatesAutomaticallyWhenAChildChanges() {
        let a = SimpleDataSource(name: "A", objects: [1])
        let b = SimpleDataSource(name: "B", objects: [2])
        let multi = MultiDataSource(children: [a, b])
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        b.append([3, 4])
        let last = seen.values.last!
        #expect(last.snapshot.sections[1].objects == [2, 3, 4])
        #expect(last.changes.insertedRows == [RowPath(item: 1, section: 1), RowPath(item: 2, section: 1)])
        #expect(last.changes.touchesOnlyRows)
    }

    @Test func childChangesTranslateIntoValidComposedChangeSets() throws {
        let a = SimpleDataSource(name: "A", objects: [1, 2, 3])
        let b = SimpleDataSource(name: "B", objects: [10])
        let c = SimpleDataSource<Int>(name: "C")
        let multi = MultiDataSource(children: [a, b, c])
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        try a.remove(at: 0)
        c.append([7, 8])
        try b.move(from: 0, to: 0)
        try a.move(from: 0, to: 1)
        b.replaceObjects(with: [11, 10])
        let all = seen.values
        for (old, new) in zip(all, all.dropFirst()) {
            #expect(new.version == old.version + 1)
            #expect(new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot)
            #expect(BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot).isEmpty)
        }
        #expect(multi.snapshot.sections.map(\.objects) == [[3, 2], [11, 10], [7, 8]])
    }

    @Test func sectionsStayStableWhileChildrenLoad() async {
        let slow = ScriptedFetcher<Int>()
        let fast = ScriptedFetcher<Int>()
        let multi = MultiDataSource(children: [
            RemoteDataSource(name: "slow", fetcher: slow),
            RemoteDataSource(name: "fast", fetcher: fast),
        ])
        let log = EventLog(multi)
        multi.fetchData()
        #expect(multi.numberOfSections == 2)
        #expect(multi.row(at: RowPath(item: 0, section: 0)) == .placeholder(.loading))
        await eventually("calls", until: slow, fast) { slow.calls.count == 1 && fast.calls.count == 1 }
        fast.calls[0].deliver([5, 6])
        fast.calls[0].finish()
        await eventually("fast delivered", until: multi) { multi.numberOfObjects(inSection: 1) == 2 }
        #expect(multi.numberOfSections == 2)
        #expect(multi.row(at: RowPath(item: 0, section: 0)) == .placeholder(.loading), "the slow child still occupies section 0")
        #expect(multi.loadState.value.isFetching)
        slow.calls[0].deliver([1])
        slow.calls[0].finish()
        await log.waitForFinishers(1)
        #expect(multi.snapshot.sections.map(\.objects) == [[1], [5, 6]])
        #expect(log.values.first == .willLoad)
        #expect(log.values.last == .didFinishLoading)
        #expect(log.values.dropFirst().dropLast().allSatisfy { $0 == .didPartiallyLoad })
        #expect(lifecycleViolation(log.values) == nil)
        #expect(multi.loadState.value.content.phase == .loaded)
    }

    @Test func aFailedChildShowsItsErrorInItsOwnSection() async {
        let bad = ScriptedFetcher<Int>()
        let good = ScriptedFetcher<Int>()
        let multi = MultiDataSource(children: [
            RemoteDataSource(name: "bad", fetcher: bad),
            RemoteDataSource(name: "good", fetcher: good),
        ])
        let log = EventLog(multi)
        multi.fetchData()
        await eventually("calls", until: bad, good) { bad.calls.count == 1 && good.calls.count == 1 }
        bad.calls[0].fail(TestFailure("boom"))
        good.calls[0].deliver([1, 2])
        good.calls[0].finish()
        await log.waitForFinishers(1)
        #expect(multi.row(at: RowPath(item: 0, section: 0)) == .placeholder(.error(message: "boom")))
        #expect(multi.snapshot.sections[1].objects == [1, 2])
        #expect(log.values.last == .didFinishLoading, "finished: one child succeeded")
    }

    @Test func failsOnlyWhenEveryChildFailed() async {
        let one = ScriptedFetcher<Int>()
        let two = ScriptedFetcher<Int>()
        let multi = MultiDataSource(children: [RemoteDataSource(name: "1", fetcher: one), RemoteDataSource(name: "2", fetcher: two)])
        let log = EventLog(multi)
        multi.fetchData()
        await eventually("calls", until: one, two) { one.calls.count == 1 && two.calls.count == 1 }
        one.calls[0].fail(TestFailure("first"))
        two.calls[0].fail(TestFailure("second"))
        await log.waitForFinishers(1)
        #expect(log.values.last == .didFail(.other(TestFailure("first"))))
    }

    @Test func lifecycleContract() async {
        let fetchers = [ScriptedFetcher<Int>(), ScriptedFetcher<Int>()]
        let multi = MultiDataSource(children: fetchers.enumerated().map { RemoteDataSource(name: "\($0.offset)", fetcher: $0.element) })
        // Each child's call may start after the other's: a new call wakes the settling again.
        await checkLifecycleContract(of: multi, settle: {
            for fetcher in fetchers {
                for call in fetcher.calls where !call.hasEnded {
                    call.deliver([1])
                    call.finish()
                }
            }
        }, doubles: fetchers)
    }

    @Test func lifecycleContractWithSimpleChildren() async {
        await checkLifecycleContract(of: MultiDataSource(children: [SimpleDataSource(name: "a", objects: [1])]))
    }

    @Test func childrenOfDifferentTypesCombineThroughMap() {
        enum Item: Hashable, Sendable {
            case line(String)
            case photo(Int)
        }
        let lines = SimpleDataSource(name: "Lines", objects: ["hello"])
        let photos = SimpleDataSource(name: "Photos", objects: [42])
        let multi = MultiDataSource<Item>(children: [lines.map(Item.line), photos.map(Item.photo)])
        #expect(multi.snapshot.sections.map(\.objects) == [[.line("hello")], [.photo(42)]])
        photos.append([43])
        #expect(multi.snapshot.sections[1].objects == [.photo(42), .photo(43)])
    }

    @Test func splicesChildSections() {
        let grouped = SectionedDataSource(child: SimpleDataSource(name: "w", objects: ["apple", "avocado", "banana"]), key: { String($0.prefix(1)) })
        let multi = MultiDataSource(children: [grouped, SimpleDataSource(name: "other", objects: ["x"])], splicesChildSections: true)
        #expect(multi.snapshot.sections.map(\.title) == ["a", "b", "other"])
        #expect(multi.snapshot.sections.map(\.objects) == [["apple", "avocado"], ["banana"], ["x"]])
    }

    @Test func partialLoadWorkIsProportionalToTheChange() {
        // 100 children x 1,000 objects; appending to one child must not touch the others'
        // arrays: the composed sections of untouched children are the very same storage.
        let children = (0..<100).map { index in SimpleDataSource(name: "c\(index)", objects: Array((index * 1000)..<((index + 1) * 1000))) }
        let multi = MultiDataSource(children: children)
        let before = multi.updates.value
        children[42].append([-1, -2])
        let after = multi.updates.value
        #expect(after.changes.insertedRows == [RowPath(item: 1000, section: 42), RowPath(item: 1001, section: 42)])
        for index in [0, 41, 43, 99] {
            #expect(before.snapshot.sections[index].objects.sharesStorage(with: after.snapshot.sections[index].objects), "section \(index) was not copied")
        }
    }

    @Test func forwardsWillDisplayToTheOwningChild() async {
        let pages = ClosurePageFetcher<Int> { token in
            switch token {
            case .first: return Page(objects: [1, 2], next: .number(2))
            default: return Page(objects: [3], next: nil)
            }
        }
        let paginated = PaginatedDataSource(name: "p", fetcher: pages)
        let multi = MultiDataSource(children: [SimpleDataSource(name: "s", objects: [0]), paginated])
        let log = EventLog(multi)
        multi.fetchData()
        await log.waitForFinishers(1)
        multi.willDisplayRow(at: RowPath(item: 1, section: 1))
        await eventually("next page", until: multi) { multi.snapshot.sections[1].objects == [1, 2, 3] }
    }

    @Test func multiIsFreedWithItsChildren() {
        weak var weakMulti: MultiDataSource<Int>?
        weak var weakChild: SimpleDataSource<Int>?
        do {
            let child = SimpleDataSource(name: "a", objects: [1])
            weakChild = child
            let multi = MultiDataSource(children: [child])
            weakMulti = multi
            let subscription = multi.updates.observe { _ in }
            _ = multi.snapshot
            subscription.cancel()
        }
        #expect(weakMulti == nil)
        #expect(weakChild == nil)
    }

    @Test func snapshotAndLoadStateArePublishedTogether() async {
        let slow = ScriptedFetcher<Int>()
        let fast = ScriptedFetcher<Int>()
        let multi = MultiDataSource(children: [RemoteDataSource(name: "slow", fetcher: slow), RemoteDataSource(name: "fast", fetcher: fast)])
        // Each observer reads the other value while being notified.
        let fromUpdates = Recorder<(rows: [[Row<Int>]], status: FetchStatus)>()
        let fromState = Recorder<(rows: [[Row<Int>]], status: FetchStatus)>()
        let a = multi.updates.observe { update in
            fromUpdates.append((update.snapshot.sections.map(\.rows), multi.loadState.value.status))
        }
        let b = multi.loadState.observe { state in
            fromState.append((multi.snapshot.sections.map(\.rows), state.status))
        }
        defer { a.cancel(); b.cancel() }
        let log = EventLog(multi)
        multi.fetchData()
        await eventually("calls", until: slow, fast) { slow.calls.count == 1 && fast.calls.count == 1 }
        fast.calls[0].deliver([5, 6])
        fast.calls[0].finish()
        await eventually("fast delivered", until: fromUpdates) { fromUpdates.values.last?.rows == [[.placeholder(.loading)], [.object(5), .object(6)]] }
        #expect(fromUpdates.values.last?.status == .partiallyLoaded, "fast finished, slow still loading")
        // The slow child ends empty: its no-results row and its finisher are one publication.
        slow.calls[0].finish()
        await log.waitForFinishers(1)
        let final: [[Row<Int>]] = [[.placeholder(.noResults)], [.object(5), .object(6)]]
        await eventually("observers ran", until: fromUpdates, fromState) { fromUpdates.values.last?.rows == final && fromState.values.last?.status == .finished }
        #expect(fromUpdates.values.last?.status == .finished, "the final snapshot is delivered with the finished state")
        #expect(fromState.values.last?.rows == final, "the finished state is delivered with the final snapshot")
        #expect(!fromUpdates.values.contains { $0.rows == final && $0.status != .finished }, "never the final rows with a stale state")
        #expect(multi.loadState.value.content.phase == .loaded)
    }

    @Test func loadStateChangesThatShowNothingNewPublishNothing() async {
        let child = SimpleDataSource(name: "a", objects: [1, 2])
        let multi = MultiDataSource(children: [child, SimpleDataSource(name: "b", objects: [3])])
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe(emitsCurrentValue: false) { seen.append($0) }
        defer { subscription.cancel() }
        let log = EventLog(multi)
        multi.fetchData()
        await log.waitForFinishers(1)
        #expect(child.loadState.value.status == .finished)
        #expect(seen.values.isEmpty, "children with objects went loading -> finished: no visible change, so no update")
        child.append([4])
        #expect(seen.values.count == 1)
        #expect(seen.values.last?.changes.insertedRows == [RowPath(item: 2, section: 0)])
    }

    @Test func anEmptyChildShowsItsStatusPlaceholderWhileLoading() async {
        let fetcher = ScriptedFetcher<Int>()
        let remote = RemoteDataSource(name: "r", fetcher: fetcher, placeholders: [])
        let multi = MultiDataSource(children: [remote])
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        multi.fetchData()
        #expect(multi.row(at: RowPath(item: 0, section: 0)) == .placeholder(.loading))
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([7])
        fetcher.calls[0].finish()
        await eventually("delivered", until: multi) { multi.snapshot.sections[0].objects == [7] }
        #expect(multi.row(at: RowPath(item: 1, section: 0)) == nil, "the status placeholder is gone")
        for (old, new) in zip(seen.values, seen.values.dropFirst()) {
            #expect(new.version == old.version + 1)
            #expect(new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot)
            #expect(BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot).isEmpty)
        }
    }

    @Test func randomChildEditsKeepTheCompositionExact() throws {
        // Edits of every kind (appends, inserts and removals anywhere, moves, replacements):
        // the composition applies the child's change to its own objects or takes the child's.
        var random = SystemRandomNumberGenerator()
        let children = (0..<3).map { index in SimpleDataSource(name: "c\(index)", objects: Array((index * 100)..<(index * 100 + 20))) }
        let multi = MultiDataSource(children: children)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        var next = 1000
        for _ in 0..<400 {
            let child = children[Int.random(in: 0..<3, using: &random)]
            let count = child.objects.count
            let fresh = (0..<Int.random(in: 1...4, using: &random)).map { next + $0 }
            next += fresh.count
            switch Int.random(in: 0..<6, using: &random) {
            case 0: child.append(fresh)
            case 1: try child.insert(fresh, at: Int.random(in: 0...count, using: &random))
            case 2 where count > 0: try child.remove(at: Int.random(in: 0..<count, using: &random))
            case 3 where count > 1:
                try child.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
            case 4: child.replaceObjects(with: child.objects.filter { _ in Bool.random(using: &random) } + fresh)
            default: child.replaceObjects(with: [])
            }
            #expect(multi.snapshot == MultiDataSource(children: children).snapshot)
        }
        let all = seen.values
        for (old, new) in zip(all, all.dropFirst()) {
            #expect(new.version == old.version + 1)
            #expect(new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot)
            #expect(BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot).isEmpty)
        }
    }

    @Test func aMultiSharesItsChildsRowsInsteadOfCopyingThem() {
        // The composed section holds the child's row storage: composing an append copies no
        // row, and the child's next append copies only the storage path it changes.
        let child = SimpleDataSource(name: "c", objects: Array(0..<1000))
        let multi = MultiDataSource(children: [child, SimpleDataSource(name: "d", objects: [1])])
        let subscription = multi.updates.observe { _ in }
        defer { subscription.cancel() }
        for value in 0..<20 {
            child.append([value])
            #expect(multi.snapshot.sections[0].objects.sharesStorage(with: child.snapshot.sections[0].objects))
        }
        #expect(Array(multi.snapshot.sections[0].objects) == Array(0..<1000) + Array(0..<20))
    }
}
