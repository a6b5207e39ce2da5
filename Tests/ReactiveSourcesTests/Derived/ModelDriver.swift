import Foundation
import ReactiveSourcesTesting
import Signals
import Testing
@testable import ReactiveSources

/// The object of the seeded model tests of derived sources and chains.
struct ModelItem: Hashable, Sendable, Identifiable {
    var id: Int
    var value: Int
}

/// A derived source under test, its from-scratch model, and what its `observeChanges`
/// observer saw: every change set must turn the snapshot seen before into the new one and
/// pass the batch-update validator. The observer may run on any writer's thread.
final class CheckedSource: @unchecked Sendable {
    let name: String
    let snapshot: @Sendable () -> Snapshot<ModelItem>
    /// The expected objects, flattened, from the parent's sections of objects.
    let model: @Sendable ([[ModelItem]]) -> [ModelItem]
    /// For sources that make their own sections: the expected titles and objects of the
    /// sections that show objects, in order.
    let sectionsModel: (@Sendable ([[ModelItem]]) -> [(title: String, objects: [ModelItem])])?
    private let lock = NSLock()
    private var seenSnapshot = Snapshot<ModelItem>()
    private var problemList: [String] = []
    private var waiter: (expected: Snapshot<ModelItem>, continuation: CheckedContinuation<Void, Never>)?
    private var subscription: SignalSubscription?

    init<Source: DataSource>(
        _ name: String, _ source: Source, model: @escaping @Sendable ([[ModelItem]]) -> [ModelItem],
        sections sectionsModel: (@Sendable ([[ModelItem]]) -> [(title: String, objects: [ModelItem])])? = nil
    ) where Source.Object == ModelItem {
        self.name = name
        self.snapshot = { source.snapshot }
        self.model = model
        self.sectionsModel = sectionsModel
        subscription = source.observeChanges { [unowned self] snapshot, changes in
            self.lock.lock()
            let seen = self.seenSnapshot
            if changes.applied(to: seen, valuesFrom: snapshot) != snapshot {
                self.problemList.append("\(name): change set \(changes) does not turn \(seen.allObjects.map(\.id)) into \(snapshot.allObjects.map(\.id))")
            }
            let violations = BatchUpdateValidator.stagedViolations(of: changes, from: seen, to: snapshot)
            if !violations.isEmpty { self.problemList.append("\(name): \(violations)") }
            self.seenSnapshot = snapshot
            var resumed: CheckedContinuation<Void, Never>?
            if let waiter = self.waiter, snapshot == waiter.expected {
                resumed = waiter.continuation
                self.waiter = nil
            }
            self.lock.unlock()
            resumed?.resume()
        }
    }

    var seen: Snapshot<ModelItem> { lock.withLock { seenSnapshot } }
    var problems: [String] { lock.withLock { problemList } }

    /// Returns once the observer has been given the source's current snapshot (deliveries
    /// run on the thread that wrote, which may still be delivering when a test reads).
    func waitUntilObserverIsCurrent() async {
        let expected = snapshot()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if seenSnapshot == expected {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = (expected, continuation)
                lock.unlock()
            }
        }
    }

    /// The first difference from the model, or nil.
    func problem(sections: [[ModelItem]]) -> String? {
        let derived = snapshot()
        let expected = model(sections)
        if derived.allObjects != expected { return "\(name) shows \(derived.allObjects.map(\.id)), expected \(expected.map(\.id))" }
        if let sectionsModel {
            let shown = derived.sections.filter { !$0.objects.isEmpty }.map { "\($0.title ?? "nil"): \($0.objects.map(\.id))" }
            let wanted = sectionsModel(sections).filter { !$0.objects.isEmpty }.map { "\($0.title): \($0.objects.map(\.id))" }
            if shown != wanted { return "\(name) shows sections \(shown), expected \(wanted)" }
        }
        if seen != derived { return "\(name)'s observer saw another snapshot" }
        return problems.first
    }
}

/// The parents shared by the seeded model tests, and the random operations on them.
///
/// - `simple` and `second`: Simple sources (append, insert, remove, move, edit of an
///   identified object, replace all, batches, and writes to both from two threads at once);
/// - `remote`: a Remote source whose fetches finish with new or edited objects, fail, or are
///   cancelled;
/// - `multi`: a Multi of the three, so chains over a Multi see all of the above;
/// - `threshold`: the property that filter links' predicates read.
final class ModelParents: @unchecked Sendable {
    let simple: SimpleDataSource<ModelItem>
    let second: SimpleDataSource<ModelItem>
    let remote: RemoteDataSource<ModelItem>
    let multi: MultiDataSource<ModelItem>
    let threshold = MutableProperty(12)
    /// What the remote source is expected to show.
    private(set) var remoteObjects: [ModelItem] = []
    private var nextID = 0
    private let plan = Locked<FetchPlan>(.init())
    private let finishers: AsyncStream<LoadEvent>
    private var finisherIterator: AsyncStream<LoadEvent>.Iterator
    private var eventSubscription: SignalSubscription?

