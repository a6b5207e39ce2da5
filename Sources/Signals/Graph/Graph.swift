#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide reactive graph: one lock, the version clock, dependency tracking and
/// the queues of pending observer deliveries.
///
/// Every node field is guarded by `lock`. Observer closures are only ever called by a
/// thread's drain, with the lock released around the call.
///
/// Delivery is per thread: the thread whose write (or subscription) made observers due
/// delivers them before its outermost lock is released, unless that thread is already
/// delivering (a write from inside an observer) or inside a ``batch(_:)``: then the jobs
/// wait in that thread's queue and run after the current observer returns or the batch ends.
/// Observers never run with the lock held, so jobs made due under a nested lock (a `modify`
/// body, a derived closure, a batch ending inside one) wait for the outermost release.
@usableFromInline
final class Graph: @unchecked Sendable {
    @usableFromInline static let shared = Graph()
    /// The shared graph without reference counting, for the inlined read path (the graph
    /// lives for the whole process).
    @usableFromInline static let unretainedShared = Unmanaged.passUnretained(shared)

    @usableFromInline let mutex = GraphLock()
    /// How many times the owning thread holds the lock.
    @inlinable var depth: Int { mutex.depth }
    /// Bumped by every write to a source node; lets unwatched derived nodes skip revalidation.
    @exclusivity(unchecked) var globalVersion: UInt64 = 1
    @exclusivity(unchecked) private var epochCounter: UInt64 = 0
    /// Whether a derived node's closure is running and recording what it reads.
    @usableFromInline @exclusivity(unchecked) var isTracking = false
    /// Identifies the running derived computation; a node read in this run has this
    /// `trackEpoch`, which records each read once.
    @usableFromInline @exclusivity(unchecked) var runEpoch: UInt64 = 0
    /// What the running computations have read, the innermost one's reads last (a stack:
    /// a nested computation appends after its caller's reads and removes its own when done).
    @usableFromInline @exclusivity(unchecked) var collected: ContiguousArray<Dependency> = []
    /// Jobs made due while the current holder has the lock; moved to its thread's queue
    /// before the lock is fully released.
    @usableFromInline @exclusivity(unchecked) var queue = DeliveryQueue()
    /// Threads that are delivering or batching (usually zero or one).
    @exclusivity(unchecked) private var threads: [ThreadDelivery] = []
    /// A retired thread state kept for reuse, so that a batch or drain allocates nothing.
    @exclusivity(unchecked) private var spare: ThreadDelivery?
    /// Numbers each thread's delivery run (``ThreadDelivery/run``), for feedback-loop detection.
    @exclusivity(unchecked) private var runCounter: UInt64 = 0
    /// The run of the delivery starting now: read by a job when it starts (``FeedbackCounter``).
    @exclusivity(unchecked) var deliveryRun: UInt64 = 0
    /// The push phase's worklist (see ``GraphNode/markSubscribersStale(in:)``).
    @exclusivity(unchecked) var markStack: ContiguousArray<Unmanaged<GraphNode>> = []
    /// The pull phase's stack of derived nodes being checked (see ``validate(_:)``).
    @exclusivity(unchecked) private var checkStack: ContiguousArray<CheckFrame> = []
    /// See ``keepUntilChecked(_:)``.
    @exclusivity(unchecked) private var replacedWhileChecking: [DependencyList] = []
    /// Derived nodes whose subscriber list became empty or non-empty, to link or unlink.
    @exclusivity(unchecked) private var unsettled: ContiguousArray<GraphNode> = []
    @exclusivity(unchecked) private var isSettling = false

    @inlinable @inline(__always) func lock() {
        mutex.lock()
    }

    @inlinable @inline(__always) func unlock() {
        mutex.unlock()
    }

    /// Releases the lock; the outermost release on a thread that is neither delivering nor
    /// batching first delivers everything its writes made due.
    @inlinable @inline(__always) func unlockAndDeliver() {
        if depth == 1 && !queue.isEmpty {
            deliverQueued()
        }
        unlock()
    }

    /// Releases the lock around an observer call made by a drain. Jobs queued so far stay
    /// with this thread.
    @inline(__always) func suspendForCallback() {
        if !queue.isEmpty { currentThread(creating: true)!.pending.append(contentsOf: &queue) }
        unlock()
    }

