import Foundation
import Signals
import Synchronization
import ReactiveSourcesTesting
import Testing
import ReactiveSources

/// Records every (snapshot, change set) an `observeChanges` observer gets and checks that each
/// change set turns the previous snapshot into the new one.
final class ChangeLogRecorder<Object: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Snapshot<Object>?
    private(set) var changes: [ChangeSet] = []
    private(set) var problems: [String] = []
    private var subscription: SignalSubscription?
    /// Yields the number of change sets recorded, after each one.
    private let recorded: AsyncStream<Int>
    private let record: AsyncStream<Int>.Continuation

    init(_ source: some DataSource<Object>) {
        (recorded, record) = AsyncStream.makeStream(of: Int.self)
        subscription = source.observeChanges { [unowned self] snapshot, changes in
            lock.withLock {
                if let seen {
                    self.changes.append(changes)
                    record.yield(self.changes.count)
                    if changes.applied(to: seen, valuesFrom: snapshot) != snapshot {
                        problems.append("\(changes) does not turn \(seen) into \(snapshot)")
                    }
                    let violations = BatchUpdateValidator.stagedViolations(of: changes, from: seen, to: snapshot)
                    if !violations.isEmpty { problems.append("\(changes): \(violations)") }
                }
                seen = snapshot
            }
        }
    }

    var all: [ChangeSet] { lock.withLock { changes } }

    /// The change sets recorded, once there are at least `count` (observers of a source
    /// that loads over HTTP run on the loading thread, possibly after the test saw the
    /// load finish). One waiter at a time.
    func all(atLeast count: Int) async -> [ChangeSet] {
        if all.count < count {
            for await recordedCount in recorded where recordedCount >= count { break }
        }
        return all
    }
    var allProblems: [String] { lock.withLock { problems } }
}

@Suite("Segmented and switching sources")
struct SegmentedDataSourceTests {
    @Test func switchingPublishesOneChangeSetOfSections() {
        let letters = SimpleDataSource(name: "letters", objects: ["a", "b"])
        let words = SimpleDataSource(name: "words", objects: ["one", "two", "three"])
        let segmented = SegmentedDataSource(name: "s", children: [letters, words])
        let recorder = ChangeLogRecorder(segmented)
        #expect(segmented.snapshot.allObjects == ["a", "b"])
        segmented.selectedIndex.value = 1
        #expect(segmented.snapshot.allObjects == ["one", "two", "three"])
        #expect(recorder.all.count == 1)
        #expect(recorder.all.last?.deletedSections == [0])
        #expect(recorder.all.last?.insertedSections == [0])
        #expect(recorder.all.last?.insertedRows.isEmpty == true)
        // The selected child's edits are followed row by row; the other child's are not shown.
        words.append(["four"])
        letters.append(["c"])
        #expect(recorder.all.count == 2)
        #expect(recorder.all.last?.insertedRows == [RowPath(item: 3, section: 0)])
        #expect(recorder.all.last?.deletedSections.isEmpty == true)
        // Selected again, a child shows the content it kept.
        segmented.selectedIndex.value = 0
        #expect(segmented.snapshot.allObjects == ["a", "b", "c"])
        #expect(recorder.all.count == 3)
        #expect(recorder.allProblems.isEmpty)
    }

    @Test func aChildIsFetchedWhenFirstSelectedAndKeepsItsState() {
        let first = SimpleDataSource(name: "1", objects: [1])
        let second = SimpleDataSource(name: "2", objects: [2])
        let segmented = SegmentedDataSource(children: [first, second])
        // Selecting before the segmented source was fetched fetches nothing.
        segmented.selectedIndex.value = 1
        #expect(second.loadState.value.status == .idle)
        segmented.selectedIndex.value = 0
        segmented.fetchData()
        #expect(first.loadState.value.status == .finished)
        #expect(second.loadState.value.status == .idle)
        #expect(segmented.loadState.value == first.loadState.value)
        segmented.selectedIndex.value = 1
        #expect(second.loadState.value.status == .finished)
        #expect(segmented.loadState.value == second.loadState.value)
    }

    @Test func theLoadStateIsTheSelectedChildsAfterEverySwitch() {
        let fetched = SimpleDataSource(name: "fetched", objects: [1])
        let untouched = SimpleDataSource(name: "untouched", objects: [2])
        let segmented = SegmentedDataSource(children: [fetched, untouched])
        fetched.fetchData()
        #expect(segmented.loadState.value.status == .finished)
        // Not fetched through the segmented source, so selecting it does not fetch it.
        segmented.selectedIndex.value = 1
        #expect(untouched.loadState.value.status == .idle)
        #expect(segmented.loadState.value.status == .idle)
        #expect(segmented.loadState.value == untouched.loadState.value)
        segmented.selectedIndex.value = 0
        #expect(segmented.loadState.value.status == .finished)
        #expect(segmented.loadState.value == fetched.loadState.value)
    }

    @Test func loadEventsAreTheSelectedChilds() {
        let first = SimpleDataSource(name: "1", objects: [1])
        let second = SimpleDataSource(name: "2", objects: [2])
        let segmented = SegmentedDataSource(children: [first, second])
        let events = Mutex<[String]>([])
        let subscription = segmented.loadEvents.observe { event in events.withLock { $0.append("\(event)") } }
        first.fetchData()
        let fromFirst = events.withLock { $0.count }
        #expect(fromFirst > 0)
        segmented.selectedIndex.value = 1
        first.fetchData()
        #expect(events.withLock { $0.count } == fromFirst)
        second.fetchData()
        #expect(events.withLock { $0.count } == 2 * fromFirst)
        subscription.cancel()
    }

    @Test func anIndexOutOfRangeSelectsTheNearestChild() {
        let segmented = SegmentedDataSource(children: [SimpleDataSource(objects: [1]), SimpleDataSource(objects: [2])])
        segmented.selectedIndex.value = 7
        #expect(segmented.snapshot.allObjects == [2])
        segmented.selectedIndex.value = -1
        #expect(segmented.snapshot.allObjects == [1])
        #expect(SegmentedDataSource<Int>(children: []).snapshot.allObjects.isEmpty)
    }

    @Test func flatMapLatestFollowsTheCurrentSource() {
        let inboxes = ["ann": SimpleDataSource(name: "ann", objects: ["hi ann"]), "bob": SimpleDataSource(name: "bob", objects: ["hi bob", "yo"])]
        let account = MutableProperty("ann")
        let inbox = account.flatMapLatest { inboxes[$0]! }
        let recorder = ChangeLogRecorder(inbox)
        #expect(inbox.snapshot.allObjects == ["hi ann"])
        account.value = "bob"
        #expect(inbox.snapshot.allObjects == ["hi bob", "yo"])
        #expect(recorder.all.count == 1)
        // Several coalesced edits of the current source: one composed change set, no diff.
        batch {
            inboxes["bob"]!.append(["new"])
            _ = try? inboxes["bob"]!.remove(at: 0)
        }
        #expect(inbox.snapshot.allObjects == ["yo", "new"])
        #expect(recorder.all.count == 2)
        #expect(recorder.all.last?.deletedSections.isEmpty == true)
        #expect(recorder.allProblems.isEmpty)
    }
}
