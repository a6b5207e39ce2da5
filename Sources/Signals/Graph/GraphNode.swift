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

/// A vertex of the reactive graph. All fields are guarded by the graph lock.
///
/// Edges: a derived node owns its dependencies strongly; a node refers to its subscribers
/// (watched derived nodes and observations) without retaining them, so upstream nodes never
/// keep downstream ones alive. A derived node appears in its dependencies' subscriber lists
/// only while something observes it.
@usableFromInline
class GraphNode: @unchecked Sendable {
    /// Bumped whenever the node's value changes.
    @usableFromInline @exclusivity(unchecked) final var version: UInt64 = 0
    @exclusivity(unchecked) final var subscribers: ContiguousArray<Unmanaged<GraphNode>> = []
    /// One word for the node's flags (low 8 bits, ``NodeFlags``) and, above them, the
    /// ``Graph/runEpoch`` of the last run that recorded a read of this node: sharing the word
    /// keeps a derived node within a 96-byte allocation. Epochs have 56 bits: they wrap after
    /// 2^56 recomputations (two years at a billion a second), and only a node last read
    /// exactly 2^56 runs earlier could then have a read skipped.
    @usableFromInline @exclusivity(unchecked) final var stamp: UInt64 = 0

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

    /// True for ``SourceNode``s, whose reads clients inline (see `Property.value`).
    @inlinable @inline(__always) final var isSource: Bool { has(.isSource) }

    /// Brings the node's value up to date (derived nodes recompute if needed).
    func refresh() {}

    /// Called when an upstream value changed (push phase: mark only, never compute).
    func markStale() {}

    func didGainFirstSubscriber() {}

    func didLoseLastSubscriber() {}

    final func addSubscriber(_ node: GraphNode) {
        subscribers.append(Unmanaged.passUnretained(node))
        if subscribers.count == 1 { didGainFirstSubscriber() }
    }

    final func removeSubscriber(_ node: GraphNode) {
        guard let index = subscribers.firstIndex(where: { $0.toOpaque() == Unmanaged.passUnretained(node).toOpaque() }) else { return }
        subscribers.remove(at: index)
        if subscribers.isEmpty { didLoseLastSubscriber() }
    }

    /// Marking runs no user code and changes no subscriber list, so the subscribers are
    /// called through their unretained references.
    final func markSubscribersStale() {
        if subscribers.count == 1 {
            subscribers[0]._withUnsafeGuaranteedRef { $0.markStale() }
            return
        }
        for subscriber in subscribers {
            subscriber._withUnsafeGuaranteedRef { $0.markStale() }
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
    static var hasValue: NodeFlags { NodeFlags(rawValue: 2) }
    /// Set by the push phase while a derived node is watched; cleared once validated.
    static var isStale: NodeFlags { NodeFlags(rawValue: 4) }
    /// A derived node is in its dependencies' subscriber lists.
    static var isLinked: NodeFlags { NodeFlags(rawValue: 8) }
    /// A derived node is computing or linking.
    static var isComputing: NodeFlags { NodeFlags(rawValue: 16) }
}

/// A node holding a value of type `Value`.
@usableFromInline
class ValueNode<Value>: GraphNode, @unchecked Sendable {
    /// Returns the current value, refreshing it first. Caller holds the graph lock.
    @usableFromInline func currentValue(in graph: Graph) -> Value {
        fatalError("abstract")
    }
}
