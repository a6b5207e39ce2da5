/// An edge from a derived node to a node it read, with the version it saw.
struct Dependency {
    let node: GraphNode
    var version: UInt64
}

/// A vertex of the reactive graph. All fields are guarded by the graph lock.
///
/// Edges: a derived node owns its dependencies strongly; a node refers to its subscribers
/// (watched derived nodes and observations) without retaining them, so upstream nodes never
/// keep downstream ones alive. A derived node appears in its dependencies' subscriber lists
/// only while something observes it.
class GraphNode: @unchecked Sendable {
    /// Bumped whenever the node's value changes.
    @exclusivity(unchecked) final var version: UInt64 = 0
    @exclusivity(unchecked) final var subscribers: ContiguousArray<Unmanaged<GraphNode>> = []
    /// The ``Graph/runEpoch`` of the last run that recorded a read of this node.
    @exclusivity(unchecked) final var trackEpoch: UInt64 = 0

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
class ValueNode<Value>: GraphNode, @unchecked Sendable {
    /// Returns the current value, refreshing it first. Caller holds the graph lock.
    func currentValue(in graph: Graph) -> Value {
        fatalError("abstract")
    }
}
