import Foundation
import Signals
import Testing
@testable import ReactiveSources

// Tests wait for events, never for time. A wait names what its condition reads (sources,
// properties, signals, recorders, test doubles: each a ``Wakes``); it re-checks the
// condition after each change they report, and sleeps only until the next one.

/// Something a wait can be woken by: calls `wake` after every change to the state it stands
/// for (on any thread, after the change is readable), until the subscription is cancelled.
protocol Wakes: Sendable {
    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription
}

extension Property: Wakes {
    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription {
        observe(emitsCurrentValue: false) { _ in wake() }
    }
}

extension Signal: Wakes {
    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription {
        observe { _ in wake() }
    }
}

/// Several wakers as one.
struct Wakers: Wakes {
    private let parts: [any Wakes]

    init(_ parts: [any Wakes]) {
        self.parts = parts
    }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription {
        let subscriptions = parts.map { $0.onChange(wake) }
        return SignalSubscription { subscriptions.forEach { $0.cancel() } }
    }
}

/// A source's snapshot, load state and load events (a paginated source's pagination too).
func sourceChanges(_ source: some DataSource) -> Wakers {
    var parts: [any Wakes] = [source.updates, source.loadState, source.loadEvents]
    if let paginated = source as? any PaginatedPagination { parts.append(paginated.paginationWakes) }
    return Wakers(parts)
}

/// The sources' types wake a wait directly: `eventually(until: source) { ... }`.
extension Wakes where Self: DataSource {
    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription {
        sourceChanges(self).onChange(wake)
    }
}

private protocol PaginatedPagination { var paginationWakes: any Wakes { get } }
extension PaginatedDataSource: PaginatedPagination { fileprivate var paginationWakes: any Wakes { pagination } }

extension SimpleDataSource: Wakes {}
extension RemoteDataSource: Wakes {}
extension PaginatedDataSource: Wakes {}
extension MultiDataSource: Wakes {}
extension SectionedDataSource: Wakes {}
extension SegmentedDataSource: Wakes {}
extension SwitchingDataSource: Wakes {}
extension QueryDataSource: Wakes {}
extension DerivedDataSource: Wakes {}

/// A hub a test double pokes after each change of its state; waits subscribe to it.
final class Pulse: Wakes, @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0
    /// How long ``wait(until:)`` may last before its hang guard ends it.
    let timeout: TimeInterval

    init(timeout: TimeInterval = 120) {
        self.timeout = timeout
    }

    /// Wakes every wait subscribed now (call it after the change, outside any lock a
    /// condition reads under).
    func poke() {
        for observer in lock.withLock({ Array(observers.values) }) { observer() }
    }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription {
        let id: UInt64 = lock.withLock {
            nextID &+= 1
            observers[nextID] = wake
            return nextID
        }
        return SignalSubscription { [weak self] in
            guard let self else { return }
            _ = lock.withLock { observers.removeValue(forKey: id) }
        }
    }

    /// Waits until `condition` holds (true) or the hang guard gives up (false), re-checking
    /// it after each `poke()`.
    func wait(until condition: @Sendable () -> Bool) async -> Bool {
        await waitForCondition(wakers: [self], limit: timeout, step: nil, condition) == .held
    }
}

/// How a wait ended.
enum WaitEnd: Equatable {
    case held
    /// The hang guard or the task's cancellation ended it; `holdsNow`: the condition holds
    /// after all, so a change came with no wake-up (something it reads is not a waker).
    case gaveUp(holdsNow: Bool)
}

/// Counts the changes reported by a wait's wakers and resumes the waiting task on one.
private final class Wakeup: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: UInt64 = 0
    private var ended = false
    private var sleeper: CheckedContinuation<Void, Never>?
    let guardian: HangGuard

    init(_ guardian: HangGuard) {
        self.guardian = guardian
    }

    var count: UInt64 { lock.withLock { changes } }
    var hasEnded: Bool { lock.withLock { ended } }

    func wake() {
        lock.withLock {
            changes &+= 1
            return sleeper.take()
        }?.resume()
    }

    /// Ends the wait (hang guard, cancellation): every later `next(after:)` returns at once.
    func end() {
        lock.withLock {
            ended = true
            return sleeper.take()
        }?.resume()
    }

    /// Returns once a change after the `seen`-th has come, or the wait has ended: at once if
    /// it already has.
    func next(after seen: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock {
                if changes != seen || ended { return true }
                sleeper = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Ends the waits whose hang guard has expired (a timer on a queue of its own, not a sleep:
/// no wait depends on it to make progress).
private final class Watchdog: @unchecked Sendable {
    static let shared = Watchdog()
    private let lock = NSLock()
    private var waits: [ObjectIdentifier: Wakeup] = [:]
    private var timer: (any DispatchSourceTimer)?

    private init() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "eventually.watchdog"))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.expireOverdue() }
        timer.resume()
        self.timer = timer
    }

    func add(_ wait: Wakeup) { lock.withLock { waits[ObjectIdentifier(wait)] = wait } }
    func remove(_ wait: Wakeup) { _ = lock.withLock { waits.removeValue(forKey: ObjectIdentifier(wait)) } }

    private func expireOverdue() {
        for wait in lock.withLock({ waits.values.filter(\.guardian.hasExpired) }) { wait.end() }
    }
}

