/// One observer of a property: a leaf of the graph that is queued when its node changes
/// and, when delivered, pulls the node's value and calls the closure if the version moved.
final class PropertyObservation<Value>: GraphNode, Deliverable, @unchecked Sendable {
    private let node: ValueNode<Value>
    private var observer: (@Sendable (Value) -> Void)?
    private var deliveredVersion: UInt64
    private var isQueued = false

    /// Creates and attaches the observation. Caller holds the graph lock.
    init(node: ValueNode<Value>, emitsCurrentValue: Bool, observer: @escaping @Sendable (Value) -> Void, in graph: Graph) {
        self.node = node
        self.observer = observer
        self.deliveredVersion = 0
        super.init()
        node.addSubscriber(self)
        _ = node.currentValue(in: graph)
        if emitsCurrentValue {
            deliveredVersion = node.version &- 1
            isQueued = true
            graph.enqueue(self)
        } else {
            deliveredVersion = node.version
        }
    }

    override func markStale() {
        guard !isQueued, observer != nil else { return }
        isQueued = true
        Graph.shared.enqueue(self)
    }

    func deliver(in graph: Graph) {
        isQueued = false
        guard let observer else { return }
        let value = node.currentValue(in: graph)
        guard node.version != deliveredVersion else { return }
        deliveredVersion = node.version
        graph.unlock()
        observer(value)
        graph.lock()
    }

    /// Detaches from the graph and releases the closure. Caller holds the graph lock.
    func detach() {
        guard observer != nil else { return }
        observer = nil
        node.removeSubscriber(self)
    }
}
