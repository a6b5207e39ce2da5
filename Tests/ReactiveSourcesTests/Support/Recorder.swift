import Foundation
import ReactiveSourcesTesting
import Signals
import Testing
@testable import ReactiveSources

/// A thread-safe list of values observed by a test; wakes waits on each append.
final class Recorder<Value: Sendable>: Wakes, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    private let pulse = Pulse()

    func append(_ value: Value) {
        lock.withLock { storage.append(value) }
        pulse.poke()
    }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { pulse.onChange(wake) }

    var values: [Value] { lock.withLock { storage } }

    var count: Int { lock.withLock { storage.count } }
}

/// Expects each update's change set to turn the previous update's snapshot into its own, and
/// its stages to pass the batch-update validator,
/// for updates of consecutive versions: an observer may skip an update published meanwhile
/// from another thread, whose change set then belongs to the skipped snapshot.
func expectChangeSetsReplay<Object: Hashable & Sendable>(
    _ updates: [SnapshotUpdate<Object>], sourceLocation: SourceLocation = #_sourceLocation
) {
    for (old, new) in zip(updates, updates.dropFirst()) where new.version == old.version &+ 1 {
        #expect(new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot, sourceLocation: sourceLocation)
        let violations = BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot)
        #expect(violations.isEmpty, "\(violations)", sourceLocation: sourceLocation)
    }
}

/// Records every load event of a source.
final class EventLog: Wakes, @unchecked Sendable {
    let events = Recorder<LoadEvent>()
    private var subscription: SignalSubscription?

    init(_ source: some DataSource) {
        subscription = source.loadEvents.observe { [events] in events.append($0) }
    }

    var values: [LoadEvent] { events.values }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { events.onChange(wake) }

    var finishers: Int { values.filter(\.isFinisher).count }

    func waitForFinishers(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await eventually("\(count) finishers", wakers: [self], condition: { self.finishers >= count }, sourceLocation: sourceLocation)
    }
}

/// The lifecycle contract: events form (willLoad didPartiallyLoad* finisher)*, with at
/// most one trailing unfinished fetch. Returns a description of the first violation.
func lifecycleViolation(_ events: [LoadEvent], allowsOpenFetch: Bool = false) -> String? {
    var open = false
    for (index, event) in events.enumerated() {
        switch event {
        case .willLoad:
            if open { return "event \(index): willLoad while a fetch is open in \(events)" }
            open = true
        case .didPartiallyLoad:
            if !open { return "event \(index): didPartiallyLoad outside a fetch in \(events)" }
        case .didFinishLoading, .didFail:
            if !open { return "event \(index): finisher without willLoad in \(events)" }
            open = false
        }
    }
    if open && !allowsOpenFetch { return "a fetch never finished: \(events)" }
    return nil
}

/// Checks the lifecycle contract on any source: a fetch, a fetch superseded by another, and
/// a cancelled fetch each produce exactly one willLoad and one finisher, and `isFetching`
/// ends false. `settle` lets the test complete pending fetches (e.g. answer a fake fetcher);
/// it runs again after each change of the source or of `doubles` (the fetchers it answers).
func checkLifecycleContract(
    of source: some DataSource,
    settle: @escaping @Sendable () async -> Void = {},
    doubles: [any Wakes] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let log = EventLog(source)
    // Fetches may start asynchronously: keep settling until the finishers arrive.
    func settleUntil(_ count: Int) async {
        await eventually("\(count) finishers", wakers: [log, sourceChanges(source)] + doubles, condition: {
            log.finishers >= count
        }, step: settle, sourceLocation: sourceLocation)
    }
    source.fetchData()
    await settleUntil(1)

    source.fetchData()
    source.fetchData()
    await settleUntil(3)

    source.fetchData()
    source.cancelFetch()
    await log.waitForFinishers(4, sourceLocation: sourceLocation)

    // Nothing else may arrive for the cancelled fetch: a fifth fetch, run to its end, is the
    // barrier (what the cancelled fetch sent late would come before or inside it).
    source.fetchData()
    await settleUntil(5)
    await source.settled()

    let events = log.values
    #expect(lifecycleViolation(events) == nil, "\(lifecycleViolation(events) ?? "")", sourceLocation: sourceLocation)
    #expect(events.filter { $0 == .willLoad }.count == 5, "five fetchData calls give five willLoad: \(events)", sourceLocation: sourceLocation)
    #expect(events.filter(\.isFinisher).count == 5, "five finishers: \(events)", sourceLocation: sourceLocation)
    #expect(source.loadState.value.isFetching == false, sourceLocation: sourceLocation)
}
