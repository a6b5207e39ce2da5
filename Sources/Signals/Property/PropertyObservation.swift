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
    /// The observed node; `nil` once detached, so that a cancelled subscription keeps
    /// nothing it observed (derived nodes and what their closures capture) alive.
    @exclusivity(unchecked) private var node: ValueNode<Value>?
    @exclusivity(unchecked) private var observer: (@Sendable (Value) -> Void)?
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
        self.node = node
        self.observer = observer
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

    override func becomeStale(in graph: Graph) -> Bool {
        guard !isQueued, observer != nil else { return false }
        isQueued = true
        graph.enqueue(self)
        return false
    }

    override func deliver(in graph: Graph) {
        graph.lock(self)
        isQueued = false
        guard observer != nil else { return graph.unlock() }
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
            guard observer != nil, let node else { break }
            let value = node.currentValue(in: graph)
            // The pull may have run a derived closure that cancelled this observation.
            guard let observer, node.version != deliveredVersion else { break }
            guard feedback.allowsCall(in: run) else {
                graph.reportFeedbackLoop(relocking: component)
                break
            }
            deliveredVersion = node.version
            graph.suspendForCallback()
            observer(value)
            // Nothing asked for: the call ends here, with no lock taken.
            if callState.compareExchange(expected: Self.running, desired: 0, ordering: .releasing).exchanged { return }
            graph.lock(self)
            let asked = callState.load(ordering: .relaxed)
            if asked & Self.rerun == 0 { break }
            callState.store(asked & ~Self.rerun, ordering: .relaxed)
        }
        if callState.exchange(0, ordering: .acquiringAndReleasing) & Self.waited != 0 {
            let waiters = endWaiters
            endWaiters = []
            for waiter in waiters { waiter.resume() }
        }
        graph.unlock()
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

    /// Detaches from the graph and releases the closure and the node (idempotent). Never
    /// waits: a call in progress on another thread runs to its end (``Graph/callEnded(of:)``
    /// awaits it). Caller holds the observation's lock.
    func detach(in graph: Graph) {
        if observer != nil, let node {
            observer = nil
            self.node = nil
            node.removeSubscriber(self, in: graph)
        }
    }
}
