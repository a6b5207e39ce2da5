#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One observer of a property: a leaf of the graph that is queued when its node changes
/// and, when delivered, pulls the node's value and calls the closure if the version moved.
///
/// The closure never runs on two threads at once: a delivery that finds it running on
/// another thread leaves a note, and that thread calls it again with the latest value.
final class PropertyObservation<Value>: GraphNode, ObserverCall, @unchecked Sendable {
    /// The observed node and the closure, retained by hand (a delivery uses them without a
    /// retain); released when detached, so that a cancelled subscription keeps nothing it
    /// observed (derived nodes and what their closures capture) alive. A detach during a
    /// call leaves the releases to the calling thread, at the call's end (``releases``).
    @exclusivity(unchecked) private var node: Unmanaged<ValueNode<Value>>?
    @exclusivity(unchecked) private var observer: Unmanaged<ObserverClosure<Value>>?
    /// Set by ``detach(in:)``: nothing is delivered any more.
    @exclusivity(unchecked) private var isDetached = false
    @exclusivity(unchecked) private var deliveredVersion: UInt64
    @exclusivity(unchecked) private var isQueued = false
    /// The thread of the last call (valid while ``callState`` has ``running``).
    @exclusivity(unchecked) private var callingThread = pthread_t()
    @exclusivity(unchecked) var endWaiters: [CheckedContinuation<Void, Never>] = []
    /// Whether a thread is inside `observer` (``running``), and what it must do when it
    /// returns: call it again with the latest value (``rerun``, set by a delivery from
    /// another thread) or resume ``endWaiters`` (``waited``). Bits are set and the call
    /// started only under the component's lock; the calling thread ends a call with no
    /// other bit set by one compare-and-swap, without taking the lock again (it takes it
    /// only when a bit asks for more work).
    private let callState = Atomic<UInt8>(0)
    private static var running: UInt8 { 1 }
    private static var rerun: UInt8 { 2 }
    private static var waited: UInt8 { 4 }
    /// Detached during the call: the calling thread releases the node and the closure, and
    /// the reference to this observation the detach took (see ``queueReference``).
    private static var releases: UInt8 { 8 }
    /// A queue refers to this observation unretained (``Graph/enqueueUnretained(_:)``): it
    /// is alive while attached (its subscription owns it). A detach while it is queued
    /// retains it for the queue, and the delivery that takes it off releases that reference.
    @exclusivity(unchecked) private var queueReference = false

    /// The thread inside `observer`, if any (read under the lock: a call may end meanwhile,
    /// which ``addEndWaiter(_:)`` finds out).
    var runningThread: pthread_t? {
        get { callState.load(ordering: .acquiring) & Self.running != 0 ? callingThread : nil }
        set { if let newValue { callingThread = newValue } }
    }
    @exclusivity(unchecked) private var feedback = FeedbackCounter()

    var callComponent: GraphComponent { component }

    /// Creates and attaches the observation; its first value, if `emitsCurrentValue`, is
    /// due (the caller queues or delivers it). Caller holds `node`'s lock.
    init(node: ValueNode<Value>, emitsCurrentValue: Bool, observer: @escaping @Sendable (Value) -> Void, in graph: Graph) {
        self.node = Unmanaged.passRetained(node)
        self.observer = Unmanaged.passRetained(ObserverClosure(observer))
        self.deliveredVersion = 0
        super.init(component: graph.held.unsafelyUnwrapped.takeUnretainedValue())
        // Queued until set up: should the pull below wait for another thread (see "Locking"
        // in `Graph`), that thread's writes do not deliver to this observation meanwhile.
        isQueued = true
        node.addSubscriber(self, in: graph)
        // Untracked: an observation made inside a derived closure is not a read of it.
        let wasTracking = graph.isTracking
        graph.isTracking = false
        _ = node.currentValue(in: graph)
        graph.isTracking = wasTracking
        if emitsCurrentValue {
            deliveredVersion = node.version &- 1
        } else {
            deliveredVersion = node.version
            isQueued = false
        }
    }

    deinit {
        releaseParts()
    }

    override func becomeStale(in graph: Graph) -> Bool {
        guard !isQueued, !isDetached else { return false }
        isQueued = true
        graph.enqueueUnretained(self)
        return false
    }

