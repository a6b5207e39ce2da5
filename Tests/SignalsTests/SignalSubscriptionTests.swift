import Foundation
import Testing
@testable import Signals

@Suite("Subscriptions")
struct SubscriptionTests {
    @Test func cancelStopsDelivery() {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = property.observe { seen.append($0) }
        property.value = 1
        subscription.cancel()
        property.value = 2
        #expect(seen.values == [0, 1])
        #expect(subscription.isCancelled)
    }

    @Test func cancellingTwiceAndFromManyThreadsIsSafe() async {
        let property = MutableProperty(0)
        let cancellations = Counter()
        let subscription = property.observe { _ in }
        let counted = SignalSubscription { cancellations.increment() }
        await onThreads(8) { _ in
            subscription.cancel()
            counted.cancel()
            counted.cancel()
        }
        #expect(cancellations.value == 1)
        #expect(property.subscriberCount == 0)
    }

    @Test func cancellingFromInsideTheObserverIsSafe() {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        let box = SubscriptionBox()
        box.subscription = property.observe { value in
            seen.append(value)
            if value == 1 { box.subscription?.cancel() }
        }
        property.value = 1
        property.value = 2
        #expect(seen.values == [0, 1])
    }

    @Test func signalCancelFromInsideTheObserverIsSafe() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder<Int>()
        let box = SubscriptionBox()
        box.subscription = signal.observe { value in
            seen.append(value)
            box.subscription?.cancel()
        }
        input.send(1)
        input.send(2)
        #expect(seen.values == [1])
    }

    @Test func afterCancelReturnsOnAnotherThreadTheObserverIsNeverCalledAgain() async {
        // The observer may be running on the writer thread while we cancel: once cancel()
        // and waitForLastCall() return, no call can start or be in progress.
        for _ in 0..<50 {
            let property = MutableProperty(0)
            let state = CancelRaceState()
            let subscription = property.observe(emitsCurrentValue: false) { _ in
                state.enter()
                usleep(100)  // jitter, not a wait: a long call, so the cancel may land inside it
                state.leave()
            }
            let writerDone = DispatchSemaphore(value: 0)
            Thread {
                for value in 1...200 { property.value = value }
                writerDone.signal()
            }.start()
            await onOwnThread {
                usleep(UInt32.random(in: 0...2_000))  // jitter: a random cancel point in the writes
                subscription.cancel()
            }
            await subscription.waitForLastCall()
            state.markCancelled()
            await onOwnThread {
                writerDone.wait()
            }
            #expect(state.callsAfterCancel == 0)
        }
    }

    @Test func bagCancelsEverythingWhenDeinitialised() {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        var bag: SubscriptionBag? = SubscriptionBag()
        property.observe { seen.append($0) }.store(in: bag!)
        property.map { $0 * 10 }.observe { seen.append($0) }.store(in: bag!)
        #expect(bag?.count == 2)
        property.value = 1
        bag = nil
        property.value = 2
        #expect(seen.values == [0, 0, 1, 10])
        #expect(property.subscriberCount == 0)
    }

    @Test func droppingASubscriptionCancelsIt() {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        do {
            _ = property.observe { seen.append($0) }
        }
        property.value = 1
        #expect(seen.values == [0])
    }
}

final class SubscriptionBox: @unchecked Sendable {
    var subscription: SignalSubscription?
}

/// Tracks calls that start or are still running after `cancel()` returned.
final class CancelRaceState: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    private var cancelled = false
    private var late = 0

    func enter() { lock.withLock { running += 1; if cancelled { late += 1 } } }
    func leave() { lock.withLock { running -= 1 } }
    func markCancelled() { lock.withLock { cancelled = true; if running > 0 { late += 1 } } }
    var callsAfterCancel: Int { lock.withLock { late } }
}
