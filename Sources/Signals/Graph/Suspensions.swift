#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The threads that released their component lock in the middle of an operation (to join
/// a busy component, or to wait for a node another such thread is computing): see "Locking"
/// in ``Graph``. Their busy nodes stay marked; a thread meeting one waits here until it is
/// no longer busy, unless the threads would wait for each other (a dependency cycle across
/// threads), which is then treated like a cycle on one thread.
///
/// A leaf lock: no component lock is taken while `mutex` is held.
enum Suspensions {
    /// How many threads are registered. Read without the mutex on hot paths (through
    /// ``Graph/suspended``, which spares them the lazy-initialisation check of a `static
    /// let`): a thread registers before releasing its component lock, so whoever takes that
    /// lock next sees it.
    static let counter = SuspensionCount()
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    nonisolated(unsafe) private static let condition: UnsafeMutablePointer<pthread_cond_t> = {
        let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        pthread_cond_init(condition, nil)
        return condition
    }()
    /// Bumped whenever a busy node of any thread stops being busy while threads are registered.
    nonisolated(unsafe) private static var generation: UInt64 = 0
    nonisolated(unsafe) private static var threads: [Graph] = []

    static var mutexForWaiters: UnsafeMutablePointer<pthread_mutex_t> { mutex }

    static func withLock<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Registers `graph` (its `waitingFor` set first). Caller holds the mutex.
    static func register(_ graph: Graph) -> UInt64 {
        threads.append(graph)
        counter.value.add(1, ordering: .relaxed)
        return generation
    }

    /// Whether the thread whose per-thread state (``Graph/current``) is at `address` is
    /// registered (waiting, its lock released). Lets a test wait for one given thread to
    /// suspend. O(registered).
    static func isRegistered(graphAt address: UnsafeMutableRawPointer) -> Bool {
        withLock { threads.contains { Unmanaged.passUnretained($0).toOpaque() == address } }
    }

    static func unregister(_ graph: Graph) {
        withLock {
            graph.waitingFor = nil
            if let index = threads.firstIndex(where: { $0 === graph }) { threads.remove(at: index) }
            counter.value.subtract(1, ordering: .relaxed)
        }
    }

    /// Blocks until ``notify()`` moves the generation past `seen`.
    static func wait(after seen: UInt64) {
        withLock {
            while generation == seen { pthread_cond_wait(condition, mutex) }
        }
    }

    /// Wakes the waiters: a busy node stopped being busy.
    static func notify() {
        withLock {
            generation &+= 1
            pthread_cond_broadcast(condition)
        }
    }

    /// Whether `graph` waiting for `node` would close a cycle of threads waiting for each
    /// other's busy nodes. Caller holds the mutex.
    static func closesCycle(_ graph: Graph, waitingFor node: Unmanaged<GraphNode>) -> Bool {
        var target = node
        for _ in 0...threads.count {
            if graph.busy.contains(where: { $0.toOpaque() == target.toOpaque() }) { return true }
            guard let owner = threads.first(where: { $0.busy.contains { $0.toOpaque() == target.toOpaque() } }),
                let next = owner.waitingFor
            else { return false }
            target = next
        }
        return false
    }
}

/// The number of threads registered in ``Suspensions``.
final class SuspensionCount: Sendable {
    let value = Atomic<Int>(0)
}

extension Graph {
    /// Whether the busy `node` is busy on another thread (which waits with its lock released);
    /// false when it is this thread's own (a dependency cycle, or a read inside `modify`).
    @inline(__always) func isBusyElsewhere(_ node: Unmanaged<GraphNode>) -> Bool {
        suspended.value.load(ordering: .relaxed) > 0 && !busy.contains { $0.toOpaque() == node.toOpaque() }
    }

    @inline(__always) func isBusyElsewhere(_ node: GraphNode) -> Bool {
        isBusyElsewhere(Unmanaged.passUnretained(node))
    }

