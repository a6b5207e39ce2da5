import Foundation
import Testing
@testable import Signals

@Suite("Batching")
struct BatchTests {
    @Test func observersRunOnceWithTheFinalValues() {
        let first = MutableProperty("Ada")
        let last = MutableProperty("Byron")
        let runs = Counter()
        let full = Property<String> {
            runs.increment()
            return "\(first.value) \(last.value)"
        }
        let seen = Recorder<String>()
        let subscription = full.observe { seen.append($0) }
        defer { subscription.cancel() }
        batch {
            first.value = "Grace"
            last.value = "Hopper"
            #expect(seen.values == ["Ada Byron"], "nothing is delivered inside the batch")
            #expect(first.value == "Grace", "writes take effect at once for readers")
        }
        #expect(seen.values == ["Ada Byron", "Grace Hopper"])
        #expect(runs.value == 2)
    }

    @Test func batchesNestAndDeliverAtTheOutermostEnd() {
        let a = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = a.observe { seen.append($0) }
        defer { subscription.cancel() }
        batch {
            a.value = 1
            batch { a.value = 2 }
            #expect(seen.values == [0])
            a.value = 3
        }
        #expect(seen.values == [0, 3])
    }

    @Test func aThrowingBatchStillDeliversItsWritesAndRethrows() {
        struct Boom: Error {}
        let a = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = a.observe { seen.append($0) }
        defer { subscription.cancel() }
        #expect(throws: Boom.self) {
            try batch {
                a.value = 1
                throw Boom()
            }
        }
        #expect(seen.values == [0, 1])
    }

    @Test func signalEventsInABatchAreAllDeliveredInOrder() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder<Int>()
        let subscription = signal.observe { seen.append($0) }
        defer { subscription.cancel() }
        batch {
            input.send(1)
            input.send(2)
            #expect(seen.values.isEmpty)
        }
        #expect(seen.values == [1, 2])
    }

    @Test func aBatchDefersOnlyItsOwnThreadsDeliveries() async {
        // Thread A opens a batch and writes; meanwhile this test (B, on whichever thread it
        // resumes, never inside a batch) writes and sends. The waits for A run on threads of
        // their own, not on the cooperative pool's; their time limits are hang guards only.
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let (signal, input) = Signal<Int>.pipe()
        let (shared, sharedInput) = Signal<Int>.pipe()
        let aSeen = Recorder<Int>()
        let aThreads = Recorder<Bool>()
        let bSeen = Recorder<Int>()
        let signalSeen = Recorder<Int>()
        let sharedSeen = Recorder<Int>()
        let batchThread = ThreadIdentity()
        let subscriptions = [
            a.observe(emitsCurrentValue: false) { value in
                aSeen.append(value)
                aThreads.append(batchThread.isCurrent)
            },
            b.observe(emitsCurrentValue: false) { bSeen.append($0) },
            signal.observe { signalSeen.append($0) },
            shared.observe { sharedSeen.append($0) },
        ]
        defer { subscriptions.forEach { $0.cancel() } }
        let inBatch = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            batchThread.set()
            batch {
                a.value = 1
                sharedInput.send(1)
                inBatch.signal()
                _ = resume.wait(timeout: .now() + 300)
                a.value = 2
            }
            finished.signal()
        }.start()
        guard await onOwnThread({ inBatch.wait(timeout: .now() + 300) == .success }) else {
            Issue.record("the batch thread did not start")
            return
        }
        // Not held up by A's batch: delivered here, before each write or send returns.
        b.value = 10
        #expect(bSeen.values == [10])
        input.send(7)
        #expect(signalSeen.values == [7])
        // Observers whose delivery A's batch already holds stay with A.
        a.value = 5
        #expect(a.value == 5, "writes take effect at once for every thread")
        sharedInput.send(2)
        #expect(aSeen.values.isEmpty, "a's observer is due in A's batch: this write joins that delivery")
        #expect(sharedSeen.values.isEmpty, "event 2 waits behind event 1, held by A's batch")
        resume.signal()
        guard await onOwnThread({ finished.wait(timeout: .now() + 300) == .success }) else {
            Issue.record("the batch did not end")
            return
        }
        #expect(aSeen.values == [2], "once, at the end of A's batch, with the final value")
        #expect(aThreads.values == [true], "on thread A")
        #expect(sharedSeen.values == [1, 2], "in the order sent")
        #expect(bSeen.values == [10] && signalSeen.values == [7])
    }

    @Test func batchReturnsTheBodysValue() {
        #expect(batch { 42 } == 42)
    }
}

/// Remembers one thread and tells whether the caller is on it.
final class ThreadIdentity: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: ObjectIdentifier?

    func set() { lock.withLock { thread = ObjectIdentifier(Thread.current) } }
    var isCurrent: Bool { lock.withLock { thread == ObjectIdentifier(Thread.current) } }
}
