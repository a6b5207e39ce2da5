#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Graph {
    /// Releases the lock; the outermost release on a thread that is neither delivering nor
    /// batching then delivers everything its writes made due.
    @inlinable @inline(__always) func unlockAndDeliver() {
        if depth == 1 && !queue.isEmpty {
            unlock()
            deliverQueued()
        } else {
            unlock()
        }
    }

    /// Moves the jobs made due under the lock to this thread's queue and delivers them,
    /// unless this thread is delivering or batching. Called with no lock held.
    @usableFromInline func deliverQueued() {
        pending.append(contentsOf: &queue)
        if isDelivering || batchDepth > 0 { return }
        drain()
    }

    /// Releases the lock (held once) around an observer call made by a drain. Jobs queued
    /// so far stay with this thread.
    @inline(__always) func suspendForCallback() {
        if !queue.isEmpty { pending.append(contentsOf: &queue) }
        unlock()
    }

    /// Reports a feedback loop (see ``SignalsDiagnostic/feedbackLoop(calls:)``) with the
    /// lock released around the handler, then takes `component`'s lock again. Caller holds
    /// the lock once, delivering.
    func reportFeedbackLoop(relocking component: GraphComponent) {
        suspendForCallback()
        reportFeedbackLoop()
        lock(component)
    }

    /// Reports a feedback loop; called with no lock held, delivering. Jobs queued so far
    /// stay with this thread, as around an observer call.
    func reportFeedbackLoop() {
        if !queue.isEmpty { pending.append(contentsOf: &queue) }
        SignalsDiagnostics.handler(.feedbackLoop(calls: SignalsDiagnostics.feedbackLoopLimit))
    }

    @inline(__always) func enqueue(_ job: DeliveryJob) {
        queue.append(job)
    }

    /// Queues `job` without retaining it: its owner keeps it alive until its delivery
    /// (see ``PropertyObservation``).
    @inline(__always) func enqueueUnretained(_ job: DeliveryJob) {
        queue.appendUnretained(job)
    }

    /// Whether a new observation made now, under a lock held once, delivers its first value
    /// before `observe` returns (inside an observer or a batch on this thread, with nothing
    /// else queued) rather than through the queue.
    var deliversFirstValueAtOnce: Bool {
        depth == 1 && queue.isEmpty && (isDelivering || batchDepth > 0)
    }

    @usableFromInline func beginBatch() {
        if batchDepth == 0 { batchID = nextEpoch() }
        batchDepth += 1
    }

    @usableFromInline func endBatch() {
        batchDepth -= 1
        if batchDepth == 0 && !writes.isEmpty {
            // Moved out while settling (an equality closure could write in a batch of its
            // own); the buffer is kept for the next batch.
            var batchWrites: [GraphNode] = []
            swap(&batchWrites, &writes)
            for node in batchWrites { node.settleBatchWrite(in: self) }
            batchWrites.removeAllKeepingCapacity()
            if writes.isEmpty { swap(&batchWrites, &writes) }
        }
        if batchDepth == 0 && !isDelivering {
            if depth == 0 {
                drain()
            } else {
                // The batch ended inside a locked call (a `modify` body, a derived closure):
                // observers must not run with a lock held, so its jobs go back to the lock
                // queue, delivered when the outermost call returns.
                queue.append(contentsOf: &pending)
            }
        }
    }

    /// Returns once no thread is inside `call`'s closure: at once if none is, or if the
    /// call in progress runs on the calling thread (it cannot wait for itself); otherwise
    /// when that call ends (``endCall(of:)`` resumes it). Never blocks a thread.
    static func callEnded(of call: some ObserverCall) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Graph.current._withUnsafeGuaranteedRef { graph in
                graph.lock(call.callComponent)
                if let running = call.runningThread, pthread_equal(running, pthread_self()) == 0,
                   call.addEndWaiter(continuation) {
                } else {
                    continuation.resume()
                }
                graph.unlock()
            }
        }
    }

    /// Ends `call`'s call in progress and resumes the tasks waiting for it in
    /// ``callEnded(of:)``. Caller holds the call's lock.
    @inline(__always) func endCall(of call: some ObserverCall) {
        call.runningThread = nil
        if !call.endWaiters.isEmpty {
            let waiters = call.endWaiters
            call.endWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Delivers this thread's jobs in FIFO order until its queue is empty or a batch starts.
    /// Called with no lock held; each job takes its own, or keeps the one a delivery that
    /// called nothing left held (``lockForDelivery(_:)``); none is held when it returns.
    private func drain() {
        isDelivering = true
        runCounter &+= 1
        let run = runCounter
        repeat {
            while batchDepth == 0, let (job, retained) = pending.popFirst() {
                deliveryRun = run
                job._withUnsafeGuaranteedRef { $0.deliver(in: self) }
                if retained {
                    // Its release may run deinits (user code): with no lock held.
                    releaseKeptLock()
                    job.release()
                }
            }
            // Jobs made due with the lock held and no observer call after them (a derived
            // closure's write during the last delivery's pull) are this thread's too.
            if queue.isEmpty { break }
            pending.append(contentsOf: &queue)
        } while batchDepth == 0
        releaseKeptLock()
        isDelivering = false
    }

    /// Takes the lock of `node`'s component for a delivery. A delivery that pulled a value
    /// and called no observer returns with its lock still held, so that a drain of many
    /// such deliveries in one component (observers of nodes a write marked but did not
    /// change) takes the lock once: that lock is kept if it is `node`'s, and released
    /// first otherwise. No user code runs while a drain keeps a lock between deliveries.
    @inline(__always) func lockForDelivery(_ node: GraphNode) {
        if depth != 0 {
            let bits = node.componentBits.load(ordering: .acquiring)
            if bits == heldMember { return }
            if bits != GraphComponent.nurseryBits && Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef({ $0.root.toOpaque() }) == held.unsafelyUnwrapped.toOpaque() {
                heldMember = bits
                return
            }
            unlock()
        }
        lock(node)
    }

    /// Releases the lock a delivery kept (see ``lockForDelivery(_:)``), if any.
    @inline(__always) func releaseKeptLock() {
        if depth != 0 { unlock() }
    }
}

/// Something the graph delivers to user code after a propagation: an observation (a
/// ``GraphNode``) or one event for one signal observer. A class, not a protocol, so that
/// the queues hold jobs as plain pointers: an event retained once while queued, an
/// observation unretained (see ``DeliveryQueue`` and ``PropertyObservation``).
@usableFromInline
class DeliveryJob: @unchecked Sendable {
    /// Called with no lock held, by the thread's drain: takes its own component's lock and
    /// releases it around the user callback with ``Graph/suspendForCallback()``.
    func deliver(in graph: Graph) {}
}

/// A FIFO of pending deliveries with amortised O(1) push and pop, in one buffer it owns
/// (as ``TrivialStack``): a job is retained once when queued and released by the drain
/// after its delivery, unless queued unretained (its owner keeps it alive; the entry's low
/// bit says so); moving jobs between queues copies pointers, with no reference counting
/// and no copy-on-write check. The owner frees the buffer with ``deallocate()``.
@usableFromInline
struct DeliveryQueue {
    /// Each job's address, plus 1 when the queue did not retain it (a bit pattern, never a
    /// reference: a class reference's low bits are not the program's to set).
    @usableFromInline var jobs = TrivialStack<UInt>(capacity: 4)
    /// The next job to pop.
    @usableFromInline var head = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { head == jobs.count }

    /// Releases the jobs still queued (those it retained) and frees the buffer. (A thread's
    /// drain empties its queues before it returns, so none are left when a thread exits; an
    /// observation left in one and detached later would leak its object, not what it holds.)
    func deallocate() {
        for index in head..<jobs.count {
            let (job, retained) = Self.entry(jobs[index])
            if retained { job.release() }
        }
        jobs.deallocate()
    }

    mutating func append(_ job: DeliveryJob) {
        jobs.append(UInt(bitPattern: Unmanaged.passRetained(job).toOpaque()))
    }

    /// Queues `job` unretained, marked in its entry's low bit (objects are at least 2-byte aligned).
    mutating func appendUnretained(_ job: DeliveryJob) {
        jobs.append(UInt(bitPattern: Unmanaged.passUnretained(job).toOpaque()) | 1)
    }

    /// The job of a queue entry, and whether the queue retained it.
    @inline(__always) private static func entry(_ bits: UInt) -> (job: Unmanaged<DeliveryJob>, retained: Bool) {
        (Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~1).unsafelyUnwrapped), bits & 1 == 0)
    }

    /// Moves every job of `other` to the end of this queue (both keep their buffers).
    mutating func append(contentsOf other: inout DeliveryQueue) {
        if other.isEmpty { return }
        for index in other.head..<other.jobs.count {
            jobs.append(other.jobs[index])
        }
        other.jobs.removeSuffix(from: 0)
        other.head = 0
    }

    /// The next job, and whether the queue retained it (+1: the caller releases it).
    mutating func popFirst() -> (Unmanaged<DeliveryJob>, retained: Bool)? {
        guard head < jobs.count else { return nil }
        let job = Self.entry(jobs[head])
        head += 1
        if head == jobs.count {
            jobs.removeSuffix(from: 0)
            head = 0
        } else if head >= 1024 && head * 2 >= jobs.count {
            let remaining = jobs.count - head
            for index in 0..<remaining { jobs[index] = jobs[head + index] }
            jobs.removeSuffix(from: remaining)
            head = 0
        }
        return job
    }
}

extension Array {
    /// `removeAll(keepingCapacity: true)` for the one or two elements a queue usually holds:
    /// popped one by one (the general call goes through `replaceSubrange`, several times
    /// the cost for so few). O(count).
    @inline(__always) mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
