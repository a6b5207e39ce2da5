/// A lazily computed node whose dependencies are discovered each time it runs.
///
/// Validation is pull-based: a write only marks watched derived nodes stale; the value is
/// recomputed when read, and only if a dependency's version actually changed since the last
/// run. A recomputed value equal to the previous one keeps the version, so nothing
/// downstream recomputes.
///
/// Performance: this code is not specialised for `Value` (it runs through the vtable from
/// other modules), so it avoids `Value?`: every use of an `Optional<Value>` in unspecialised
/// code asks the runtime for that type's metadata (a hash lookup), which was a third of all
/// instructions on the kairo shapes. The value lives in a one-element buffer instead, and
/// ``evaluate(_:)`` receives a pointer to the previous value (`nil` on the first run).
///
/// Abstract: the subclasses in `ComputedNodes.swift` store the computation and the
/// equality, so a node holds exactly the closures it needs (no wrapping closure, and no
/// closure at all for `==`). Fields are ordered so the flags share one word.
class DerivedNode<Value>: ValueNode<Value>, @unchecked Sendable {
    /// The current value, initialised once `hasValue` is true.
    private let storage: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var dependencies: ContiguousArray<Dependency> = []
    /// `graph.globalVersion` at the last validation, for unwatched reads.
    @exclusivity(unchecked) private var validatedAt: UInt64 = 0
    @exclusivity(unchecked) private var hasValue = false
    /// Set by the push phase while watched; cleared once validated.
    @exclusivity(unchecked) private var isStale = true
    /// Whether this node is in its dependencies' subscriber lists (true while observed).
    @exclusivity(unchecked) private var isLinked = false
    @exclusivity(unchecked) private var isComputing = false

    override init() {
        storage = .allocate(capacity: 1)
    }

    deinit {
        if hasValue { storage.deinitialize(count: 1) }
        storage.deallocate()
    }

    /// Computes the value; `previous` is `nil` on the first run and only valid during the call.
    func evaluate(_ previous: UnsafePointer<Value>?) -> Value {
        fatalError("abstract")
    }

    /// Whether a recomputed value counts as unchanged (nothing downstream recomputes).
    func isUnchanged(_ old: Value, _ new: Value) -> Bool {
        false
    }

    /// A dependency cycle reaching a node that is computing gets its previous value, untracked;
    /// on its first computation there is none, which is a precondition failure.
    final override func currentValue(in graph: Graph) -> Value {
        if isComputing {
            guard hasValue else {
                preconditionFailure("Signals: a derived property read itself while computing its first value (dependency cycle).")
            }
            return storage.pointee
        }
        validate(in: graph)
        graph.track(self)
        return storage.pointee
    }

    final override func refresh() {
        // Computing further up the stack (a dependency cycle): its version has not moved yet.
        if isComputing { return }
        validate(in: Graph.shared)
    }

    private func validate(in graph: Graph) {
        let version = graph.globalVersion
        if hasValue {
            if !isLinked {
                if validatedAt == version { return }
            } else if !isStale {
                return
            }
        }
        // Marked valid before anything runs: a dependency cycle that reaches this node again
        // (it is validating or computing further up the stack) returns its current value
        // instead of recursing without end; and a write made meanwhile (by a derived closure)
        // moves `globalVersion` past `validatedAt` or marks the node stale again, so the next
        // read validates again instead of keeping a value computed from before the write.
        isStale = false
        validatedAt = version
        if !hasValue || dependencyChanged() {
            recompute(in: graph)
        }
    }

    /// The buffer (kept alive for the loop) owns the nodes, so they are used unretained.
    private func dependencyChanged() -> Bool {
        if dependencies.count == 1 {
            let seen = dependencies[0].version
            return Unmanaged.passUnretained(dependencies[0].node)._withUnsafeGuaranteedRef { node in
                node.refresh()
                return node.version != seen
            }
        }
        return dependencies.withUnsafeBufferPointer { dependencies in
            for dependency in dependencies {
                let changed = Unmanaged.passUnretained(dependency.node)._withUnsafeGuaranteedRef { node in
                    node.refresh()
                    return node.version != dependency.version
                }
                if changed { return true }
            }
            return false
        }
    }

    private func recompute(in graph: Graph) {
        let previousTracker = graph.tracker
        runEpoch = graph.nextEpoch()
        graph.tracker = Unmanaged.passUnretained(self)
        isComputing = true
        let newValue = evaluate(hasValue ? UnsafePointer(storage) : nil)
        isComputing = false
        graph.tracker = previousTracker
        // `collectedDependencies` now holds this run's reads; swap so the old list's buffer
        // is reused by the next run.
        swap(&dependencies, &collectedDependencies)
        if isLinked {
            relink(from: collectedDependencies, to: dependencies)
        }
        collectedDependencies.removeAll(keepingCapacity: true)
        if hasValue {
            if isUnchanged(storage.pointee, newValue) { return }
            storage.pointee = newValue
        } else {
            storage.initialize(to: newValue)
            hasValue = true
        }
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

    final override func markStale() {
        if isStale { return }
        isStale = true
        markSubscribersStale()
    }

    final override func didGainFirstSubscriber() {
        // Unlinked validation brings the value up to date; from now on writes upstream
        // reach this node through `markStale`.
        let graph = Graph.shared
        validate(in: graph)
        for dependency in dependencies {
            dependency.node.addSubscriber(self)
        }
        isLinked = true
        isStale = false
        // A write during that validation (from a derived closure) may have come before the
        // links existed: take the value as stale, and tell the new subscriber.
        if validatedAt != graph.globalVersion { markStale() }
    }

    final override func didLoseLastSubscriber() {
        isLinked = false
        for dependency in dependencies {
            dependency.node.removeSubscriber(self)
        }
        isStale = true
    }
}
