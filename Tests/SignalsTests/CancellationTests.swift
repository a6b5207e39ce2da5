import Foundation
import Testing
@testable import Signals

/// `cancel()` across threads: observers cancelling each other never deadlock, `cancel()`
/// never waits for a call in progress, and once `waitForLastCall()` returns after it the
/// closure has stopped for good.
///
/// Every scenario runs its threads with a bounded wait: a deadlock records a failure after
/// ``CancellationTests/timeout`` instead of hanging the suite (the stuck threads are left
/// behind, and the repetitions stop). The bound is generous: a loaded machine or
/// ThreadSanitizer slows every thread of these scenarios many times over.
@Suite("Cancellation across threads")
struct CancellationTests {
    static let timeout: TimeInterval = 60
    static let repetitions = 200

    /// One side of a mutual-cancellation scenario: something to observe and a way to make
    /// its observer run.
    struct Side: Sendable {
        let observe: @Sendable (@escaping @Sendable () -> Void) -> SignalSubscription
        let fire: @Sendable () -> Void
    }

    static func propertySide() -> Side {
        let property = MutableProperty(0, equals: nil)
        return Side(
            observe: { body in property.observe(emitsCurrentValue: false) { _ in body() } },
            fire: { property.value = 1 }
        )
    }

    static func signalSide() -> Side {
        let (signal, input) = Signal<Int>.pipe()
        return Side(observe: { body in signal.observe { _ in body() } }, fire: { input.send(1) })
    }

    /// Two observers, made to run at the same time on two threads, each cancel the other from
    /// inside their closure. Neither may wait for the other; afterwards neither is called again.
    static func mutualCancel(_ makeFirst: () -> Side, _ makeSecond: () -> Side) async {
        for repetition in 0..<repetitions {
            let first = makeFirst()
            let second = makeSecond()
            let both = Rendezvous()
            let calls = (Counter(), Counter())
            let boxes = (SubscriptionBox(), SubscriptionBox())
            boxes.0.subscription = first.observe {
                calls.0.increment()
                both.arrive(0)
                boxes.1.subscription?.cancel()
            }
            boxes.1.subscription = second.observe {
                calls.1.increment()
                both.arrive(1)
                boxes.0.subscription?.cancel()
            }
            let finished = await awaitThreads(timeout: timeout, [first.fire, second.fire])
            guard finished else {
                Issue.record("deadlock: two observers cancelling each other did not return within \(timeout) s (repetition \(repetition))")
                return
            }
            #expect(boxes.0.subscription?.isCancelled == true)
            #expect(boxes.1.subscription?.isCancelled == true)
            first.fire()
            second.fire()
            #expect(calls.0.value == 1 && calls.1.value == 1, "no call after both were cancelled")
        }
    }

    @Test func propertyObserversCancellingEachOtherOnTwoThreadsDoNotDeadlock() async {
        await Self.mutualCancel(Self.propertySide, Self.propertySide)
    }

    @Test func signalObserversCancellingEachOtherOnTwoThreadsDoNotDeadlock() async {
        await Self.mutualCancel(Self.signalSide, Self.signalSide)
    }

    @Test func propertyAndSignalObserversCancellingEachOtherOnTwoThreadsDoNotDeadlock() async {
        await Self.mutualCancel(Self.propertySide, Self.signalSide)
    }

    @Test func observersInBatchesCancellingEachOtherOnTwoThreadsDoNotDeadlock() async {
        // The writes are batched: each thread delivers at the end of its own batch.
        await Self.mutualCancel(
            { let side = Self.propertySide(); return Side(observe: side.observe, fire: { batch { side.fire() } }) },
            { let side = Self.signalSide(); return Side(observe: side.observe, fire: { batch { side.fire() } }) }
        )
    }

    @Test func threeObserversCancellingInACycleOnThreeThreadsDoNotDeadlock() async {
        for repetition in 0..<50 {
            let sides = [Self.propertySide(), Self.signalSide(), Self.propertySide()]
            let all = Rendezvous(parties: 3)
            let boxes = (0..<3).map { _ in SubscriptionBox() }
            for index in 0..<3 {
                boxes[index].subscription = sides[index].observe {
                    all.arrive(index)
                    boxes[(index + 1) % 3].subscription?.cancel()
                }
            }
            guard await awaitThreads(timeout: Self.timeout, sides.map(\.fire)) else {
                Issue.record("deadlock: three observers cancelling in a cycle (repetition \(repetition))")
                return
            }
            #expect(boxes.allSatisfy { $0.subscription?.isCancelled == true })
        }
    }