    /// What the remote's next fetch does.
    struct FetchPlan: Sendable {
        var batches: [[ModelItem]] = []
        var fails = false
        /// Waits until cancelled.
        var waits = false
    }

    init(_ random: inout SplitMix64) {
        simple = SimpleDataSource(name: "simple", objects: [])
        second = SimpleDataSource(name: "second", objects: [])
        let plan = plan
        remote = RemoteDataSource(name: "remote", fetcher: ClosureFetcher<ModelItem> { sink in
            let current = plan.withLock { $0 }
            if current.waits {
                // A stream nobody finishes: its iteration ends when the fetch is cancelled.
                let (never, continuation) = AsyncStream<Int>.makeStream()
                for await _ in never {}
                withExtendedLifetime(continuation) {}
                throw CancellationError()
            }
            for batch in current.batches { await sink.deliver(batch) }
            if current.fails { throw TestFailure("planned failure") }
        }, retry: .none)
        multi = MultiDataSource(children: [simple, second, remote])
        let (stream, continuation) = AsyncStream<LoadEvent>.makeStream()
        finishers = stream
        finisherIterator = stream.makeAsyncIterator()
        eventSubscription = remote.loadEvents.observe { event in
            if event.isFinisher { continuation.yield(event) }
        }
        simple.replaceObjects(with: items(Int.random(in: 0..<12, using: &random), &random))
        second.replaceObjects(with: items(Int.random(in: 0..<6, using: &random), &random))
    }

    deinit { eventSubscription?.cancel() }

    /// The multi's sections of objects, as the model sees them.
    var multiSections: [[ModelItem]] { [simple.objects, second.objects, remoteObjects] }

    func item(_ random: inout SplitMix64) -> ModelItem {
        nextID += 1
        return ModelItem(id: nextID, value: Int.random(in: 0..<20, using: &random))
    }

    func items(_ count: Int, _ random: inout SplitMix64) -> [ModelItem] {
        (0..<count).map { _ in item(&random) }
    }

    /// One random operation; returns what it did. Waits for a remote fetch to end.
    func step(_ random: inout SplitMix64, touchesOthers: Bool) async -> String {
        let roll = Int.random(in: 0..<100, using: &random)
        if touchesOthers {
            switch roll {
            case 0..<8: return await fetchRemote(&random)
            case 8..<14: return await editBothFromTwoThreads(&random)
            case 14..<20: return editSecond(&random)
            default: break
            }
        }
        return edit(simple, roll: Int.random(in: 0..<100, using: &random), &random)
    }

    /// One random edit of `source` (`roll` in 0..<100 picks it).
    func edit(_ source: SimpleDataSource<ModelItem>, roll: Int, _ random: inout SplitMix64) -> String {
        let count = source.objects.count
        switch roll {
        case 0..<20:
            let new = items(Int.random(in: 1...4, using: &random), &random)
            source.append(new)
            return "append \(new.map(\.id)) to \(source.name)"
        case 20..<35:
            let at = Int.random(in: 0...count, using: &random)
            let new = items(Int.random(in: 1...3, using: &random), &random)
            try? source.insert(new, at: at)
            return "insert \(new.map(\.id)) at \(at) of \(source.name)"
        case 35..<50 where count > 0:
            let at = Int.random(in: 0..<count, using: &random)
            _ = try? source.remove(at: at)
            return "remove at \(at) of \(source.name)"
        case 50..<60 where count > 1:
            let from = Int.random(in: 0..<count, using: &random)
            let to = Int.random(in: 0..<count, using: &random)
            try? source.move(from: from, to: to)
            return "move \(from) to \(to) in \(source.name)"
        case 60..<80 where count > 0:
            let at = Int.random(in: 0..<count, using: &random)
            var edited = source.objects[at]
            edited.value = Int.random(in: 0..<20, using: &random)
            try? source.replace(at: at, with: edited)
            return "edit \(edited.id) to \(edited.value) in \(source.name)"
        case 80..<87:
            var objects = source.objects.shuffled(using: &random).filter { _ in random.chance(80) }
            objects.append(item(&random))
            source.replaceObjects(with: objects)
            return "replace all of \(source.name)"
        case 87..<94:
            let appended = item(&random)
            let value = Int.random(in: 0..<20, using: &random)
            let other = random.chance(50) ? item(&random) : nil
            batch {
                source.append([appended])
                if source.objects.count > 1 { _ = try? source.remove(at: 0) }
                try? source.replace(at: 0, with: ModelItem(id: source.objects[0].id, value: value))
                if let other { second.append([other]) }
            }
            return "batch on \(source.name)\(other == nil ? "" : " and second")"
        default:
            let limit = Int.random(in: 0..<20, using: &random)
            threshold.value = limit
            return "threshold \(limit)"
        }
    }

