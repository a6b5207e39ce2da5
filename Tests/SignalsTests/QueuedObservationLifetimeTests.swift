import Dispatch
import Foundation
import Testing
@testable import Signals

/// A queued observation is referred to unretained (see `PropertyObservation`): each path
/// where a queue entry or a running call outlives the subscription keeps it alive, calls
/// nothing after the drop and frees everything (run under ASan in CI).
@Suite("Queued observations: lifetimes")
struct QueuedObservationLifetimeTests {
    final class Weak<Object: AnyObject>: @unchecked Sendable { weak var object: Object? }

    /// First value queued (retained entry) inside a `modify` body, then dropped in the body:
    /// the entry's retain and the detach's queueReference are both released.
    @Test func firstValueQueuedInsideModifyThenDropped() {
        let host = MutableProperty(0)
        let source = MutableProperty(7)
        let calls = Counter()
        let token = Weak<Token>()
        host.modify { _ in
            let strong = Token()
            token.object = strong
            var subscription: SignalSubscription? = source.observe { _ in _ = strong; calls.increment() }
            _ = subscription
            subscription = nil
        }
        #expect(calls.value == 0)
        #expect(token.object == nil)
        #expect(source.subscriberCount == 0)
    }

    /// The observer writes what it observes (re-queued, unretained, during its own call) and
    /// then drops its own subscription: releases + queueReference, both released once.
    @Test func requeuedDuringItsOwnCallThenDroppedInTheCall() {
        let source = MutableProperty(0)
        let box = SubscriptionBox()
        let calls = Counter()
        let token = Weak<Token>()
        do {
            let strong = Token()
            token.object = strong
            box.subscription = source.observe(emitsCurrentValue: false) { value in
                _ = strong
                calls.increment()
                if value == 1 {
                    source.value = 2
                    box.subscription = nil
                }
            }
        }
        source.value = 1
        #expect(calls.value == 1)
        #expect(token.object == nil)
        #expect(source.subscriberCount == 0)
        source.value = 3
        #expect(calls.value == 1)
    }

    /// A batch that ends inside a `modify` body moves its jobs back to the lock queue; the
    /// subscription is dropped after that, still inside the body.
    @Test func batchEndingInsideModifyThenDropped() {
        let host = MutableProperty(0)
        let source = MutableProperty(0)
        let box = SubscriptionBox()
        let calls = Counter()
        let token = Weak<Token>()
        do {
            let strong = Token()
            token.object = strong
            box.subscription = source.observe(emitsCurrentValue: false) { _ in _ = strong; calls.increment() }
        }
        host.modify { _ in
            batch { source.value = 1 }
            box.subscription = nil
        }
        #expect(calls.value == 0)
        #expect(token.object == nil)
        #expect(source.subscriberCount == 0)
    }

    /// Queued on thread B behind a blocking observer; dropped from another thread meanwhile.
    @Test func droppedOnAnotherThreadWhileQueuedBehindABlockingObserver() async {
        let source = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let box = SubscriptionBox()
        let calls = Counter()
        let token = Weak<Token>()
        let first = source.observe(emitsCurrentValue: false) { _ in
            entered.signal()
            _ = proceed.wait(timeout: .now() + 60)
        }
        do {
            let strong = Token()
            token.object = strong
            box.subscription = source.observe(emitsCurrentValue: false) { _ in _ = strong; calls.increment() }
        }
        await onThreads(2) { index in
            if index == 0 {
                source.value = 1
            } else {
                _ = entered.wait(timeout: .now() + 60)
                box.subscription = nil
                proceed.signal()
            }
        }
        #expect(calls.value == 0)
        #expect(token.object == nil)
        #expect(source.subscriberCount == 1)
        first.cancel()
    }

    /// Running on thread A; thread B's delivery finds it running (leaves `rerun`); then it
    /// is dropped from a third thread before A's call ends.
    @Test func rerunLeftByAnotherThreadThenDropped() async {
        let source = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let dropped = DispatchSemaphore(value: 0)
        let box = SubscriptionBox()
        let calls = Counter()
        let token = Weak<Token>()
        do {
            let strong = Token()
            token.object = strong
            box.subscription = source.observe(emitsCurrentValue: false) { value in
                _ = strong
                calls.increment()
                if value == 1 {
                    entered.signal()
                    _ = dropped.wait(timeout: .now() + 60)
                }
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
                box.subscription = nil
                dropped.signal()
            }
        }
        #expect(calls.value == 1)
        #expect(token.object == nil)
        #expect(source.subscriberCount == 0)
    }
}

extension FeedbackLoopTests {
    /// Two observers feeding each other; the feedback-loop handler drops both subscriptions
    /// (one is then queued, the other in its call).
    @Test func feedbackLoopHandlerDropsTheSubscriptions() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let boxA = SubscriptionBox()
        let boxB = SubscriptionBox()
        let token = QueuedObservationLifetimeTests.Weak<Token>()
        let previous = SignalsDiagnostics.handler
        let reports = Counter()
        do {
            let strong = Token()
            token.object = strong
            boxA.subscription = a.observe(emitsCurrentValue: false) { b.value = $0 + 1; _ = strong }
            boxB.subscription = b.observe(emitsCurrentValue: false) { a.value = $0 + 1; _ = strong }
        }
        SignalsDiagnostics.handler = { _ in
            reports.increment()
            boxA.subscription = nil
            boxB.subscription = nil
        }
        a.value = 1
        SignalsDiagnostics.handler = previous
        #expect(reports.value >= 1)
        #expect(token.object == nil)
        #expect(a.subscriberCount == 0)
        #expect(b.subscriberCount == 0)
    }
}