    /// Reports a feedback loop (see ``SignalsDiagnostic/feedbackLoop(calls:)``) with the
    /// lock released around the handler. Caller holds the lock once, delivering.
    func reportFeedbackLoop() {
        suspendForCallback()
        SignalsDiagnostics.handler(.feedbackLoop(calls: SignalsDiagnostics.feedbackLoopLimit))
        resumeAfterCallback()
    }

    /// Takes the lock back after an observer call.
    @inline(__always) func resumeAfterCallback() {
        lock()
    }

    /// The tracking state of a computation further up the stack, saved while a nested one
    /// runs, and where the nested run's reads start in ``collected``.
    struct Run {
        fileprivate let wasTracking: Bool
        fileprivate let outerEpoch: UInt64
        fileprivate let epoch: UInt64
        let start: Int
    }

    /// Starts recording reads for a derived computation; pair with ``endRun(_:)``.
    @inline(__always) func beginRun() -> Run {
        epochCounter &+= 1
        let run = Run(wasTracking: isTracking, outerEpoch: runEpoch, epoch: epochCounter, start: collected.count)
        isTracking = true
        runEpoch = epochCounter
        return run
    }

    /// Stops recording and resumes the computation `beginRun` suspended. The run's reads
    /// stay at `collected[run.start...]`, each node once, until ``dropReads(of:)``.
    @inline(__always) func endRun(_ run: Run) {
        isTracking = run.wasTracking
        runEpoch = run.outerEpoch
        // A nested run re-stamps the nodes it reads, so this run may have recorded one of
        // them a second time after it returned.
        if epochCounter != run.epoch {
            removeRepeatedReads(of: run)
        }
    }

    /// Keeps the first read of each node in the run's reads (with the version it saw then).
    private func removeRepeatedReads(of run: Run) {
        let end = collected.count
        guard end - run.start > 1 else { return }
        var kept = run.start
        if end - run.start <= 32 {
            for index in run.start..<end {
                let node = collected[index].node
                if !collected[run.start..<kept].contains(where: { $0.node === node }) {
                    collected.swapAt(kept, index)
                    kept += 1
                }
            }
        } else {
            var seen = Set<ObjectIdentifier>(minimumCapacity: end - run.start)
            for index in run.start..<end where seen.insert(ObjectIdentifier(collected[index].node)).inserted {
                collected.swapAt(kept, index)
                kept += 1
            }
        }
        if kept < end { collected.removeSubrange(kept...) }
    }

    /// Removes a finished run's reads.
    @inline(__always) func dropReads(of run: Run) {
        let count = collected.count - run.start
        if count == 1 {
            collected.removeLast()
        } else if count > 1 {
            collected.removeSubrange(run.start...)
        }
    }

    /// Records a read of `node` by the derived computation running, once per run.
    @inlinable @inline(__always) func track(_ node: GraphNode) {
        guard isTracking, node.trackEpoch != runEpoch else { return }
        node.trackEpoch = runEpoch
        collected.append(Dependency(node: node, version: node.version))
    }

    /// One derived node being checked: the next dependency to look at, and whether the
    /// node must recompute anyway (it has no value yet). The node is unretained: the root is
    /// kept alive by the caller, every other one by the dependency list of the node below
    /// it, which cannot be freed while that node is checked (``GraphNode/isChecking``).
    private struct CheckFrame {
        let node: Unmanaged<GraphNode>
        var index = 0
        /// The dependency at `index` was just checked (do not descend into it again).
        var checkedCurrent = false
        let mustRecompute: Bool
    }

