import Dispatch
import Foundation
import Testing
@testable import Signals

/// A queued observation is referred to unretained (see `PropertyObservation`): each path
/// where a queue entry or a running call outlives the subscription keeps it alive, calls
/// nothing after the drop and frees everything (run under ASan in CI; removing either
/// retain the observation takes for a queue or a call makes some of these fail there).
@Suite("Queued observations: lifetimes")
struct QueuedObservationLifetimeTests {
    /// Dropped while its delivery waits behind an earlier observer of the same write.
    @Test func droppedWhileQueuedBehindAnEarlierObserver() {
        let source = MutableProperty(0)
        let later = Later()
        let first = source.observe(emitsCurrentValue: false) { _ in later.observation?.drop() }
        let watched = WatchedObservation(source)
        later.observation = watched
        source.value = 1
        #expect(watched.calls.value == 0, "dropped before its queued delivery ran")
        #expect(watched.isReleased)
        #expect(source.subscriberCount == 1)
        first.cancel()
    }

    /// Dropped in a batch after the write that queued it: the delivery waits for the batch.
    @Test func droppedInsideABatchAfterAWrite() {
        let source = MutableProperty(0)
        let observation = WatchedObservation(source)
        batch {
            source.value = 1
            observation.drop()
        }
        #expect(observation.calls.value == 0)
        #expect(observation.isReleased)
        #expect(source.subscriberCount == 0)
    }

    /// The first value, queued (a retained entry) inside a `modify` body, then dropped there.
    @Test func firstValueQueuedInsideModifyThenDropped() {
        let host = MutableProperty(0)
        let source = MutableProperty(7)
        let calls = Counter()
        host.modify { _ in
            var subscription: SignalSubscription? = source.observe { _ in calls.increment() }
            _ = subscription
            subscription = nil
        }
        #expect(calls.value == 0)
        #expect(source.subscriberCount == 0)
    }

    /// The observer writes what it observes (queued again during its own call) and then
    /// drops its own subscription.
    @Test func queuedAgainDuringItsOwnCallThenDroppedInTheCall() {
        let source = MutableProperty(0)
        let observation = WatchedObservation(source) { box, value in
            if value == 1 {
                source.value = 2
                box.subscription = nil
            }
        }
        source.value = 1
        #expect(observation.calls.value == 1)
        #expect(observation.isReleased)
        #expect(source.subscriberCount == 0)
        source.value = 3
        #expect(observation.calls.value == 1)
    }

    /// A batch that ends inside a `modify` body moves its jobs back to the lock queue; the
    /// subscription is dropped after that, still inside the body.
    @Test func batchEndingInsideModifyThenDropped() {
        let host = MutableProperty(0)
        let source = MutableProperty(0)
        let observation = WatchedObservation(source)
        host.modify { _ in
            batch { source.value = 1 }
            observation.drop()
        }
        #expect(observation.calls.value == 0)
        #expect(observation.isReleased)
        #expect(source.subscriberCount == 0)
    }

    /// Dropped on another thread while its observer runs: the calling thread keeps the
    /// observation until the call ends, then everything is released.
    @Test func droppedOnAnotherThreadDuringTheCall() async {
        let source = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let observation = WatchedObservation(source) { _, _ in
            entered.signal()
            // A hang guard only: the other thread signals once it has dropped the subscription.
            _ = proceed.wait(timeout: .now() + 60)
        }
        await writeThenDrop(source, observation, once: entered, then: proceed)
        #expect(observation.calls.value == 1)
        #expect(observation.isReleased, "released when the call ended")
        #expect(source.subscriberCount == 0)
        source.value = 2
        #expect(observation.calls.value == 1)
    }

    /// Queued on one thread behind a blocking observer; dropped from another meanwhile.
    @Test func droppedOnAnotherThreadWhileQueuedBehindABlockingObserver() async {
        let source = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let first = source.observe(emitsCurrentValue: false) { _ in
            entered.signal()
            _ = proceed.wait(timeout: .now() + 60)
        }
        let observation = WatchedObservation(source)
        await writeThenDrop(source, observation, once: entered, then: proceed)
        #expect(observation.calls.value == 0)
        #expect(observation.isReleased)
        #expect(source.subscriberCount == 1)
        first.cancel()
    }

    /// Running on one thread; another thread's delivery finds it running (leaves `rerun`);
    /// then a third drops it before the call ends.
    @Test func rerunLeftByAnotherThreadThenDropped() async {
        let source = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let dropped = DispatchSemaphore(value: 0)
        let observation = WatchedObservation(source) { _, value in
            if value == 1 {
                entered.signal()
                _ = dropped.wait(timeout: .now() + 60)
            }
        }
        await onThreads(3) { index in
            switch index {
            case 0:
                source.value = 1
            case 1:
                _ = entered.wait(timeout: .now() + 60)
                source.value = 2
                written.signal()
            default:
                _ = written.wait(timeout: .now() + 60)
                observation.drop()
                dropped.signal()
            }
        }
        #expect(observation.calls.value == 1)
        #expect(observation.isReleased)
        #expect(source.subscriberCount == 0)
    }
}

/// Writes 1 to `source` on one thread; on another, once `entered` is signalled (by an
/// observer the write calls), drops `observation` and signals `proceed`.
private func writeThenDrop(_ source: MutableProperty<Int>, _ observation: WatchedObservation, once entered: DispatchSemaphore, then proceed: DispatchSemaphore) async {
    await onThreads(2) { index in
        if index == 0 {
            source.value = 1
        } else {
            _ = entered.wait(timeout: .now() + 60)
            observation.drop()
            proceed.signal()
        }
    }
}

/// An observation made after the closure that refers to it.
private final class Later: @unchecked Sendable {
    var observation: WatchedObservation?
}

extension FeedbackLoopTests {
    /// Two observers feeding each other; the feedback-loop handler drops both subscriptions
    /// (one is then queued, the other in its call).
    @Test func feedbackLoopHandlerDropsTheSubscriptions() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let first = WatchedObservation(a) { _, value in b.value = value + 1 }
        let second = WatchedObservation(b) { _, value in a.value = value + 1 }
        let previous = SignalsDiagnostics.handler
        let reports = Counter()
        SignalsDiagnostics.handler = { _ in
            reports.increment()
            first.drop()
            second.drop()
        }
        a.value = 1
        SignalsDiagnostics.handler = previous
        #expect(reports.value >= 1)
        #expect(first.isReleased && second.isReleased)
        #expect(a.subscriberCount == 0)
        #expect(b.subscriberCount == 0)
    }
}
