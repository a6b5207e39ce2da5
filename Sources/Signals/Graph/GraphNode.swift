import Synchronization

/// An edge from a derived node to a node it read, with the version it saw.
@usableFromInline
struct Dependency {
    @usableFromInline let node: GraphNode
    @usableFromInline var version: UInt64

    @usableFromInline init(node: GraphNode, version: UInt64) {
        self.node = node
        self.version = version
    }
}

/// A read recorded while a derived computation runs (``Graph/collected``): the node (retained
/// by hand while collected: a closure may read a node it made and dropped) and the version seen.
@usableFromInline
struct Read: BitwiseCopyable {
    @usableFromInline let node: Unmanaged<GraphNode>
    @usableFromInline let version: UInt64

    @inlinable init(node: Unmanaged<GraphNode>, version: UInt64) {
        self.node = node
        self.version = version
    }
}

/// A vertex of the reactive graph. All fields are guarded by the lock of its component.
///
/// Edges: a derived node owns its dependencies strongly; a node refers to its subscribers
/// (watched derived nodes and observations) without retaining them, so upstream nodes never
/// keep downstream ones alive. A derived node appears in its dependencies' subscriber lists
/// only while something observes it.
@usableFromInline
class GraphNode: DeliveryJob, @unchecked Sendable {
    /// The component whose lock guards this node (it may have been merged into another:
    /// the lock is its root's, see ``GraphComponent``), retained (+1); or, for a derived
    /// node whose inputs are unknown, ``GraphComponent/nursery`` (not retained) until its
    /// first computation places it (``Graph/leaveNursery(to:)``). Changes at most once, from
    /// the nursery, under the nursery's lock.
    @usableFromInline final let componentBits: Atomic<UInt>

    /// See ``componentBits``.
    @inlinable final var component: GraphComponent {
        @inline(__always) get {
            let bits = componentBits.load(ordering: .acquiring)
            if bits == GraphComponent.nurseryBits { return GraphComponent.nursery }
            return Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
        }
    }

    /// Whether this node is still in the nursery (see ``componentBits``).
    @inlinable @inline(__always) final var isUnplaced: Bool {
        componentBits.load(ordering: .acquiring) == GraphComponent.nurseryBits
    }

    /// Moves this unplaced node into `component`. Caller holds the nursery's lock.
    final func place(in component: GraphComponent) {
        componentBits.store(UInt(bitPattern: Unmanaged.passRetained(component).toOpaque()), ordering: .releasing)
    }
    /// Bumped whenever the node's value changes.
    @usableFromInline @exclusivity(unchecked) final var version: UInt64 = 0
    @exclusivity(unchecked) final var subscribers = SubscriberList()
    /// What a derived node read in its last run (empty for other nodes); kept here, not in
    /// the generic subclass, so that checks and runs walk it without a virtual call.
    @exclusivity(unchecked) final var dependencies = DependencyList()
    /// One word for the node's flags (low 8 bits, ``NodeFlags``) and, above them, the
    /// ``Graph/runEpoch`` of the last run that recorded a read of this node: sharing the word
    /// keeps a derived node within a 96-byte allocation. Epochs have 56 bits: they wrap after
    /// 2^56 recomputations (two years at a billion a second), and only a node last read
    /// exactly 2^56 runs earlier could then have a read skipped.
    ///
    /// Guarded by the component's lock like every other field; kept in an `Atomic` only so
    /// that its relaxed loads and stores stay whole 8-byte moves (a compiler narrows a plain
    /// `stamp |= flag` to a one-byte store, and a wider load of the word right after it
    /// stalls until that store retires).
    @usableFromInline final let stampWord = Atomic<UInt64>(0)

    /// See ``stampWord``.
    @inlinable final var stamp: UInt64 {
        @inline(__always) get { stampWord.load(ordering: .relaxed) }
        @inline(__always) set { stampWord.store(newValue, ordering: .relaxed) }
    }

    /// The ``Graph/runEpoch`` part of ``stamp``.
    @inlinable @inline(__always) final var trackEpoch: UInt64 {
        get { stamp &>> 8 }
        set { stamp = newValue &<< 8 | stamp & 0xFF }
    }

    /// Whether `flag` is set in ``stamp``.
    @inlinable @inline(__always) final func has(_ flag: NodeFlags) -> Bool {
        stamp & flag.rawValue != 0
    }