    @Test func cancelFromInsideAnObserverDoesNotWaitForACallInProgressOnAnotherThread() async {
        // The documented weaker guarantee: the other call may still be running when cancel()
        // returns (here it cannot finish before), but it is never called again.
        for repetition in 0..<50 {
            let (signal, input) = Signal<Int>.pipe()
            let trigger = MutableProperty(0, equals: nil)
            let cancelReturned = DispatchSemaphore(value: 0)
            let yInside = DispatchSemaphore(value: 0)
            let yCalls = Counter()
            let yFinishedAfterCancel = Counter()
            let box = SubscriptionBox()
            box.subscription = signal.observe { _ in
                yCalls.increment()
                yInside.signal()
                if cancelReturned.wait(timeout: .now() + Self.timeout) == .success { yFinishedAfterCancel.increment() }
            }
            let x = trigger.observe(emitsCurrentValue: false) { _ in
                _ = yInside.wait(timeout: .now() + Self.timeout)
                box.subscription?.cancel()
                cancelReturned.signal()
            }
            defer { x.cancel() }
            guard await awaitThreads(timeout: Self.timeout, [{ input.send(1) }, { trigger.value = 1 }]) else {
                Issue.record("cancel() inside an observer waited for a call in progress elsewhere (repetition \(repetition))")
                return
            }
            #expect(yFinishedAfterCancel.value == 1, "the call in progress ran to its end after cancel() returned")
            input.send(2)
            #expect(yCalls.value == 1)
        }
    }

    @Test func afterCancelReturnsOutsideObserversASignalObserverIsNeverCalledAgain() async {
        await Self.cancelRace { fire in
            let (signal, input) = Signal<Int>.pipe()
            return (signal.observe { _ in fire() }, { input.send(0) })
        }
    }

    @Test func afterCancelReturnsOutsideObserversAPropertyObserverIsNeverCalledAgain() async {
        await Self.cancelRace { fire in
            let property = MutableProperty(0, equals: nil)
            return (property.observe(emitsCurrentValue: false) { _ in fire() }, { property.value = 1 })
        }
    }

    @Test func afterCancelReturnsInsideABatchTheObserverIsNeverCalledAgain() async {
        await Self.cancelRace(cancelInBatch: true) { fire in
            let property = MutableProperty(0, equals: nil)
            return (property.observe(emitsCurrentValue: false) { _ in fire() }, { property.value = 1 })
        }
    }

    @Test func everyConcurrentCancelStopsTheObserver() async {
        await Self.cancelRace(cancellers: 2) { fire in
            let (signal, input) = Signal<Int>.pipe()
            return (signal.map { $0 }.observe { _ in fire() }, { input.send(0) })
        }
        await Self.cancelRace(cancellers: 2) { fire in
            let property = MutableProperty(0, equals: nil)
            return (property.observe(emitsCurrentValue: false) { _ in fire() }, { property.value = 1 })
        }
    }

    @Test(arguments: ["property", "signal", "merged signal"])
    func cancelReturnsWhileACallIsInProgressAndWaitForLastCallAwaitsItsEnd(_ kind: String) async {
        // The observer's call blocks until this thread releases it, after cancel() returned:
        // a cancel() that waited for the call would never return (the test would time out).
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let callEnded = StopFlag()
        let body: @Sendable () -> Void = {
            entered.signal()
            // Only a guard against a test that never releases: long enough that a slow run
            // (ThreadSanitizer, a full suite on 2 cores, where the test's task can wait a
            // minute to resume) is not mistaken for cancel() having waited for this call.
            _ = release.wait(timeout: .now() + 10 * Self.timeout)
            callEnded.set()
        }
        let subscription: SignalSubscription
        let fire: @Sendable () -> Void
        switch kind {
        case "property":
            let property = MutableProperty(0, equals: nil)
            subscription = property.observe(emitsCurrentValue: false) { _ in body() }
            fire = { property.value = 1 }
        case "signal":
            let (signal, input) = Signal<Int>.pipe()
            subscription = signal.observe { _ in body() }
            fire = { input.send(1) }
        default:
            let (signal, input) = Signal<Int>.pipe()
            subscription = signal.merge(with: .never).observe { _ in body() }
            fire = { input.send(1) }
        }
        Thread { fire() }.start()
        let called = await onOwnThread { entered.wait(timeout: .now() + Self.timeout) == .success }
        guard called else {
            Issue.record("the observer was not called")
            return
        }
        subscription.cancel()
        #expect(!callEnded.isSet, "cancel() returned while the call was still running")
        async let waited: Bool = {
            await subscription.waitForLastCall()
            return callEnded.isSet
        }()
        release.signal()
        #expect(await waited, "waitForLastCall() returned only after the call ended")
        // Without a call in progress it returns at once.
        await subscription.waitForLastCall()
    }

    @Test func waitForLastCallOnTheObserversOwnThreadReturnsAtOnce() async {
        let property = MutableProperty(0)
        let box = SubscriptionBox()
        let returned = StopFlag()
        box.subscription = property.observe(emitsCurrentValue: false) { _ in
            box.subscription?.cancel()
            // Runs the async wait on this very thread (the observer's), without suspending.
            let semaphore = DispatchSemaphore(value: 0)
            Task.immediate {
                await box.subscription?.waitForLastCall()
                returned.set()
                semaphore.signal()
            }
            semaphore.wait()
        }
        await onOwnThread { property.value = 1 }
        #expect(returned.isSet)
    }

