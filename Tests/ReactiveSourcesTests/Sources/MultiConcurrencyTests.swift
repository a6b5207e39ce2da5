import Foundation
import Signals
import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// A Multi whose children change on several threads: consistency of its content state and
/// load state, valid change sets under contention, memory, and a Multi created over a child
/// that is already loading.
///
/// The tests block threads on purpose (semaphores, a gate, writer threads they wait for): they
/// do so on threads of their own (`onOwnThread`), never on the cooperative pool's, which runs
/// every other suite's tasks.
@Suite("Multi under concurrency", .serialized)
struct MultiConcurrencyTests {
    /// A one-shot gate an observer can block on.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var armed = true
        let reached = DispatchSemaphore(value: 0)
        let open = DispatchSemaphore(value: 0)

        /// Blocks the first caller until `open` is signalled.
        func pass() {
            let first = lock.withLock { () -> Bool in
                defer { armed = false }
                return armed
            }
            guard first else { return }
            reached.signal()
            open.wait()
        }
    }

    // MARK: Content and load state while the composition lags behind

    /// Thread A has the composer's delivery for `c` queued (it is in a batch); thread B
    /// fetches `c`. B delivers the child's events to the aggregator while the composition
    /// still shows no objects: the content state must be judged from the child (loaded).
    @Test func loadStateJudgesContentFromALaggingComposition() async {
        let c = SimpleDataSource<Int>(name: "c")
        let multi = MultiDataSource(children: [c])
        let eventsSawSnapshot = Recorder<(event: LoadEvent, objects: [Int])>()
        let events = multi.loadEvents.observe { event in eventsSawSnapshot.append((event, multi.snapshot.allObjects)) }
        defer { events.cancel() }
        await onOwnThread {
            let done = DispatchSemaphore(value: 0)
            batch {
                c.append([1]) // the composer's job for `c` is now queued on this thread
                Thread { c.fetchData(); done.signal() }.start()
                done.wait()
            }
        }
        #expect(multi.snapshot.allObjects == [1])
        #expect(c.loadState.value.content.phase == .loaded)
        #expect(multi.loadState.value.content.phase == .loaded, "Multi says \(multi.loadState.value.content) while showing [1]")
        // B's event observers may read the composition A has not brought up to date yet
        // (documented); the events themselves are the whole lifecycle.
        #expect(eventsSawSnapshot.values.map(\.event) == [.willLoad, .didFinishLoading])
    }

    /// The same deferral, the other way round: thread A composes the child's final state and
    /// calls the Multi's `updates` observer while thread B, which sent the child's events, has
    /// not reached the aggregator yet (another observer of the child's events, attached
    /// first, is running on B). The documented outcome: the `updates` observer may read a
    /// load state one step behind, and the load state catches up right after, with its
    /// observers called with the final state.
    @Test func aLoadStateBehindTheRowsCatchesUpAndIsObserved() async {
        let c = SimpleDataSource<Int>(name: "c")
        let gate = Gate()
        let gated = c.loadEvents.observe { _ in gate.pass() } // attached before the Multi's aggregator
        defer { gated.cancel() }
        let multi = MultiDataSource(children: [c])
        let rows = Recorder<[Int]>()
        let updates = multi.updates.observe(emitsCurrentValue: false) { rows.append($0.snapshot.allObjects) }
        defer { updates.cancel() }
        let statuses = Recorder<FetchStatus>()
        let states = multi.loadState.observe(emitsCurrentValue: false) { statuses.append($0.status) }
        defer { states.cancel() }
        let done = DispatchSemaphore(value: 0)
        await onOwnThread {
            batch {
                c.append([1])
                Thread { c.fetchData(); done.signal() }.start()
                gate.reached.wait() // B is inside `gated`, before the aggregator heard willLoad
            }
        }
        gate.open.signal()
        await onOwnThread { done.wait() }
        #expect(rows.values == [[1]], "one update, with the final rows")
        #expect(c.loadState.value.status == .finished)
        #expect(multi.loadState.value.status == .finished)
        #expect(multi.loadState.value.content.phase == .loaded)
        #expect(statuses.values.last == .finished, "load state observers saw \(statuses.values)")
    }

    // MARK: Concurrent children: every observed consecutive pair is a valid change

    /// Writes `children` from threads of their own and blocks the calling thread until they
    /// end: call it from a thread of its own too (never from the cooperative pool).
    static func hammer(_ children: [SimpleDataSource<Int>], steps: Int, writersPerChild: Int = 1) {
        let group = DispatchGroup()
        for (index, child) in children.enumerated() {
          for writer in 0..<writersPerChild {
            group.enter()
            Thread {
                var next = (index * writersPerChild + writer) * 10_000_000
                func fresh() -> Int { next += 1; return next }
                for _ in 0..<steps {
                    let count = child.objects.count
                    switch Int.random(in: 0..<6) {
                    case 0, 1: child.append([fresh(), fresh()])
                    case 2: if count > 0 { _ = try? child.remove(at: Int.random(in: 0..<count)) }
                    case 3: child.replaceObjects(with: (0..<Int.random(in: 0..<4)).map { _ in fresh() })
                    case 4: child.fetchData()
                    default: if count > 1 { try? child.move(from: 0, to: count - 1) }
                    }
                }
                group.leave()
            }.start()
          }
        }
        group.wait()
    }

    @Test(arguments: [(false, 1), (true, 1), (false, 2), (true, 2)])
    func concurrentChildrenPublishValidChanges(splices: Bool, writersPerChild: Int) async {
        let leaves = (0..<(writersPerChild == 1 ? 4 : 2)).map { SimpleDataSource<Int>(name: "c\($0)") }
        let children: [any DataSource<Int>] = splices
            ? leaves.enumerated().map { index, leaf -> any DataSource<Int> in
                index % 2 == 0 ? SectionedDataSource(child: leaf, key: { $0 % 3 }) as any DataSource<Int> : leaf
            }
            : leaves
        let multi = MultiDataSource(children: children, splicesChildSections: splices)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = multi.updates.observe { seen.append($0) }
        await onOwnThread { Self.hammer(leaves, steps: 1500, writersPerChild: writersPerChild) }
        let values = seen.values
        var checked = 0
        for (old, new) in zip(values, values.dropFirst()) {
            #expect(new.version > old.version)
            if new.version == old.version &+ 1 {
                checked += 1
                let applied = new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot)
                #expect(applied == new.snapshot, "v\(new.version): \(new.changes)")
                #expect(BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot).isEmpty)
            }
        }
        #expect(checked > 100, "only \(checked) consecutive pairs observed")
        #expect(values.last?.version == multi.updates.value.version)
        // Nothing lost: the Multi equals a fresh composition of the children.
        let fresh = MultiDataSource(children: children, splicesChildSections: splices)
        #expect(multi.snapshot == fresh.snapshot)
        subscription.cancel()
    }

    // MARK: Nested Multis, Multis created in observers and batches, many threads

    @Test func nestedAndReentrantConstructionDoesNotDeadlock() async {
        let finished = DispatchSemaphore(value: 0)
        let leaves = (0..<3).map { SimpleDataSource<Int>(name: "l\($0)") }
        Thread {
            let inner = MultiDataSource(children: [leaves[0], leaves[1].map { $0 }], splicesChildSections: true)
            let outer = MultiDataSource(children: [inner, SectionedDataSource(child: leaves[2], key: { $0 % 2 }), leaves[0]])
            let made = Recorder<MultiDataSource<Int>>()
            // Every outer update builds a new Multi over the same children, inside the observer.
            let subscription = outer.updates.observe { _ in
                if made.count < 40 {
                    made.append(batch { MultiDataSource(children: [inner, leaves[1]]) })
                }
            }
            Self.hammer(leaves, steps: 300)
            subscription.cancel()
            #expect(outer.snapshot == MultiDataSource(children: outer.children).snapshot)
            finished.signal()
        }.start()
        // A hang guard only (a deadlock fails the test instead of hanging the run), awaited
        // without holding a pool thread.
        let ended = await onOwnThread { finished.wait(timeout: .now() + 300) == .success }
        #expect(ended, "deadlock: the construction did not end within 300 s")
    }

    // MARK: Memory

    @Test func nestedMultiCreatedInABatchIsFreed() {
        weak var weakOuter: MultiDataSource<Int>?
        weak var weakInner: MultiDataSource<Int>?
        weak var weakLeaf: SimpleDataSource<Int>?
        do {
            let leaf = SimpleDataSource(name: "a", objects: [1])
            weakLeaf = leaf
            let inner = MultiDataSource(children: [leaf.map { $0 }, SectionedDataSource(child: leaf, key: { $0 % 2 })])
            weakInner = inner
            let outer = batch { MultiDataSource(children: [inner, leaf], splicesChildSections: true) }
            weakOuter = outer
            let subscription = outer.updates.observe { _ in }
            leaf.append([2])
            outer.fetchData()
            _ = outer.snapshot
            subscription.cancel()
        }
        #expect(weakOuter == nil)
        #expect(weakInner == nil)
        #expect(weakLeaf == nil)
    }

    // MARK: A Multi starts from its children's states

    @Test func aMultiOverALoadingChildLoadsAndFinishesWithIt() async {
        let fetcher = ScriptedFetcher<Int>()
        let remote = RemoteDataSource(name: "r", fetcher: fetcher, placeholders: [])
        remote.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        let multi = MultiDataSource(children: [remote])
        #expect(multi.row(at: RowPath(item: 0, section: 0)) == .placeholder(.loading))
        #expect(multi.loadState.value.status == .loading)
        let events = Recorder<LoadEvent>()
        let subscription = multi.loadEvents.observe { events.append($0) }
        defer { subscription.cancel() }
        fetcher.calls[0].deliver([7])
        fetcher.calls[0].finish()
        await eventually("finished", until: remote) { remote.loadState.value.status == .finished }
        await eventually("composed", until: multi) { multi.snapshot.allObjects == [7] }
        // The child's load state is readable once published; the Multi hears of its finisher
        // through an observer that runs after, on the publishing thread.
        await eventually("the Multi finished", until: multi, events) { multi.loadState.value.status == .finished && events.values.last == .didFinishLoading }
        #expect(multi.loadState.value.status == .finished, "Multi: \(multi.loadState.value.status), \(multi.loadState.value.content)")
        #expect(events.values.last == .didFinishLoading)
    }
}
