import Foundation
import Testing
@testable import Signals

/// An observation made inside a batch or an observer delivers its first value before
/// `observe` returns (``Graph/deliversFirstValueAtOnce``), outside the drain. A delivery
/// that ends without calling the observer (a rerun, asked for by another thread's write
/// during the first call, that finds the value unchanged) returns with its lock kept for a
/// drain (see ``Graph/lockForDelivery(_:)``): no drain releases it there, so `observe` must.
@Suite("First value delivered at once keeps no lock")
struct FirstValueKeptLockTests {
    /// Inside a batch: after `observe` returns, no lock is held (another thread can write
    /// the observed graph).
    @Test func observeInsideABatchReturnsWithNoLockHeld() async {
        let source = MutableProperty(0)
        let unchanged = source.map { _ in 0 }
        let outcome = Outcome()
        await onOwnThread {
            batch {
                let first = Flag()
                let subscription = unchanged.observe { _ in
                    // During the first call: another thread's write marks the observed node
                    // (without changing it) and, finding the call running, asks for a rerun.
                    guard first.take() else { return }
                    outcome.firstWrite = writeOnAnotherThread(source, 1)
                }
                outcome.depthAfterObserve = Graph.current.takeUnretainedValue().depth
                outcome.secondWrite = writeOnAnotherThread(source, 2)
                subscription.cancel()
            }
        }
        #expect(outcome.firstWrite)
        #expect(outcome.depthAfterObserve == 0, "observe returned holding the graph's lock")
        #expect(outcome.secondWrite, "another thread's write waited for a lock held by the batch body")
    }

    /// Inside an observer: the rest of the observer runs with no lock held, and reading a
    /// property of an independent graph there does not join the two graphs.
    @Test func observeInsideAnObserverLeavesNoLockForTheRestOfTheCall() async {
        let trigger = MutableProperty(0)
        let source = MutableProperty(0)
        let unchanged = source.map { _ in 0 }
        let independent = MutableProperty(0)
        let outcome = Outcome()
        let inner = SubscriptionBox()
        let outer = trigger.observe(emitsCurrentValue: false) { _ in
            let first = Flag()
            inner.subscription = unchanged.observe { _ in
                guard first.take() else { return }
                outcome.firstWrite = writeOnAnotherThread(source, 1)
            }
            outcome.depthAfterObserve = Graph.current.takeUnretainedValue().depth
            // Reads only the independent graph.
            _ = independent.value
        }
        defer {
            outer.cancel()
            inner.subscription = nil
        }
        await onOwnThread { trigger.value = 1 }
        #expect(outcome.firstWrite)
        #expect(outcome.depthAfterObserve == 0, "observe returned holding the graph's lock")
        #expect(
            source.node.component.root.toOpaque() != independent.node.component.root.toOpaque(),
            "an observer that read one graph joined it to the one a nested observe left locked")
    }
}

private final class Outcome: @unchecked Sendable {
    var firstWrite = false
    var secondWrite = false
    var depthAfterObserve = -1
}

/// True the first time only.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false

    func take() -> Bool {
        lock.withLock {
            defer { taken = true }
            return !taken
        }
    }
}
