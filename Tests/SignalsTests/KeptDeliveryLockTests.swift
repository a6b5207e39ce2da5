import Foundation
import Testing
@testable import Signals

/// A drain keeps the lock from one delivery that called no observer (its node was marked
/// but did not change) to the next delivery in the same component. These pin what must
/// still hold: no lock while any observer or signal observer runs, and no join of
/// independent graphs.
@Suite("Lock kept between deliveries")
struct KeptDeliveryLockTests {
    /// Observers of a node that does not change, queued around one that does: that one runs
    /// with no lock held (it waits for another thread writing the same graph).
    @Test func anObserverAfterDeliveriesThatCalledNothingRunsWithNoLockHeld() async {
        let source = MutableProperty(0)
        let other = MutableProperty(0)
        let unchanged = source.map { _ in 0 }
        let before = (0..<5).map { _ in unchanged.observe(emitsCurrentValue: false) { _ in } }
        // One graph: the closure reads both.
        let total = Property { source.value + other.value }
        let outcome = WaitOutcome()
        let waiting = total.observe(emitsCurrentValue: false) { value in
            guard value == 1 else { return }
            outcome.completed = writeOnAnotherThread(other, 10)
        }
        let after = (0..<5).map { _ in unchanged.observe(emitsCurrentValue: false) { _ in } }
        defer { for subscription in before + after + [waiting] { subscription.cancel() } }
        await onOwnThread { source.value = 1 }
        #expect(outcome.completed, "the other thread's write waited for the observer's call")
        #expect(total.value == 11)
    }

    /// A signal event delivered after deliveries that called nothing runs with no lock held.
    @Test func aSignalObserverAfterDeliveriesThatCalledNothingRunsWithNoLockHeld() async {
        let source = MutableProperty(0)
        let other = MutableProperty(0)
        let joined = Property { source.value + other.value }
        let unchanged = joined.map { _ in 0 }
        let quiet = (0..<5).map { _ in unchanged.observe(emitsCurrentValue: false) { _ in } }
        let (signal, input) = Signal<Int>.pipe()
        let outcome = WaitOutcome()
        let listening = signal.observe { _ in outcome.completed = writeOnAnotherThread(other, 10) }
        defer { for subscription in quiet + [listening] { subscription.cancel() } }
        await onOwnThread {
            batch {
                source.value = 1
                input.send(1)
            }
        }
        #expect(outcome.completed, "the other thread's write waited for the signal observer's call")
        #expect(joined.value == 11)
    }

    /// One drain delivering, in turn, to observers of two independent graphs whose nodes
    /// did not change keeps the graphs apart (each delivery takes its own graph's lock).
    @Test func deliveriesThatCalledNothingInTwoGraphsDoNotJoinThem() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let quietA = a.map { _ in 0 }
        let quietB = b.map { _ in 0 }
        let changedB = b.map { $0 }
        let seen = Recorder<Int>()
        var subscriptions: [SignalSubscription] = []
        for _ in 0..<3 {
            subscriptions.append(quietA.observe(emitsCurrentValue: false) { _ in })
            subscriptions.append(quietB.observe(emitsCurrentValue: false) { _ in })
        }
        subscriptions.append(changedB.observe(emitsCurrentValue: false) { seen.append($0) })
        defer { for subscription in subscriptions { subscription.cancel() } }
        for value in 1...3 {
            batch {
                a.value = value
                b.value = value
            }
        }
        #expect(seen.values == [1, 2, 3])
        #expect(root(of: a) != root(of: b), "the two graphs were joined")
    }
}

/// The root component of `property`'s graph.
private func root(of property: Property<Int>) -> UnsafeMutableRawPointer {
    property.node.component.root.toOpaque()
}

private final class WaitOutcome: @unchecked Sendable {
    var completed = false
}
