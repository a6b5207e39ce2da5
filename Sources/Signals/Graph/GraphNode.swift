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
    /// The ``Graph/runEpoch`` of the last run that recorded a read of this node.
    @usableFromInline @exclusivity(unchecked) final var trackEpoch: UInt64 = 0
    /// True for ``SourceNode``s, whose reads clients inline (see `Property.value`).
    @usableFromInline @exclusivity(unchecked) final var isSource = false

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

/// A node holding a value of type `Value`.
@usableFromInline
class ValueNode<Value>: GraphNode, @unchecked Sendable {
    /// Returns the current value, refreshing it first. Caller holds the graph lock.
    @usableFromInline func currentValue(in graph: Graph) -> Value {
        fatalError("abstract")
    }
}
