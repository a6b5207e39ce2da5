#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The lock of one connected component of the graph, and the component's version clock.
///
/// Every node belongs to a component, fixed when the node is made (a writable property and
/// a derived property whose inputs are unknown get a new one; `map` and the other operators
/// take their input's). A derived closure that reads a node of another component, or any
/// code that touches two components under one lock (a `modify` body, a closure that writes),
/// joins the two: union-find, by size, never split. Independent graphs therefore keep
/// independent locks, and a slow derived closure stalls only its own component.
///
/// Why this design (and not lock striping or per-node locks): a write must mark, and a read
/// validate, a whole connected set of nodes atomically to stay glitch-free, so the natural
/// unit of locking is the connected component; striping by node would make every write take
/// every stripe its downstream touches, in an order it cannot know before walking. Components
/// never split: after a join the two sides may read each other again at any time, and
/// splitting would need a graph walk on every unlink. See ``Graph`` for how a thread holding
/// one component acquires another without deadlock.
///
/// `parent` is written once, by a thread holding this component's mutex; anyone may follow
/// it without the lock. A component is a root while `parent` is nil; only the root's mutex
/// and `globalVersion` are used.
@usableFromInline
final class GraphComponent: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The component this one was merged into, retained (+1), or 0 while this is a root.
    @usableFromInline let parentBits = Atomic<UInt>(0)
    /// Bumped by every write to a source node of the component; lets unwatched derived nodes
    /// skip revalidation. Guarded by the root's mutex.
    @usableFromInline @exclusivity(unchecked) var globalVersion: UInt64 = 1
    /// How many components were merged into this one, itself included (union by size).
    @exclusivity(unchecked) var size = 1
    /// Even while no thread holds this root's lock, odd while one does, and odd for good once
    /// merged into another: a reader that finds the same even number before and after reading
    /// a node read a state no lock holder was changing (``DerivedNode/valueWithoutLock()``).
    /// Written only by the thread holding the lock (``beginChanges()``, ``endChanges()``).
    @usableFromInline let sequence = Atomic<UInt>(0)

    @usableFromInline init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    /// Where a derived node whose inputs are unknown (`Property { }`) starts, so that making
    /// one allocates no component: its first computation runs under the nursery's lock and
    /// moves it into the component of the first node it reads (or a new one if it reads
    /// none), see ``Graph/leaveNursery(to:)``. The nursery never merges, holds no source and
    /// its `globalVersion` stays 0 (no real component's is 0, so a node validated in it is
    /// checked again once placed). A thread never waits for another lock while holding it.
    @usableFromInline static let nursery: GraphComponent = {
        let nursery = GraphComponent()
        nursery.globalVersion = 0
        return nursery
    }()

    /// What ``GraphNode/componentBits`` holds for a node in the nursery: a constant no
    /// object address equals (a `static let` would cost a lazy-initialisation check per lock).
    @inlinable static var nurseryBits: UInt { 1 }

    deinit {
        let bits = parentBits.load(ordering: .relaxed)
        if bits != 0 { Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The root of this component's tree (itself when not merged). Without the lock: the
    /// answer may be out of date by the time it is locked, which ``Graph/lock(_:)`` checks.
    @inlinable @inline(__always) var root: Unmanaged<GraphComponent> {
        var current = Unmanaged.passUnretained(self)
        while true {
            let bits = current._withUnsafeGuaranteedRef { $0.parentBits.load(ordering: .acquiring) }
            if bits == 0 { return current }
            current = Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        }
    }

    /// Whether this is a root. Exact when the caller holds this component's mutex.
    @inlinable @inline(__always) var isRoot: Bool {
        parentBits.load(ordering: .acquiring) == 0
    }

    /// Called by the thread that has just taken this root's mutex: the sequence number
    /// turns odd before anything guarded by the lock changes. O(1), no atomic read-modify-write.
    @inlinable @inline(__always) func beginChanges() {
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
    }

    /// Called by the thread holding this root's mutex just before releasing it: the sequence
    /// number turns even after everything it changed. O(1).
    @inlinable @inline(__always) func endChanges() {
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    }

    /// Makes `self` (a root whose mutex the caller holds) a child of `root` (a root whose
    /// mutex the caller also holds), and releases `self`'s mutex: threads waiting for it
    /// retry on `root`.
    func merge(into root: GraphComponent) {
        root.size += size
        root.globalVersion = max(root.globalVersion, globalVersion) &+ 1
        parentBits.store(UInt(bitPattern: Unmanaged.passRetained(root).toOpaque()), ordering: .releasing)
        // The sequence number stays odd (see ``sequence``): readers go through the new root.
        pthread_mutex_unlock(mutex)
    }
}

/// A non-zero identifier of the calling thread.
@inlinable @inline(__always) func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A plain (non-recursive) mutex for small pieces of state outside the graph.
final class PlainLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