    /// Marks `node` busy on this thread (it computes, or is modified).
    @inline(__always) func beginBusy(_ node: GraphNode) {
        busy.append(Unmanaged.passUnretained(node))
    }

    /// Ends the innermost busy node, waking threads that may wait for it.
    @inline(__always) func endBusy() {
        busy.removeLast()
        if suspended.value.load(ordering: .relaxed) > 0 { Suspensions.notify() }
    }

    /// Waits, with this thread's lock released, until the busy `node` of another thread has
    /// moved on (the caller checks again). Returns false without waiting when that thread
    /// waits, directly or through others, for this one: a dependency cycle across threads.
    func waitUntilNotBusy(_ node: Unmanaged<GraphNode>) -> Bool {
        pthread_mutex_lock(Suspensions.mutexForWaiters)
        if Suspensions.closesCycle(self, waitingFor: node) {
            pthread_mutex_unlock(Suspensions.mutexForWaiters)
            return false
        }
        waitingFor = node
        let seen = Suspensions.register(self)
        pthread_mutex_unlock(Suspensions.mutexForWaiters)
        let keep = node.takeUnretainedValue()
        released {
            Suspensions.wait(after: seen)
        } reacquire: { previous in
            lockOutermost(previous)
        }
        withExtendedLifetime(keep) {}
        return true
    }

    /// Releases this thread's lock (registered in ``Suspensions`` by the caller, for `wait`),
    /// runs `wait`, takes the lock back with `reacquire` (given the component held before) and
    /// unregisters. The nodes the thread's checks and computations refer to unretained are
    /// kept alive meanwhile: other threads may recompute the nodes that hold them.
    func released(_ wait: () -> Void, reacquire: (GraphComponent) -> Void) {
        let savedDepth = depth
        let previous = held.unsafelyUnwrapped.takeUnretainedValue()
        if isChecking {
            // The nodes being checked look validated (see ``DerivedNode/forgetValidation(in:)``);
            // not those of a check in the nursery, just placed in a component this thread
            // does not hold (and without values: nothing could read them as validated).
            if previous !== GraphComponent.nursery {
                for index in checkStack.indices { checkStack[index].node._withUnsafeGuaranteedRef { $0.forgetValidation(in: self) } }
            }
            for index in checkStack.indices { keptWhileChecking.append(checkStack[index].node.takeUnretainedValue()) }
            for index in busy.indices { keptWhileChecking.append(busy[index].takeUnretainedValue()) }
        }
        let keep = busy.indices.map { busy[$0].takeUnretainedValue() }
        depth = 0
        held = nil
        heldMember = 0
        repeatedSource = 0
        repeatedDerived = 0
        previous.endChanges()
        pthread_mutex_unlock(previous.mutex)
        wait()
        reacquire(previous)
        depth = savedDepth
        Suspensions.unregister(self)
        // Other threads stamped nodes meanwhile: the runs in progress remove repeated reads.
        _ = nextEpoch()
        withExtendedLifetime(keep) {}
    }

    /// Registers this thread as waiting for no node and releases its lock to join `component`
    /// (see ``join(_:)``).
    func releasedToJoin(_ reacquire: (GraphComponent) -> Void) {
        Suspensions.withLock { _ = Suspensions.register(self) }
        released({}, reacquire: reacquire)
    }

    /// Waits until `source` is no longer being modified by another thread; traps when this
    /// thread is the one modifying it (a read or write inside its own `modify` body).
    @usableFromInline func waitForModify<Value>(of source: SourceNode<Value>) {
        while source.isModifying {
            if !isBusyElsewhere(source) { SourceNode<Value>.accessedWhileModifying() }
            if !waitUntilNotBusy(Unmanaged.passUnretained(source)) {
                preconditionFailure("Signals: threads wait for each other's derived computations and modify bodies (a dependency cycle across threads).")
            }
        }
    }
}