    /// Sets or clears `flag` in ``stamp``.
    @inlinable @inline(__always) final func set(_ flag: NodeFlags, _ on: Bool) {
        stamp = on ? stamp | flag.rawValue : stamp & ~flag.rawValue
    }

    @usableFromInline init(component: GraphComponent) {
        componentBits = Atomic(component === GraphComponent.nursery
            ? GraphComponent.nurseryBits : UInt(bitPattern: Unmanaged.passRetained(component).toOpaque()))
    }

    deinit {
        subscribers.deallocate()
        let bits = componentBits.load(ordering: .relaxed)
        if bits != GraphComponent.nurseryBits {
            Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        }
        // The nodes this one read may die with it, and theirs with them: released by the
        // thread's teardown loop, not by a recursion as deep as the chain.
        if !dependencies.isEmpty { Teardown.release(taking: &dependencies) }
    }

    /// Reads the value, refreshed and recorded as a read of the running computation, as
    /// `Property.value` would, without knowing its type (see ``ReadRecord``); nothing for
    /// nodes without a value. Caller holds the component's lock.
    func readValue(in graph: Graph) {}

    /// True for ``SourceNode``s, whose reads clients inline (see `Property.value`).
    @inlinable @inline(__always) final var isSource: Bool { has(.isSource) }

    /// Whether this derived node must be checked (or computed) before its value is used:
    /// it has no value, or something it read may have changed since it was last validated.
    /// False for source nodes and for a node that is computing (a dependency cycle).
    /// Flag tests only, except for an unwatched node with a value (``isValidated(in:)``).
    @inline(__always) final func needsCheck(in graph: Graph) -> Bool {
        let flags = stamp
        if flags & NodeFlags.isDerived.rawValue == 0 || flags & NodeFlags.isComputing.rawValue != 0 { return false }
        if flags & NodeFlags.hasValue.rawValue == 0 { return true }
        if flags & NodeFlags.isLinked.rawValue != 0 { return flags & NodeFlags.isStale.rawValue != 0 }
        return !isValidated(in: graph)
    }

    /// Whether this unwatched derived node was validated since the last write to its
    /// component (see ``needsCheck(in:)``).
    func isValidated(in graph: Graph) -> Bool { true }

    /// Marks this derived node validated now (before anything runs, so a cycle reaching it
    /// again stops there) and returns whether it has a value to keep if nothing it read changed.
    func beginCheck(in graph: Graph) -> Bool { true }

    /// ``beginCheck(in:)``, with a watched derived node's done inline: clearing its stale
    /// flag is all it needs (``isValidated(in:)`` is only asked of unwatched nodes, so the
    /// validation stamp of a watched one may stay behind: once unwatched, it is checked
    /// again, comparing versions).
    @inline(__always) final func beginWatchedCheck(in graph: Graph) -> Bool {
        let flags = stamp
        let watched = NodeFlags.isDerived.rawValue | NodeFlags.isLinked.rawValue
        if flags & watched == watched {
            stamp = flags & ~NodeFlags.isStale.rawValue
            return flags & NodeFlags.hasValue.rawValue != 0
        }
        return beginCheck(in: graph)
    }

    /// The `index`th node this derived node read in its last run (before its first run:
    /// of the inputs it was created with, if known), unretained, with the version seen;
    /// `nil` past the end.
    @inline(__always) final func dependency(at index: Int) -> (node: Unmanaged<GraphNode>, version: UInt64)? {
        dependencies.dependency(at: index)
    }

    /// Recomputes this derived node's value (its inputs are already up to date).
    func recompute(in graph: Graph) {}

    /// Called for a derived node this thread is checking when it releases its lock to wait
    /// (``Graph/released(_:reacquire:)``): see ``DerivedNode``.
    func forgetValidation(in graph: Graph) {}

    /// Called by the push phase when something upstream changed: returns true when the
    /// node's own subscribers must be marked in turn (a derived node that just became
    /// stale). An observation queues itself and returns false. Runs no user code.
    func becomeStale(in graph: Graph) -> Bool { false }

    /// Ends a batch's record of a write to this source node (see ``SourceNode``).
    func settleBatchWrite(in graph: Graph) {}

    /// Links or unlinks a derived node whose subscriber list became non-empty or empty
    /// (called by ``Graph/settleLinks()``, never while the node computes).
    func settleLink(in graph: Graph) {}