    private func editSecond(_ random: inout SplitMix64) -> String {
        edit(second, roll: Int.random(in: 0..<87, using: &random), &random)
    }

    /// Three edits each of `simple` and `second`, written from two threads at once. Each
    /// source is written by one thread only, so the result does not depend on the
    /// interleaving; the observers may be called on either thread, with composed updates.
    private func editBothFromTwoThreads(_ random: inout SplitMix64) async -> String {
        var plans: [[(roll: Int, seed: UInt64)]] = [[], []]
        for thread in 0..<2 {
            for _ in 0..<3 { plans[thread].append((Int.random(in: 0..<87, using: &random), random.next())) }
        }
        // Fresh ids per thread, chosen before the threads start.
        let base = nextID
        nextID += 1_000
        let sources = [simple, second]
        let done = DispatchGroup()
        for thread in 0..<2 {
            let plan = plans[thread]
            done.enter()
            Thread.detachNewThread {
                let writer = ModelParents.Writer(firstID: base + thread * 500)
                for (roll, seed) in plan {
                    var local = SplitMix64(seed: seed)
                    writer.edit(sources[thread], roll: roll, &local)
                }
                done.leave()
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            done.notify(queue: .global()) { continuation.resume() }
        }
        return "three edits each of simple and second from two threads"
    }

    /// Edits for a writer thread: the same operations as ``edit(_:roll:_:)`` but with its
    /// own ids and no shared state.
    final class Writer {
        var nextID: Int
        init(firstID: Int) { nextID = firstID }

        func edit(_ source: SimpleDataSource<ModelItem>, roll: Int, _ random: inout SplitMix64) {
            func item() -> ModelItem {
                nextID += 1
                return ModelItem(id: nextID, value: Int.random(in: 0..<20, using: &random))
            }
            let count = source.objects.count
            switch roll {
            case 0..<20: source.append([item(), item()])
            case 20..<35: try? source.insert([item()], at: Int.random(in: 0...count, using: &random))
            case 35..<50 where count > 0: _ = try? source.remove(at: Int.random(in: 0..<count, using: &random))
            case 50..<60 where count > 1: try? source.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
            case 60..<80 where count > 0:
                let at = Int.random(in: 0..<count, using: &random)
                try? source.replace(at: at, with: ModelItem(id: source.objects[at].id, value: Int.random(in: 0..<20, using: &random)))
            default: source.replaceObjects(with: source.objects.filter { _ in random.chance(70) } + [item()])
            }
        }
    }

    /// A remote fetch that finishes (new objects and edited ones, by id), fails, or is
    /// cancelled; waits for its finisher.
    private func fetchRemote(_ random: inout SplitMix64) async -> String {
        let outcome = Int.random(in: 0..<10, using: &random)
        var next = FetchPlan()
        var described: String
        if outcome < 6 {
            var objects = remoteObjects.filter { _ in random.chance(70) }.map { kept in
                random.chance(30) ? ModelItem(id: kept.id, value: Int.random(in: 0..<20, using: &random)) : kept
            }
            objects += items(Int.random(in: 0...4, using: &random), &random)
            objects.shuffle(using: &random)
            let cut = Int.random(in: 0...objects.count, using: &random)
            next.batches = [Array(objects[..<cut]), Array(objects[cut...])]
            described = "remote fetch of \(objects.map(\.id))"
            remoteObjects = objects
        } else if outcome < 8 {
            next.fails = true
            described = "remote fetch that fails"
        } else {
            next.waits = true
            described = "remote fetch cancelled"
        }
        plan.withLock { $0 = next }
        remote.fetchData()
        if next.waits { remote.cancelFetch() }
        _ = await finisherIterator.next()
        return described
    }
}
