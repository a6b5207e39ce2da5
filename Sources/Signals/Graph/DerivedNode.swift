/// A lazily computed node whose dependencies are discovered each time it runs.
///
/// Validation is pull-based: a write only marks watched derived nodes stale; the value is
/// recomputed when read, and only if a dependency's version actually changed since the last
/// run. A recomputed value equal to the previous one keeps the version, so nothing
/// downstream recomputes.
final class DerivedNode<Value>: ValueNode<Value>, @unchecked Sendable {
    private var value: Value?
    private let compute: @Sendable (Value?) -> Value
    private let isEqual: (@Sendable (Value, Value) -> Bool)?
    private var dependencies: ContiguousArray<Dependency> = []
    /// Set by the push phase while watched; cleared once validated.
    private var isStale = true
    /// Whether this node is in its dependencies' subscriber lists (true while observed).
    private var isLinked = false
    private var isComputing = false
    /// `graph.globalVersion` at the last validation, for unwatched reads.
    private var validatedAt: UInt64 = 0

    init(compute: @escaping @Sendable (Value?) -> Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.compute = compute
        self.isEqual = isEqual
    }

    override func currentValue(in graph: Graph) -> Value {
        if isComputing {
            guard let value else {
                preconditionFailure("Signals: a derived property read itself while computing its first value (dependency cycle).")
            }
            return value
        }
        validate(in: graph)
        graph.track(self)
        return value!
    }

    override func refresh() {
        validate(in: Graph.shared)
    }

    private func validate(in graph: Graph) {
        if value != nil {
            if !isLinked {
                if validatedAt == graph.globalVersion { return }
            } else if !isStale {
                return
            }
            if !dependencyChanged() {
                isStale = false
                validatedAt = graph.globalVersion
                return
            }
        }
        recompute(in: graph)
        isStale = false
        validatedAt = graph.globalVersion
    }

    private func dependencyChanged() -> Bool {
        for dependency in dependencies {
            dependency.node.refresh()
            if dependency.node.version != dependency.version { return true }
        }
        return false
    }

    private func recompute(in graph: Graph) {
        let previousTracker = graph.tracker
        runEpoch = graph.nextEpoch()
        graph.tracker = self
        isComputing = true
        let newValue = compute(value)
        isComputing = false
        graph.tracker = previousTracker
        // `collectedDependencies` now holds this run's reads; swap so the old list's buffer
        // is reused by the next run.
        swap(&dependencies, &collectedDependencies)
        if isLinked {
            relink(from: collectedDependencies, to: dependencies)
        }
        collectedDependencies.removeAll(keepingCapacity: true)
        if let old = value, let isEqual, isEqual(old, newValue) { return }
        value = newValue
        version &+= 1
    }

    /// Moves this watched node's subscriptions from the old dependency set to the new one.
    private func relink(from old: ContiguousArray<Dependency>, to new: ContiguousArray<Dependency>) {
        if old.count == new.count && zip(old, new).allSatisfy({ $0.node === $1.node }) { return }
        let oldIDs = Set(old.map { ObjectIdentifier($0.node) })
        let newIDs = Set(new.map { ObjectIdentifier($0.node) })
        for dependency in new where !oldIDs.contains(ObjectIdentifier(dependency.node)) {
            dependency.node.addSubscriber(self)
        }
        for dependency in old where !newIDs.contains(ObjectIdentifier(dependency.node)) {
            dependency.node.removeSubscriber(self)
        }
    }

    override func markStale() {
        if isStale { return }
        isStale = true
        markSubscribersStale()
    }

    override func didGainFirstSubscriber() {
        // Unlinked validation brings the value up to date; from now on writes upstream
        // reach this node through `markStale`.
        validate(in: Graph.shared)
        for dependency in dependencies {
            dependency.node.addSubscriber(self)
        }
        isLinked = true
        isStale = false
    }

    override func didLoseLastSubscriber() {
        isLinked = false
        for dependency in dependencies {
            dependency.node.removeSubscriber(self)
        }
        isStale = true
    }
}
