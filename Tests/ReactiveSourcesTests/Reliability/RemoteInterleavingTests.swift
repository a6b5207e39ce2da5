import ReactiveSourcesTesting
import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// Seeded random interleavings of fetch, cancel and refetch on a ``RemoteDataSource`` whose
/// fetcher calls are driven by the test: batches, finishes and failures released in a seeded
/// random order, to current and to superseded calls (half of the calls ignore cancellation
/// and keep delivering). A model predicts the events and content after every step; objects
/// of superseded calls must never appear, and every fetch gets exactly one finisher.
///
/// Replay: `RELIABILITY_SEED=<master seed>` or `REMOTE_INTERLEAVING_ONLY=<sequence seed>`.
@Suite("Reliability: seeded Remote interleavings")
struct RemoteInterleavingTests {
    @Test func randomSequencesOfFetchCancelAndBatchesMatchTheModel() async {
        let master = reliabilitySeed(default: 0x5EED_0007)
        let only = ProcessInfo.processInfo.environment["REMOTE_INTERLEAVING_ONLY"].flatMap { UInt64($0) }
        let count = only == nil ? environmentInt("REMOTE_INTERLEAVING_SEQUENCES", default: 3_000) : 1
        let seeds = only.map { [$0] } ?? (0..<count).map { SplitMix64.mix(master, UInt64($0)) }
        let reports = Recorder<RemoteRunReport>()
        let lingering = Recorder<String>()
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                let seed = seeds[next]
                next += 1
                group.addTask {
                    guard reports.values.filter({ !$0.failures.isEmpty }).count < 5 else { return }
                    let report = await RemoteRun(seed: seed).run()
                    reports.append(report)
                    // A failed run is reported already (its calls may never end). Otherwise
                    // the source and its subscriptions must be gone once the run is dropped:
                    // the release of the token the fetcher holds says when to look.
                    guard report.failures.isEmpty else { return }
                    for name in await stillAlive(report.weakRefs, after: report.releases) { lingering.append("\(name) (sequence seed \(seed))") }
                }
            }
            for _ in 0..<min(4, seeds.count) { add() }
            while await group.next() != nil {
                if next < seeds.count { add() }
            }
        }
        let all = reports.values
        for report in all.filter({ !$0.failures.isEmpty }).prefix(5) {
            Issue.record(Comment(rawValue: """
                sequence seed \(report.seed) (master seed \(master)) failed:
                \(report.failures.prefix(3).joined(separator: "\n"))
                replay: REMOTE_INTERLEAVING_ONLY=\(report.seed) swift test --filter RemoteInterleavingTests
                """))
        }
        for report in all {
            let stale = report.appeared.values.intersection(report.staleBatches)
            #expect(stale.isEmpty, "sequence seed \(report.seed): objects of batches sent to superseded calls \(stale.sorted()) were shown")
        }
        #expect(lingering.values.isEmpty, "freed after their run (master seed \(master)): \(lingering.values.prefix(10))")
        if only == nil && count >= 1_000 {
            let k = count / 1_000
            #expect(all.reduce(0) { $0 + $1.staleCommands } >= 300 * k, "commands sent to superseded calls")
            #expect(all.reduce(0) { $0 + $1.appliedBatches } >= 1_000 * k, "batches applied")
        }
    }
}

struct RemoteRunReport: Sendable {
    var seed: UInt64
    var failures: [String]
    var appeared: LockedSet<Int>
    var staleBatches: Set<Int>
    var staleCommands: Int
    var appliedBatches: Int
    var weakRefs: [WeakBox]
    /// Says when to check `weakRefs` (see ``Releases``).
    var releases: Releases
}

/// A fetcher whose calls wait for the test's commands. Calls with an even-looking hash honour
/// cancellation (end at once); the others ignore it and run whatever they are told.
final class GatedFetcher: Fetcher, @unchecked Sendable {
    enum Command: Sendable {
        case batch([Int])
        case finish
        case fail
    }

    /// One call: a queue of commands. Waiting for the next one ignores task cancellation (an
    /// AsyncStream would end at once), so a call that does not honour cancellation really
    /// keeps delivering after its fetch was superseded.
    final class Call: @unchecked Sendable {
        let id: Int
        let honoursCancellation: Bool
        private let lock = NSLock()
        private var queue: [Command?] = []
        private var waiting: CheckedContinuation<Command?, Never>?
        private var ended = false