/// The waiting loop. It subscribes to the wakers first, then reads the change count before
/// each check of `condition`, and suspends only if no change came since that read: a change
/// during or after a check wakes the next one, and one before the subscription is seen by
/// the first check. So no wake-up is lost. `step` runs between checks (after a failed one).
func waitForCondition(
    wakers: [any Wakes], limit: TimeInterval, step: (@Sendable () async -> Void)?, _ condition: @Sendable () -> Bool
) async -> WaitEnd {
    // WAIT_LIMIT=<seconds> shortens every hang guard (to find a missing waker fast).
    let limit = ProcessInfo.processInfo.environment["WAIT_LIMIT"].flatMap(TimeInterval.init) ?? limit
    let wakeup = Wakeup(HangGuard(limit))
    let subscriptions = wakers.map { $0.onChange(wakeup.wake) }
    Watchdog.shared.add(wakeup)
    defer {
        Watchdog.shared.remove(wakeup)
        for subscription in subscriptions { subscription.cancel() }
    }
    var seen: UInt64
    while true {
        seen = wakeup.count
        if condition() { return .held }
        if wakeup.hasEnded || Task.isCancelled { break }
        await step?()
        await withTaskCancellationHandler {
            await wakeup.next(after: seen)
        } onCancel: {
            wakeup.end()
        }
        // Ended by the guard: no extra check (it would hide a missing waker), only the last.
        if wakeup.hasEnded { break }
    }
    // A change that raced the end was woken for; one without a wake-up means a missing waker.
    let changed = wakeup.count != seen
    guard condition() else { return .gaveUp(holdsNow: false) }
    return changed ? .held : .gaveUp(holdsNow: true)
}

/// Waits until `condition` holds, re-checking it after each change reported by `waker` and
/// `more` (name everything the condition reads); records an issue and returns false if it
/// still does not hold after `limit` seconds of pool time (see ``PoolClock``).
///
/// The limit is a hang guard only (a broken library fails the test instead of hanging it),
/// not a timing assertion. `step` runs after each check that fails (e.g. to answer fake
/// fetchers); what it changes must be among the wakers too.
@discardableResult
func eventually(
    _ what: String = "condition",
    until waker: any Wakes,
    _ more: any Wakes...,
    limit: TimeInterval = 120,
    _ condition: @Sendable () -> Bool,
    whileWaiting step: (@Sendable () async -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
    await eventually(what, wakers: [waker] + more, limit: limit, condition: condition, step: step, sourceLocation: sourceLocation)
}

/// ``eventually(_:until:_:limit:_:whileWaiting:sourceLocation:)`` with the wakers in an array.
@discardableResult
func eventually(
    _ what: String, wakers: [any Wakes], limit: TimeInterval = 120, condition: @Sendable () -> Bool,
    step: (@Sendable () async -> Void)? = nil, sourceLocation: SourceLocation
) async -> Bool {
    switch await waitForCondition(wakers: wakers, limit: limit, step: step, condition) {
    case .held:
        return true
    case .gaveUp(holdsNow: true):
        Issue.record("\(what) holds but nothing woke the wait: name what the condition reads in `until:`", sourceLocation: sourceLocation)
    case .gaveUp(holdsNow: false):
        Issue.record("timed out waiting for \(what) (hang guard: \(Int(limit)) s of pool time)", sourceLocation: sourceLocation)
    }
    return false
}

/// Suspends until the calling task is cancelled, then throws `CancellationError` (a request
/// that never ends by itself).
func untilCancelled() async throws {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    for await _ in stream {}  // ends when the task is cancelled
    continuation.finish()  // (kept alive until then)
    try Task.checkCancellation()
}
