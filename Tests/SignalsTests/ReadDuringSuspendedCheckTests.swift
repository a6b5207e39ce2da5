import Foundation
import Synchronization
import Testing
@testable import Signals

/// A check (the pull that validates a derived node) marks the nodes it walks validated
/// before it looks at what they read; when it then releases its lock to wait (to join a
/// component another thread holds), other threads must not take those nodes as up to date:
/// their values may be from before a write that has returned. Found by a review of the
/// unlocked read (ff38f8b), which made such a read return the old value at once; the locked
/// read could return it too, when the waiting thread held nothing.
@Suite("A read while another thread's check waits")
struct ReadDuringSuspendedCheckTests {
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func aReadSeesAWriteThatReturnedBeforeIt(otherOrderedFirst: Bool) async throws {
        // On threads of its own: the scenario blocks on semaphores, which must not hold
        // threads of the cooperative pool (the other argument runs at the same time).
        let reads = await onOwnThread { Self.scenario(otherOrderedFirst: otherOrderedFirst) }
        #expect(reads.read == 4, "read \(reads.read): a value from before a write that had returned")
        #expect(reads.checked == 4)
        #expect(reads.final == 4)
        #expect(reads.ordered, "the other property is not on the wanted side of the graph in the lock order")
        #expect(reads.suspended, "a thread expected to wait with its lock released did not within 30 s")
    }

    private struct Reads: Sendable {
        var read: Int
        var checked: Int
        var final: Int
        var ordered: Bool
        /// Whether the checker (and, ordered first, the reader) suspended in time.
        var suspended: Bool
    }

    private static func scenario(otherOrderedFirst: Bool) -> Reads {
        // `other`'s component is ordered before (or after) the observed graph's: the waiting
        // check takes the two locks in that order (`Graph.lockJoined`, by address), waiting
        // holding nothing, or holding the observed graph's lock. Both come from one pool
        // sorted by that order, `source` from its middle, so that the setup never depends on
        // where the allocator placed them.
        let order = { (node: GraphNode) in UInt(bitPattern: ObjectIdentifier(node.component.root.takeUnretainedValue()).hashValue) }
        let pool = (0..<5).map { _ in MutableProperty(0) }.sorted { order($0.node) < order($1.node) }
        let source = pool[2]
        let other = pool[otherOrderedFirst ? 1 : 3]
        let otherBox = OtherPropertyBox()
        let atOther = DispatchSemaphore(value: 0)
        let derived = Property { () -> Int in
            let value = source.value
            if value > 0, let other = otherBox.property {
                atOther.signal()
                _ = other.value
            }
            return value &* 2
        }
        let doubled = derived.map { $0 &* 2 }
        _ = doubled.value
        let ordered = order(doubled.node) == order(source.node)
            && (order(other.node) < order(source.node)) == otherOrderedFirst
        otherBox.property = other

        // The observer's first call stays in progress on its own thread, so that the write
        // below leaves it a note instead of pulling `doubled` itself.
        let firstCallStarted = DispatchSemaphore(value: 0)
        let finishFirstCall = DispatchSemaphore(value: 0)
        let subscriptionBox = SubscriptionBox()
        let subscribed = DispatchSemaphore(value: 0)
        Thread {
            let isFirst = Atomic<Bool>(true)
            subscriptionBox.subscription = doubled.observe { _ in
                if isFirst.exchange(false, ordering: .relaxed) {
                    firstCallStarted.signal()
                    finishFirstCall.wait()
                }
            }
            subscribed.signal()
        }.start()
        firstCallStarted.wait()

        // Holds `other`'s graph until told to finish.
        let modifying = DispatchSemaphore(value: 0)
        let finishModify = DispatchSemaphore(value: 0)
        Thread {
            other.modify { value in
                modifying.signal()
                finishModify.wait()
                value += 1
            }
        }.start()
        modifying.wait()

        // The write returns with `doubled` stale (its delivery left the note).
        source.value = 1
        // A checker validates `doubled`: `derived` recomputes, reads `other`, and its thread
        // releases its lock to wait for the modify. (Waited for by thread: the suspension
        // count is process-wide, and other tests' threads suspend and resume meanwhile.)
        let checking = ThreadResult { doubled.value }
        atOther.wait()
        // The waits below are bounded (a safety net, not a synchronisation): should a change
        // stop a thread from suspending, the test fails instead of hanging the run (the
        // test's time limit cannot stop a thread that spins).
        let deadline = DispatchTime.now() + .seconds(30)
        var waitedInVain = false
        while !Suspensions.isRegistered(graphAt: checking.graph) {
            if DispatchTime.now() > deadline { waitedInVain = true; break }
            sched_yield()
        }
        // Another thread reads `doubled`: a write that returned is seen (it waits for the
        // check, which waits for the modify). With `other` ordered first, the checker waits
        // holding nothing: the modify ends once the read waits for the check, or returned
        // (with a value from before the write: the failure this test is for). Ordered after,
        // the checker waits holding the graph's lock, and the read blocks on that lock.
        let reading = ThreadResult { doubled.value }
        if otherOrderedFirst {
            while !Suspensions.isRegistered(graphAt: reading.graph) && !reading.isDone {
                if DispatchTime.now() > deadline { waitedInVain = true; break }
                sched_yield()
            }
        }
        finishModify.signal()
        let read = reading.value
        let checked = checking.value
        finishFirstCall.signal()
        subscribed.wait()
        let final = doubled.value
        subscriptionBox.subscription?.cancel()
        withExtendedLifetime(pool) {}
        return Reads(read: read, checked: checked, final: final, ordered: ordered, suspended: !waitedInVain)
    }

    /// A read recorded by a `ReadRecord` outside any closure is tracked (under the lock),
    /// also for an observed derived value that the unlocked read could serve: the record
    /// must see it change.
    @Test func aRecordedReadOutsideAnyClosureIsTracked() {
        let source = MutableProperty(1)
        let derived = source.map { $0 &* 10 }
        let subscription = derived.observe { _ in }
        let record = ReadRecord()
        #expect(record.recording { derived.value } == 10)
        #expect(record.readAgain() == false)
        source.value = 2
        #expect(record.readAgain(), "the recorded read of an observed derived value was not tracked")
        subscription.cancel()
    }
}

/// Runs `body` on a new thread; ``value`` waits for its result.
private final class ThreadResult: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let finished = Atomic<Bool>(false)
    private let started = DispatchSemaphore(value: 0)
    private var result = 0
    /// The thread's per-thread state (``Graph/current``), set before `body` runs.
    private(set) var graph = UnsafeMutableRawPointer(bitPattern: 1).unsafelyUnwrapped

    init(_ body: @escaping @Sendable () -> Int) {
        Thread {
            self.graph = Graph.current.toOpaque()
            self.started.signal()
            self.result = body()
            self.finished.store(true, ordering: .releasing)
            self.done.signal()
        }.start()
        started.wait()
    }

    /// Whether `body` returned.
    var isDone: Bool { finished.load(ordering: .acquiring) }

    var value: Int {
        done.wait()
        done.signal()
        return result
    }
}

private final class OtherPropertyBox: @unchecked Sendable {
    var property: MutableProperty<Int>?
}