        init(id: Int, honoursCancellation: Bool) {
            self.id = id
            self.honoursCancellation = honoursCancellation
        }

        var hasEnded: Bool { lock.withLock { ended } }
        func markEnded() { lock.withLock { ended = true } }

        /// Queues `command` (`nil`: the call was cancelled and stops).
        func send(_ command: Command?) {
            let waiter: CheckedContinuation<Command?, Never>? = lock.withLock {
                if let waiter = waiting {
                    waiting = nil
                    return waiter
                }
                queue.append(command)
                return nil
            }
            waiter?.resume(returning: command)
        }

        func next() async -> Command? {
            await withCheckedContinuation { continuation in
                let ready: Command?? = lock.withLock {
                    if !queue.isEmpty { return .some(queue.removeFirst()) }
                    waiting = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    private let lock = NSLock()
    private var storage: [Call] = []
    private let honours: @Sendable (Int) -> Bool
    private let onChange: @Sendable () -> Void

    init(honours: @escaping @Sendable (Int) -> Bool, onChange: @escaping @Sendable () -> Void) {
        self.honours = honours
        self.onChange = onChange
    }

    var calls: [Call] { lock.withLock { storage } }

    func fetch(into sink: FetchSink<Int>) async throws {
        let call: Call = lock.withLock {
            let call = Call(id: storage.count, honoursCancellation: honours(storage.count))
            storage.append(call)
            return call
        }
        onChange()
        defer {
            call.markEnded()
            onChange()
        }
        try await withTaskCancellationHandler {
            while let command = await call.next() {
                switch command {
                case .batch(let batch): await sink.deliver(batch)
                case .finish: return
                case .fail: throw TestFailure("call \(call.id) failed")
                }
            }
            throw CancellationError()
        } onCancel: {
            if call.honoursCancellation { call.send(nil) }
        }
    }
}

/// One random sequence against a model of RemoteDataSource's documented behaviour.
final class RemoteRun {
    private let seed: UInt64
    private var rng: SplitMix64
    private let pulse = Pulse()
    private let releases = Releases()
    private let fetcher: GatedFetcher
    private let source: RemoteDataSource<Int>
    private let events = Recorder<LoadEvent>()
    private let appeared = LockedSet<Int>()
    private var subscriptions: [SignalSubscription] = []
    // The model.
    private var current: Int?
    private var batchesOfCurrent = 0
    private var content: [Int] = []
    /// A refresh (a fetch that started with objects shown) holds its batches until it finishes.
    private var holding = false
    private var held: [Int] = []
    private var expectedEvents: [EventKind] = []
    private var open: Set<Int> = []
    private var batchSerial = 0
    /// Serial numbers of the batches sent to calls already superseded.
    private var staleBatches: Set<Int> = []
    private var calls = 0
    private var staleCommands = 0
    private var appliedBatches = 0
    private var trace: [String] = []
    private var failures: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        let pulse = self.pulse
        // The fetcher's `onChange` holds the token: freed once the source and the fetch tasks
        // (which hold the fetcher) are gone.
        let token = releases.token("the fetcher's onChange")
        fetcher = GatedFetcher(honours: { SplitMix64.mix(seed, UInt64($0)) & 1 == 0 }, onChange: { withExtendedLifetime(token) { pulse.poke() } })
        source = RemoteDataSource(name: "remote", fetcher: fetcher, placeholders: .all)
        let events = self.events
        let appeared = self.appeared
        subscriptions.append(source.loadEvents.observe { event in
            events.append(event)
            pulse.poke()
        })
        subscriptions.append(source.updates.observe { update in
            appeared.formUnion(update.snapshot.allObjects.map { $0 / 1_000 })
            pulse.poke()
        })
    }

    func run() async -> RemoteRunReport {
        for _ in 0..<Int.random(in: 4...20, using: &rng) where failures.isEmpty {
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 22 || open.isEmpty && roll < 60 {
                await fetch()
            } else if roll < 32 {
                cancel()
            } else {
                await command()
            }
            if failures.isEmpty { await checkpoint() }
        }
        while failures.isEmpty, !open.isEmpty {
            await command(ending: true)
            if failures.isEmpty { await checkpoint() }
        }
        if failures.isEmpty {
            let all = events.values
            let fetches = all.filter { $0 == .willLoad }.count
            if fetches != calls || all.filter(\.isFinisher).count != calls {
                failures.append("\(calls) fetches gave \(fetches) willLoad and \(all.filter(\.isFinisher).count) finishers")
            }
            if let violation = lifecycleViolation(all) { failures.append(violation) }
        }
        let fetcher = self.fetcher
        if !(await pulse.wait { fetcher.calls.allSatisfy(\.hasEnded) }) {
            failures.append("calls never ended (hang guard: \(Int(pulse.timeout)) s of pool time): \(fetcher.calls.filter { !$0.hasEnded }.map(\.id)); steps: \(trace)")
        }
        let weakRefs = [WeakBox("RemoteDataSource", source)] + subscriptions.map { WeakBox("SignalSubscription", $0) }
        subscriptions.forEach { $0.cancel() }
        return RemoteRunReport(
            seed: seed, failures: failures, appeared: appeared, staleBatches: staleBatches, staleCommands: staleCommands,
            appliedBatches: appliedBatches, weakRefs: weakRefs, releases: releases
        )
    }

    private func fetch() async {
        trace.append("fetch")
        if let current { supersede(current) }
        expectedEvents.append(.willLoad)
        let id = calls
        calls += 1
        current = id
        batchesOfCurrent = 0
        holding = !content.isEmpty
        held = []
        open.insert(id)
        source.fetchData()
        let fetcher = self.fetcher
        if !(await pulse.wait { fetcher.calls.count > id }) { fail("call \(id) never started (hang guard: \(Int(pulse.timeout)) s of pool time)") }
    }

    private func cancel() {
        trace.append("cancel")
        if let current { supersede(current) }
        current = nil
        source.cancelFetch()
    }

    private func supersede(_ id: Int) {
        expectedEvents.append(.cancelled)
        if SplitMix64.mix(seed, UInt64(id)) & 1 == 0 { open.remove(id) } // it ends by itself
    }

    /// Sends a batch, finish or failure to a random open call.
    private func command(ending: Bool = false) async {
        guard !open.isEmpty else { return }
        let ids = open.sorted()
        let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
        let call = fetcher.calls[id]
        let roll = Int.random(in: 0..<100, using: &rng)
        let isCurrent = id == current
        if !isCurrent { staleCommands += 1 }
        if roll < (ending ? 30 : 60) {
            // Objects carry the serial number of the batch that brought them.
            batchSerial += 1
            var batch: [Int] = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) { batch.append(batchSerial * 1_000 + Int.random(in: 0..<1_000, using: &rng)) }
            if !isCurrent { staleBatches.insert(batchSerial) }
            trace.append("batch(#\(id), \(batch.count))")
            if isCurrent {
                if holding {
                    held += batch
                } else {
                    content = batchesOfCurrent == 0 ? batch : content + batch
                }
                batchesOfCurrent += 1
                appliedBatches += 1
                expectedEvents.append(.partial)
            }
            call.send(.batch(batch))
        } else {
            let finishes = roll < 85
            trace.append("\(finishes ? "finish" : "fail")(#\(id))")
            open.remove(id)
            if isCurrent {
                if finishes { content = holding ? held : batchesOfCurrent == 0 ? [] : content }
                expectedEvents.append(finishes ? .finished : .failed)
                current = nil
            }
            call.send(finishes ? .finish : .fail)
        }
    }

    private func checkpoint() async {
        let expected = expectedEvents
        let content = self.content
        let fetching = current != nil
        let events = self.events
        let source = self.source
        if !(await pulse.wait {
            events.count >= expected.count && Array(source.snapshot.sections[0].objects) == content
                && source.loadState.value.isFetching == fetching
        }) {
            fail("timed out waiting for the expected state (hang guard: \(Int(pulse.timeout)) s of pool time)")
        }
        let actual = events.values.map(EventKind.init)
        if actual != expected { fail("events \(actual), expected \(expected)") }
        if source.allObjects != content { fail("content \(source.allObjects), expected \(content)") }
        if source.loadState.value.isFetching != fetching { fail("isFetching \(source.loadState.value.isFetching), expected \(fetching)") }
    }

    private func fail(_ message: String) {
        failures.append("step \(trace.count): \(message)\n  steps: \(trace.joined(separator: ", "))")
    }
}