    override func deliver(in graph: Graph) {
        graph.lockForDelivery(self)
        isQueued = false
        guard !isDetached else {
            let owned = queueReference
            queueReference = false
            graph.unlock()
            // The last use of `self`: the subscription may be gone.
            if owned { Unmanaged.passUnretained(self).release() }
            return
        }
        var state = callState.load(ordering: .acquiring)
        while state & Self.running != 0 {
            // Running on another thread: that thread calls it again once it returns; unless
            // the call ended meanwhile (without the lock), then this thread calls it.
            let (asked, found) = callState.compareExchange(
                expected: state, desired: state | Self.rerun, ordering: .acquiringAndReleasing)
            if asked { return graph.unlock() }
            state = found
        }
        callingThread = pthread_self()
        callState.store(Self.running, ordering: .relaxed)
        let run = graph.deliveryRun
        while true {
            // Unretained: while this call runs, a detach leaves the releases to it.
            guard !isDetached, let node, let observer else { break }
            let value = node._withUnsafeGuaranteedRef { $0.currentValue(in: graph) }
            // The pull may have run a derived closure that cancelled this observation.
            let version = node._withUnsafeGuaranteedRef { $0.version }
            guard !isDetached else { break }
            if version == deliveredVersion {
                // A pull that waited with the lock released (see "Locking" in `Graph`) may
                // come back at the version delivered while another thread's write, finding
                // this call in progress, left a rerun note: pull again. The node that write
                // marked stale would otherwise stay so, and later writes stop at it.
                let asked = callState.load(ordering: .relaxed)
                if asked & Self.rerun == 0 { break }
                callState.store(asked & ~Self.rerun, ordering: .relaxed)
                continue
            }
            guard feedback.allowsCall(in: run) else {
                // The call ends before the report, which runs with no lock held: a write
                // from another thread meanwhile is delivered by that thread (it would
                // otherwise leave a note for a call that does not come back).
                endCallAndUnlock(in: graph)
                graph.reportFeedbackLoop()
                return
            }
            deliveredVersion = version
            graph.suspendForCallback()
            observer._withUnsafeGuaranteedRef { $0.call(value) }
            // Nothing asked for: the call ends here, with no lock taken.
            if callState.compareExchange(expected: Self.running, desired: 0, ordering: .releasing).exchanged { return }
            graph.lock(self)
            let asked = callState.load(ordering: .relaxed)
            if asked & Self.rerun == 0 { break }
            callState.store(asked & ~Self.rerun, ordering: .relaxed)
        }
        // Nothing (more) to call: the lock stays held for the drain (see
        // ``Graph/lockForDelivery(_:)``) unless the call's end has work to do.
        let ended = callState.load(ordering: .relaxed)
        if ended == Self.running {
            callState.store(0, ordering: .relaxed)
            return
        }
        endCallAndUnlock(in: graph)
    }

    /// Ends the call in progress and releases the lock (held once): releases what a detach
    /// during the call left (``releases``) and resumes the tasks waiting for its end.
    private func endCallAndUnlock(in graph: Graph) {
        // With the lock held: every other writer of `callState` holds it too (only the
        // calling thread's end-of-call compare-and-swap does not, and that is this thread),
        // so a plain load and store end the call without an atomic exchange.
        let ended = callState.load(ordering: .relaxed)
        callState.store(0, ordering: .relaxed)
        if ended & Self.releases != 0 { releaseParts() }
        if ended & Self.waited != 0 {
            let waiters = endWaiters
            endWaiters = []
            for waiter in waiters { waiter.resume() }
        }
        graph.unlock()
        // The last use of `self`: the subscription may be gone.
        if ended & Self.releases != 0 { Unmanaged.passUnretained(self).release() }
    }

    /// Called under the lock by ``Graph/callEnded(of:)`` when ``runningThread`` is another
    /// thread: adds `waiter`, to be resumed when the call ends, unless it ended meanwhile
    /// (then returns false and keeps nothing).
    func addEndWaiter(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        var state = callState.load(ordering: .acquiring)
        while state & Self.running != 0 {
            let (added, found) = callState.compareExchange(
                expected: state, desired: state | Self.waited, ordering: .acquiringAndReleasing)
            if added {
                endWaiters.append(waiter)
                return true
            }
            state = found
        }
        return false
    }

    /// Detaches from the graph and releases the closure and the node (idempotent); during
    /// a call, the calling thread releases them when the call ends. Never waits: a call in
    /// progress on another thread runs to its end (``Graph/callEnded(of:)`` awaits it).
    /// Caller holds the observation's lock.
    func detach(in graph: Graph) {
        guard !isDetached, let node else { return }
        isDetached = true
        node._withUnsafeGuaranteedRef { $0.removeSubscriber(self, in: graph) }
        if isQueued {
            queueReference = true
            _ = Unmanaged.passUnretained(self).retain()
        }
        var state = callState.load(ordering: .acquiring)
        while state & Self.running != 0 {
            let (asked, found) = callState.compareExchange(
                expected: state, desired: state | Self.releases, ordering: .acquiringAndReleasing)
            if asked {
                // For the calling thread, which releases it when the call ends (it takes
                // this lock to see the bit).
                _ = Unmanaged.passUnretained(self).retain()
                return
            }
            state = found
        }
        releaseParts()
    }

    /// Releases the node and the closure, once. Caller holds the lock, or is the deinit.
    private func releaseParts() {
        node?.release()
        node = nil
        observer?.release()
        observer = nil
    }
}

/// An observer's closure in an object of its own, so that a delivery calls it through a
/// borrowed reference (a closure kept in a `var` is copied, and retained, for each call).
final class ObserverClosure<Value>: Sendable {
    let call: @Sendable (Value) -> Void

    init(_ call: @escaping @Sendable (Value) -> Void) {
        self.call = call
    }
}
