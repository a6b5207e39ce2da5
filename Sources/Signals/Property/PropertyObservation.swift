#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One observer of a property: a leaf of the graph that is queued when its node changes
/// and, when delivered, pulls the node's value and calls the closure if the version moved.
///
/// The closure never runs on two threads at once: a delivery that finds it running on
/// another thread leaves a note, and that thread calls it again with the latest value.
final class PropertyObservation<Value>: GraphNode, Deliverable, ObserverCall, @unchecked Sendable {
    /// The observed node; `nil` once detached, so that a cancelled subscription keeps
    /// nothing it observed (derived nodes and what their closures capture) alive.
    @exclusivity(unchecked) private var node: ValueNode<Value>?
    @exclusivity(unchecked) private var observer: (@Sendable (Value) -> Void)?
    @exclusivity(unchecked) private var deliveredVersion: UInt64
    @exclusivity(unchecked) private var isQueued = false
    /// The thread inside `observer`, if any.
    @exclusivity(unchecked) var runningThread: pthread_t?
    @exclusivity(unchecked) var endWaiters: [CheckedContinuation<Void, Never>] = []
    @exclusivity(unchecked) private var needsRerun = false
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

    func deliver(in graph: Graph) {
        graph.lock(component)
        defer { graph.unlock() }
        isQueued = false
        guard observer != nil else { return }
        if runningThread != nil {
            needsRerun = true
            return
        }
        runningThread = pthread_self()
        let run = graph.deliveryRun
        repeat {
            needsRerun = false
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
            graph.lock(component)
        } while needsRerun
        graph.endCall(of: self)
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
