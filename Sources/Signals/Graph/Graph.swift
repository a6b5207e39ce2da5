/// The process-wide reactive graph: one lock, the version clock, dependency tracking and
/// the queue of pending observer deliveries.
///
/// Every node field is guarded by `lock`. Observer closures are only ever called by
/// ``drain()``, one at a time, with the lock released.
final class Graph: @unchecked Sendable {
    static let shared = Graph()

    private let mutex = GraphLock()
    /// How many times the owning thread holds the lock.
    private(set) var depth = 0
    /// Bumped by every write to a source node; lets unwatched derived nodes skip revalidation.
    var globalVersion: UInt64 = 1
    private var epochCounter: UInt64 = 0
    /// The derived node whose closure is running, which records what it reads.
    unowned(unsafe) var tracker: GraphNode?
    private var batchDepth = 0
    private var isDelivering = false
    private var queue = DeliveryQueue()

    @inline(__always) func lock() {
        mutex.lock()
        depth += 1
    }

    @inline(__always) func unlock() {
        depth -= 1
        mutex.unlock()
    }

    /// Releases the lock; the outermost release on a thread that is not already delivering
    /// first delivers everything queued.
    @inline(__always) func unlockAndDeliver() {
        if depth == 1 && !isDelivering && batchDepth == 0 && !queue.isEmpty {
            drain()
        }
        unlock()
    }

    func nextEpoch() -> UInt64 {
        epochCounter &+= 1
        return epochCounter
    }

    /// Records a read of `node` by the derived node currently computing, once per run.
    @inline(__always) func track(_ node: GraphNode) {
        guard let tracker else { return }
        if node.trackEpoch == tracker.runEpoch { return }
        node.trackEpoch = tracker.runEpoch
        tracker.collectedDependencies.append(Dependency(node: node, version: node.version))
    }

    func enqueue(_ job: any Deliverable) {
        queue.append(job)
    }

    func beginBatch() {
        lock()
        batchDepth += 1
        unlock()
    }

    func endBatch() {
        lock()
        batchDepth -= 1
        unlockAndDeliver()
    }

    /// Delivers queued jobs in FIFO order until the queue is empty or a batch starts.
    /// Called with the lock held exactly once by this thread; jobs release it around user code.
    private func drain() {
        isDelivering = true
        while batchDepth == 0, let job = queue.popFirst() {
            job.deliver(in: self)
        }
        isDelivering = false
    }
}

/// Something the graph delivers to user code after a propagation.
protocol Deliverable: AnyObject {
    /// Called with the graph locked once; may unlock around the user callback and must
    /// return with the lock held again.
    func deliver(in graph: Graph)
}

/// A FIFO of pending deliveries with amortised O(1) push and pop.
struct DeliveryQueue {
    private var storage: [any Deliverable] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }

    mutating func append(_ job: any Deliverable) {
        storage.append(job)
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
