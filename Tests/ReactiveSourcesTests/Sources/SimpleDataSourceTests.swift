import Foundation
import Signals
import Testing
@testable import ReactiveSources

@Suite("Simple data source")
struct SimpleDataSourceTests {
    @Test func showsTheArrayInOneSectionTitledByName() {
        let source = SimpleDataSource(name: "Fruit", objects: ["apple", "pear"])
        #expect(source.numberOfSections == 1)
        #expect(source.title(ofSection: 0) == "Fruit")
        #expect(source.numberOfObjects(inSection: 0) == 2)
        #expect(source.object(at: RowPath(item: 1, section: 0)) == "pear")
        #expect(source.path(of: "pear") == RowPath(item: 1, section: 0))
        #expect(source.path(of: "plum") == nil)
    }

    @Test func invalidPathsReturnNil() {
        let source = SimpleDataSource(name: "x", objects: [1, 2, 3])
        #expect(source.object(at: RowPath(item: -1, section: 0)) == nil)
        #expect(source.object(at: RowPath(item: 3, section: 0)) == nil)
        #expect(source.object(at: RowPath(item: 0, section: 1)) == nil)
        #expect(source.object(at: RowPath(item: 0, section: -1)) == nil)
        #expect(source.object(at: IndexPath(indexes: [0])) == nil)
        #expect(source.object(at: IndexPath(indexes: [0, 0, 0])) == nil)
        #expect(source.object(at: IndexPath()) == nil)
        #expect(source.object(at: IndexPath(RowPath(item: 1, section: 0))) == 2)
        #expect(source.numberOfRows(inSection: 7) == 0)
        #expect(source.title(ofSection: -2) == nil)
    }

    @Test func fetchCompletesAtOnce() {
        let source = SimpleDataSource(name: "x", objects: [1])
        let log = EventLog(source)
        source.fetchData()
        #expect(log.values == [.willLoad, .didFinishLoading])
        #expect(source.loadState.value.content.phase == .loaded)
        #expect(source.loadState.value.isFetching == false)
    }

    @Test func emptySourceFinishesEmpty() {
        let source = SimpleDataSource<Int>(name: "x")
        source.fetchData()
        #expect(source.loadState.value.content.phase == .empty)
    }

    @Test func lifecycleContract() async {
        await checkLifecycleContract(of: SimpleDataSource(name: "x", objects: [1, 2]))
    }

    @Test func mutationsPublishExactChangeSets() throws {
        let source = SimpleDataSource(name: "x", objects: ["a", "b", "c"])
        let updates = Recorder<SnapshotUpdate<String>>()
        let subscription = source.updates.observe(emitsCurrentValue: false) { updates.append($0) }
        defer { subscription.cancel() }

        source.append(["d"])
        try source.insert(["z"], at: 0)
        try source.remove(at: 1)
        try source.move(from: 0, to: 3)
        source.replaceObjects(with: ["c", "b", "q"])

        #expect(source.objects == ["c", "b", "q"])
        let all = updates.values
        #expect(all.count == 5)
        var previous = Snapshot(sections: [SnapshotSection(id: "x", title: "x", objects: ["a", "b", "c"])])
        for update in all {
            #expect(update.changes.applied(to: previous, valuesFrom: update.snapshot) == update.snapshot)
            previous = update.snapshot
        }
        #expect(all[0].changes.insertedRows == [RowPath(item: 3, section: 0)])
        #expect(all[1].changes.insertedRows == [RowPath(item: 0, section: 0)])
        #expect(all[2].changes.deletedRows == [RowPath(item: 1, section: 0)])
        #expect(all[3].changes.movedRows == [ChangeSet.RowMove(from: RowPath(item: 0, section: 0), to: RowPath(item: 3, section: 0))])
    }

    @Test func badMutationIndexesThrowAndChangeNothing() {
        let source = SimpleDataSource(name: "x", objects: [1, 2])
        #expect(throws: MutationError.indexOutOfRange(index: 3, validRange: 0...2)) { try source.insert([9], at: 3) }
        #expect(throws: MutationError.indexOutOfRange(index: -1, validRange: 0...1)) { try source.remove(at: -1) }
        #expect(throws: MutationError.indexOutOfRange(index: 2, validRange: 0...1)) { try source.move(from: 0, to: 2) }
        #expect(throws: MutationError.indexOutOfRange(index: 0, validRange: nil)) { try SimpleDataSource<Int>().remove(at: 0) }
        #expect(source.objects == [1, 2])
        #expect(MutationError.indexOutOfRange(index: 3, validRange: 0...2).description.contains("3"))
    }

    @Test func duplicatesDoNotCrashAndLookupFindsTheFirst() {
        let source = SimpleDataSource(name: "x", objects: [1, 1, 2, 1])
        #expect(source.path(of: 1) == RowPath(item: 0, section: 0))
        source.replaceObjects(with: [1, 2, 1, 1, 1])
        #expect(source.objects == [1, 2, 1, 1, 1])
    }

    @Test func sourceAndSubscriptionsAreFreed() {
        weak var weakSource: SimpleDataSource<Int>?
        var subscription: SignalSubscription?
        do {
            let source = SimpleDataSource(name: "x", objects: [1])
            weakSource = source
            subscription = source.updates.observe { _ in }
            subscription?.cancel()
        }
        subscription = nil
        #expect(weakSource == nil)
    }
}