    /// A writer thread keeps an observer busy (each call takes ~100 µs) while `cancellers`
    /// threads, running no observer, cancel at a random moment; once each cancel() returns
    /// and its waitForLastCall() has returned, no call may be running or start.
    static func cancelRace(
        cancellers: Int = 1,
        cancelInBatch: Bool = false,
        _ make: (_ observer: @escaping @Sendable () -> Void) -> (SignalSubscription, @Sendable () -> Void)
    ) async {
        for repetition in 0..<40 {
            let state = CancelRaceState()
            let (subscription, fire) = make {
                state.enter()
                usleep(100)  // jitter, not a wait: a long call, so the cancel may land inside it
                state.leave()
            }
            let stop = StopFlag()
            let fires = FireCount()
            let writerDone = DispatchSemaphore(value: 0)
            Thread {
                while !stop.isSet {
                    fire()
                    fires.increment()
                }
                writerDone.signal()
            }.start()
            let cancelled = await onOwnThread {
                usleep(UInt32.random(in: 0...2_000))  // jitter: a random cancel point in the writes
                return runThreads(timeout: timeout, (0..<cancellers).map { _ in
                    { if cancelInBatch { batch { subscription.cancel() } } else { subscription.cancel() } }
                })
            }
            await subscription.waitForLastCall()
            state.markCancelled()
            // The writer fires again after the cancel: a call that starts now is caught.
            let target = fires.value + 20
            await onOwnThread { fires.wait(until: target) }
            stop.set()
            await onOwnThread { writerDone.wait() }
            guard cancelled else {
                Issue.record("cancel() did not return within \(timeout) s (repetition \(repetition))")
                return
            }
            #expect(state.callsAfterCancel == 0, "repetition \(repetition)")
        }
    }
}

@Suite("SignalSubscription identity")
struct SubscriptionIdentityTests {
    @Test func subscriptionsAreEqualOnlyToThemselvesBeforeAndAfterCancelling() {
        let property = MutableProperty(0)
        let first = property.observe { _ in }
        let second = property.observe { _ in }
        let sameClosure: @Sendable () -> Void = {}
        let custom = (SignalSubscription(onCancel: sameClosure), SignalSubscription(onCancel: sameClosure))
        #expect(first == first)
        #expect(first != second)
        #expect(custom.0 != custom.1, "the same onCancel closure does not make them equal")
        var set: Set<SignalSubscription> = [first, second, custom.0]
        let hashBefore = first.hashValue
        first.cancel()
        #expect(first.hashValue == hashBefore)
        #expect(set.contains(first))
        set.remove(first)
        #expect(set.count == 2 && !set.contains(first))
        second.cancel()
    }
}

/// Lets `parties` threads wait for each other (each for at most `timeout` seconds, so a test
/// that breaks the rendezvous fails instead of hanging). The bound is a hang guard, not a
/// timing assumption: a party that gives up early lets its observer cancel the other before
/// it was called, which fails the test, and on a loaded machine a thread can wait seconds
/// before it first runs.
final class Rendezvous: Sendable {
    private let arrivals: [DispatchSemaphore]
    private let timeout: TimeInterval

    init(parties: Int = 2, timeout: TimeInterval = CancellationTests.timeout) {
        arrivals = (0..<parties).map { _ in DispatchSemaphore(value: 0) }
        self.timeout = timeout
    }

    /// Signals that party `index` is here and waits for every other party.
    func arrive(_ index: Int) {
        for _ in 0..<(arrivals.count - 1) { arrivals[index].signal() }
        for (other, semaphore) in arrivals.enumerated() where other != index {
            _ = semaphore.wait(timeout: .now() + timeout)
        }
    }
}

/// How many times a writer thread has fired; others can wait for a count.
final class FireCount: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func increment() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Blocks the calling thread until the count reaches `target`.
    func wait(until target: Int) {
        condition.lock()
        while count < target { condition.wait() }
        condition.unlock()
    }
}

final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// ``runThreads(timeout:_:)`` from a test: the waiting runs on a thread of its own, so the
/// test suspends instead of blocking a thread of the cooperative pool.
func awaitThreads(timeout: TimeInterval, _ bodies: [@Sendable () -> Void]) async -> Bool {
    await onOwnThread { runThreads(timeout: timeout, bodies) }
}

/// Runs each body on its own thread; false if they did not all return within `timeout`
/// seconds (the threads are then left running). Blocks the calling thread meanwhile.
func runThreads(timeout: TimeInterval, _ bodies: [@Sendable () -> Void]) -> Bool {
    let done = DispatchSemaphore(value: 0)
    for body in bodies {
        Thread {
            body()
            done.signal()
        }.start()
    }
    let deadline = DispatchTime.now() + timeout
    for _ in bodies {
        if done.wait(timeout: deadline) == .timedOut { return false }
    }
    return true
}