    /// ``becomeStale(in:)``, with a derived node's (a flag) done inline.
    @inline(__always) final func markStale(in graph: Graph) -> Bool {
        let flags = stamp
        if flags & NodeFlags.isDerived.rawValue == 0 { return becomeStale(in: graph) }
        if flags & NodeFlags.isStale.rawValue != 0 { return false }
        stamp = flags | NodeFlags.isStale.rawValue
        return true
    }

    /// Whether the node is computing (a derived node) or being modified (a source node).
    @inlinable @inline(__always) final var isBusy: Bool { stamp & (NodeFlags.isComputing.rawValue | NodeFlags.isModifying.rawValue) != 0 }

    /// Adds `node` to the subscribers; a first subscriber is linked by the graph's settle
    /// loop (iteratively, never by recursion down a chain).
    final func addSubscriber(_ node: GraphNode, in graph: Graph) {
        subscribers.append(Unmanaged.passUnretained(node))
        if subscribers.count == 1 && !isSource { graph.needsSettling(self) }
    }

    final func removeSubscriber(_ node: GraphNode, in graph: Graph) {
        // An empty list is not settled again below (nothing was removed).
        if subscribers.isEmpty { return }
        subscribers.remove(Unmanaged.passUnretained(node))
        if subscribers.isEmpty && !isSource { graph.needsSettling(self) }
    }

    /// Marks everything downstream of this node stale, iteratively (a worklist, so that a
    /// chain of any length marks in constant stack). Runs no user code and changes no
    /// subscriber list, so the subscribers are visited through their unretained references.
    final func markSubscribersStale(in graph: Graph) {
        var node = Unmanaged.passUnretained(self)
        let base = graph.markStack.count
        while true {
            let list = node._withUnsafeGuaranteedRef { $0.subscribers.rawBits }
            if let subscriber = SubscriberList.single(list) {
                // The usual chain: one subscriber, marked in turn if it became stale.
                if subscriber._withUnsafeGuaranteedRef({ $0.markStale(in: graph) }) {
                    node = subscriber
                    continue
                }
            } else {
                SubscriberList.forEach(list) { subscriber in
                    if subscriber._withUnsafeGuaranteedRef({ $0.markStale(in: graph) }) {
                        graph.markStack.append(subscriber)
                    }
                }
            }
            if graph.markStack.count > base {
                node = graph.markStack.removeLast()
            } else {
                return
            }
        }
    }
}

/// The flags kept in the low byte of ``GraphNode/stamp``.
@usableFromInline
struct NodeFlags: Sendable {
    @usableFromInline let rawValue: UInt64

    @inlinable init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A ``SourceNode``.
    @inlinable static var isSource: NodeFlags { NodeFlags(rawValue: 1) }
    /// A derived node's value is initialised.
    @inlinable static var hasValue: NodeFlags { NodeFlags(rawValue: 2) }
    /// Set by the push phase while a derived node is watched; cleared once validated.
    @inlinable static var isStale: NodeFlags { NodeFlags(rawValue: 4) }
    /// A derived node is in its dependencies' subscriber lists.
    @inlinable static var isLinked: NodeFlags { NodeFlags(rawValue: 8) }
    /// A derived node is computing.
    @inlinable static var isComputing: NodeFlags { NodeFlags(rawValue: 16) }
    /// A source node's value before a batch's first write to it is recorded (``SourceNode/settleBatchWrite(in:)``).
    @inlinable static var batchRecorded: NodeFlags { NodeFlags(rawValue: 32) }
    /// A source node's `modify` body is running.
    @inlinable static var isModifying: NodeFlags { NodeFlags(rawValue: 64) }
    /// A ``DerivedNode`` (whose staleness and checks are flag tests, see ``GraphNode/needsCheck(in:)``).
    @inlinable static var isDerived: NodeFlags { NodeFlags(rawValue: 128) }
}

/// A node holding a value of type `Value`.
@usableFromInline
class ValueNode<Value>: GraphNode, @unchecked Sendable {
    /// Returns the current value, refreshing it first. Caller holds the component's lock.
    @usableFromInline func currentValue(in graph: Graph) -> Value {
        fatalError("abstract")
    }

    final override func readValue(in graph: Graph) {
        _ = currentValue(in: graph)
    }
}
