import Foundation
import Testing
@testable import Signals

@Suite("Writes from inside observers")
struct ReentrancyTests {
    @Test func observerWritingAnotherPropertyIsQueuedAfterTheCurrentObserver() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let log = Recorder<String>()
        let s1 = a.observe(emitsCurrentValue: false) { value in
            log.append("a-observer \(value)")
            b.value = value * 10
            log.append("a-observer wrote b")
        }
        let s2 = b.observe(emitsCurrentValue: false) { log.append("b-observer \($0)") }
        defer { s1.cancel(); s2.cancel() }
        a.value = 1
        #expect(log.values == ["a-observer 1", "a-observer wrote b", "b-observer 10"])
        #expect(b.value == 10)
    }

    @Test func observerWritingItsOwnPropertyNeitherDeadlocksNorLosesTheWrite() {
        let counter = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = counter.observe { value in
            seen.append(value)
            if value < 5 { counter.value = value + 1 }
        }
        defer { subscription.cancel() }
        #expect(counter.value == 5)
        #expect(seen.values == [0, 1, 2, 3, 4, 5])
    }

    @Test func reentrantSignalSendsAreDeliveredInOrderAfterTheCurrentObserver() {
        let (signal, input) = Signal<Int>.pipe()
        let log = Recorder<String>()
        let subscription = signal.observe { value in
            log.append("start \(value)")
            if value == 1 { input.send(2) }
            log.append("end \(value)")
        }
        defer { subscription.cancel() }
        input.send(1)
        #expect(log.values == ["start 1", "end 1", "start 2", "end 2"])
    }

    @Test func readingInsideAnObserverSeesTheNewValues() {
        let a = MutableProperty(1)
        let doubled = a.map { $0 * 2 }
        let seen = Recorder<String>()
        let subscription = a.observe { value in seen.append("\(value) \(doubled.value)") }
        defer { subscription.cancel() }
        a.value = 4
        #expect(seen.values == ["1 2", "4 8"])
    }

    @Test func observingFromInsideAnObserverWorks() {
        let a = MutableProperty(0)
        let b = MutableProperty("b")
        let inner = Recorder<String>()
        let box = SubscriptionBox()
        let subscription = a.observe(emitsCurrentValue: false) { _ in
            box.subscription = b.observe { inner.append($0) }
        }
        defer { subscription.cancel(); box.subscription?.cancel() }
        a.value = 1
        #expect(inner.values == ["b"])
    }

    /// No lock is held while an observer runs: an observer that waits, synchronously, for
    /// another thread that writes a property of the same graph (its component) sees that
    /// write finish, and the value follows.
    @Test func anObserverWaitingForAnotherThreadThatWritesTheSameGraphCompletes() async {
        let source = MutableProperty(0)
        let other = MutableProperty(0)
        // One graph: the closure reads both.
        let total = Property { source.value + other.value }
        #expect(total.value == 0)
        let outcome = WaitOutcome()
        let subscription = total.observe(emitsCurrentValue: false) { value in
            guard value == 1 else { return }
            let written = DispatchSemaphore(value: 0)
            Thread {
                other.value = 10
                written.signal()
            }.start()
            // A hang guard only: the write returns as soon as it can take the lock.
            outcome.completed = written.wait(timeout: .now() + 60) == .success
        }
        defer { subscription.cancel() }
        await onThreads(1) { _ in source.value = 1 }
        #expect(outcome.completed, "the other thread's write did not wait for this observer")
        #expect(total.value == 11)
    }
}

private final class WaitOutcome: @unchecked Sendable {
    var completed = false
}
