import Foundation
import Observation
import ReactiveSourcesTesting
import Signals
import Testing
@testable import ReactiveSources

@Suite("UI code: main-actor delivery and the Observation bridge")
@MainActor
struct MainActorDeliveryTests {
    /// The calls a main-actor observer received, and a way to await the next ones.
    final class Calls: @unchecked Sendable {
        var values: [(Snapshot<Int>, ChangeSet)] = []
        let stream: AsyncStream<Void>
        let input: AsyncStream<Void>.Continuation
        init() { (stream, input) = AsyncStream.makeStream() }
    }

    @Test func updatesFasterThanTheMainActorAreMergedIntoOneChangeThatAppliesToWhatItSaw() async {
        let source = SimpleDataSource(objects: [1, 2, 3])
        let calls = Calls()
        let subscription = source.observeChangesOnMainActor { snapshot, changes in
            MainActor.assertIsolated()
            calls.values.append((snapshot, changes))
            calls.input.yield()
        }
        defer { subscription.cancel() }
        var arrivals = calls.stream.makeAsyncIterator()
        await arrivals.next()
        #expect(calls.values.count == 1)
        #expect(calls.values[0].1.insertedSections == [0], "the first call inserts everything")
        // The main actor is busy in this test while these happen: one merged call follows.
        source.append([4])
        _ = try? source.remove(at: 0)
        try? source.replace(at: 0, with: 20)
        source.append([5, 6])
        await arrivals.next()
        #expect(calls.values.count == 2)
        let (snapshot, changes) = calls.values[1]
        #expect(Array(snapshot.sections[0].objects) == [20, 3, 4, 5, 6])
        #expect(changes.applied(to: calls.values[0].0, valuesFrom: snapshot) == snapshot)
        #expect(BatchUpdateValidator.stagedViolations(of: changes, from: calls.values[0].0, to: snapshot).isEmpty)
        #expect(changes.deletedRows == [RowPath(item: 0, section: 0)], "the removal is kept, not diffed away")
    }

    @Test func writesFromOtherThreadsArriveInOrderWithoutLosingAChange() async {
        let source = SimpleDataSource<Int>()
        let calls = Calls()
        let subscription = source.observeChangesOnMainActor { snapshot, changes in
            calls.values.append((snapshot, changes))
            calls.input.yield()
        }
        defer { subscription.cancel() }
        let writers = 4
        let perWriter = 200
        await Task.detached {
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                for value in 0..<perWriter { source.append([writer * 1_000 + value]) }
            }
        }.value
        for await _ in calls.stream where calls.values.last?.0.objectCount == writers * perWriter { break }
        var previous = Snapshot<Int>()
        for (snapshot, changes) in calls.values {
            #expect(changes.applied(to: previous, valuesFrom: snapshot) == snapshot)
            previous = snapshot
        }
        #expect(previous == source.snapshot)
    }

    @Test func afterCancelNoCallStarts() async {
        let source = SimpleDataSource(objects: [1])
        let calls = Calls()
        let subscription = source.observeChangesOnMainActor { snapshot, changes in
            calls.values.append((snapshot, changes))
        }
        source.append([2])
        subscription.cancel()
        // Let any delivery that was scheduled run: it must do nothing.
        await Task.yield()
        await withCheckedContinuation { continuation in Task { @MainActor in continuation.resume() } }
        #expect(calls.values.isEmpty)
    }

    @Test func theViewModelIsObservableAndFollowsTheSource() async {
        let source = SimpleDataSource(name: "n", objects: [1, 2])
        let selection = Selection(source: source, policy: .multiple)
        let model = SourceViewModel(source: source, selection: selection)
        #expect(Array(model.snapshot.sections[0].objects) == [1, 2])
        let (changed, input) = AsyncStream<Void>.makeStream()
        func track() {
            withObservationTracking {
                _ = model.snapshot
                _ = model.selected
            } onChange: {
                input.yield()
            }
        }
        track()
        source.append([3])
        var iterator = changed.makeAsyncIterator()
        await iterator.next()
        #expect(Array(model.snapshot.sections[0].objects) == [1, 2, 3])
        #expect(model.changes.insertedRows == [RowPath(item: 2, section: 0)])
        track()
        try? selection.select(at: RowPath(item: 0, section: 0))
        await iterator.next()
        #expect(model.selected == [0: [1]])
        #expect(model.contentState == source.loadState.value.content)
    }

    @Test func reloadingIsPreferredWhenMostRowsChange() {
        let old = Snapshot(sections: [SnapshotSection(id: "s", objects: Array(0..<10))])
        let few = ChangeSet(from: old, to: Snapshot(sections: [SnapshotSection(id: "s", objects: Array(0..<11))]))
        let most = ChangeSet(from: old, to: Snapshot(sections: [SnapshotSection(id: "s", objects: Array(20..<30))]))
        #expect(!few.prefersReload(of: old))
        #expect(most.prefersReload(of: old))
    }
}