    /// Brings the derived node `root` up to date: walks down what it read, depth first, to
    /// the nodes that changed, and recomputes on the way back only the nodes whose inputs
    /// changed version. Iterative (an explicit stack), so a chain of any length validates in
    /// constant native stack; user closures run only in recomputations, whose inputs are
    /// then already up to date. Caller holds the lock.
    func validate(_ root: GraphNode) {
        let base = checkStack.count
        beginCheck(root)
        while checkStack.count > base {
            let top = checkStack.count - 1
            let node = checkStack[top].node
            var index = checkStack[top].index
            var skipCheck = checkStack[top].checkedCurrent
            let mustRecompute = checkStack[top].mustRecompute
            var changed = mustRecompute
            var next: Unmanaged<GraphNode>?
            while let (dependency, seen) = node._withUnsafeGuaranteedRef({ $0.dependency(at: index) }) {
                if !skipCheck && dependency._withUnsafeGuaranteedRef({ $0.needsCheck(in: self) }) {
                    next = dependency
                    break
                }
                skipCheck = false
                if !mustRecompute && dependency._withUnsafeGuaranteedRef({ $0.version }) != seen {
                    changed = true
                    break
                }
                index += 1
            }
            if let next {
                checkStack[top].index = index
                checkStack[top].checkedCurrent = true
                next._withUnsafeGuaranteedRef { beginCheck($0) }
                continue
            }
            checkStack.removeLast()
            if changed {
                node._withUnsafeGuaranteedRef { $0.recompute(in: self) }
            }
        }
        if base == 0 && !replacedWhileChecking.isEmpty {
            replacedWhileChecking.removeAll()
        }
    }

    private func beginCheck(_ node: GraphNode) {
        let hasValue = node.beginCheck(in: self)
        checkStack.append(CheckFrame(node: Unmanaged.passUnretained(node), mustRecompute: !hasValue))
    }

    /// Whether a ``validate(_:)`` is in progress on the lock holder's stack.
    var isChecking: Bool { !checkStack.isEmpty }

    /// Keeps a dependency list replaced during a check until the outermost check ends:
    /// frames may refer to its nodes unretained (a node whose frame is on the stack can be
    /// recomputed from a derived closure further up, in a cycle or after a write).
    func keepUntilChecked(_ dependencies: DependencyList) {
        replacedWhileChecking.append(dependencies)
    }

    /// Notes that `node`'s subscriber list became empty or non-empty: it is linked to (or
    /// unlinked from) its dependencies by a loop, so that observing or releasing a chain
    /// of any length uses constant stack. Caller holds the lock.
    func needsSettling(_ node: GraphNode) {
        unsettled.append(node)
        if isSettling { return }
        isSettling = true
        while let next = unsettled.popLast() {
            next.settleLink(in: self)
        }
        isSettling = false
    }

    /// Delivers a new observation's first value: at once when `observe` is called inside an
    /// observer or a batch on this thread (with the lock held once and nothing else queued),
    /// so that `observe` returns after its first call there too; otherwise queued, and
    /// delivered by the release of the lock (or, inside a `modify` body or a derived closure,
    /// of the outermost one). Caller holds the lock.
    func deliverFirstValue(_ job: some Deliverable) {
        if depth == 1 && queue.isEmpty, let state = currentThread(creating: false), state.isDelivering || state.batchDepth > 0 {
            job.deliver(in: self)
        } else {
            queue.append(job)
        }
    }

    func enqueue(_ job: any Deliverable) {
        queue.append(job)
    }

    /// This thread's state if it is inside a batch. Caller holds the lock.
    @inline(__always) func currentBatch() -> ThreadDelivery? {
        if threads.isEmpty { return nil }
        guard let state = currentThread(creating: false), state.batchDepth > 0 else { return nil }
        return state
    }

    func beginBatch() {
        lock()
        currentThread(creating: true)!.batchDepth += 1
        unlockAndDeliver()
    }

    func endBatch() {
        lock()
        if let state = currentThread(creating: false) {
            state.batchDepth -= 1
            if !queue.isEmpty { state.pending.append(contentsOf: &queue) }
            if state.batchDepth == 0 && !state.writes.isEmpty {
                let writes = state.writes
                state.writes = []
                for write in writes { write.settle() }
            }
            if state.batchDepth == 0 && !state.isDelivering {
                if depth == 1 {
                    drain(state)
                } else {
                    // The batch ended inside a locked call (a `modify` body, a derived
                    // closure): observers must not run with the lock held, so its jobs go
                    // back to the lock queue, delivered when the outermost call returns.
                    queue.append(contentsOf: &state.pending)
                    retire(state)
                }
            }
        }
        unlock()
    }

    /// Returns once no thread is inside `call`'s closure: at once if none is, or if the
    /// call in progress runs on the calling thread (it cannot wait for itself); otherwise
    /// when that call ends (``endCall(of:)`` resumes it). Never blocks a thread.
    func callEnded(of call: some ObserverCall) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock()
            if let running = call.runningThread, pthread_equal(running, pthread_self()) == 0 {
                call.endWaiters.append(continuation)
            } else {
                continuation.resume()
            }
            unlock()
        }
    }

    /// Ends `call`'s call in progress and resumes the tasks waiting for it in
    /// ``callEnded(of:)``. Caller holds the lock.
    @inline(__always) func endCall(of call: some ObserverCall) {
        call.runningThread = nil
        if !call.endWaiters.isEmpty {
            let waiters = call.endWaiters
            call.endWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    @usableFromInline func deliverQueued() {
        let state = currentThread(creating: true)!
        state.pending.append(contentsOf: &queue)
        if state.isDelivering || state.batchDepth > 0 { return }
        drain(state)
    }

    /// Delivers `state`'s jobs in FIFO order until its queue is empty or a batch starts.
    private func drain(_ state: ThreadDelivery) {
        state.isDelivering = true
        runCounter &+= 1
        state.run = runCounter
        repeat {
            while state.batchDepth == 0, let job = state.pending.popFirst() {
                deliveryRun = state.run
                job.deliver(in: self)
            }
            // Jobs made due with the lock held and no observer call after them (a derived
            // closure's write during the last delivery's pull) are this thread's too.
            if queue.isEmpty { break }
            state.pending.append(contentsOf: &queue)
        } while state.batchDepth == 0
        state.isDelivering = false
        if state.batchDepth == 0 && state.pending.isEmpty {
            retire(state)
        }
    }

    private func currentThread(creating: Bool) -> ThreadDelivery? {
        let me = pthread_self()
        for state in threads where pthread_equal(state.thread, me) != 0 {
            return state
        }
        guard creating else { return nil }
        let state: ThreadDelivery
        if let spare {
            self.spare = nil
            spare.thread = me
            state = spare
        } else {
            state = ThreadDelivery(thread: me)
        }
        threads.append(state)
        return state
    }

    /// Removes an idle thread state (no batch, nothing pending) and keeps it as the spare.
    private func retire(_ state: ThreadDelivery) {
        if threads.count == 1 && threads[0] === state {
            threads.removeLast()
        } else {
            threads.removeAll { $0 === state }
        }
        if spare == nil && state.batchDepth == 0 && state.pending.isEmpty && !state.isDelivering {
            spare = state
        }
    }
}

/// One thread's delivery state. Guarded by the graph lock.
final class ThreadDelivery {
    @exclusivity(unchecked) var thread: pthread_t
    @exclusivity(unchecked) var batchDepth = 0
    @exclusivity(unchecked) var isDelivering = false
    @exclusivity(unchecked) var pending = DeliveryQueue()
    /// This thread's delivery run (see ``Graph/deliveryRun``).
    @exclusivity(unchecked) var run: UInt64 = 0
    /// The first write of this thread's batch to each source node with an equality.
    @exclusivity(unchecked) var writes: [any BatchWrite] = []

    init(thread: pthread_t) {
        self.thread = thread
    }
}

/// Something the graph delivers to user code after a propagation.
@usableFromInline
protocol Deliverable: AnyObject {
    /// Called with the graph locked once; releases it around the user callback with
    /// ``Graph/suspendForCallback()`` and returns with the lock held again.
    func deliver(in graph: Graph)
}

/// A FIFO of pending deliveries with amortised O(1) push and pop.
@usableFromInline
struct DeliveryQueue {
    @usableFromInline var storage: [any Deliverable] = []
    @usableFromInline var head = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { head == storage.count }

    mutating func append(_ job: any Deliverable) {
        storage.append(job)
    }

    /// Moves every job of `other` to the end of this queue.
    mutating func append(contentsOf other: inout DeliveryQueue) {
        if isEmpty && other.head == 0 {
            swap(&self, &other)
            return
        }
        storage.append(contentsOf: other.storage[other.head...])
        other.storage.removeAll(keepingCapacity: true)
        other.head = 0
    }

    mutating func popFirst() -> (any Deliverable)? {
        guard head < storage.count else { return nil }
        let job = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return job
    }
}
