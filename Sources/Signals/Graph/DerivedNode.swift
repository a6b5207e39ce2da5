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
/// closure at all for `==`).
class DerivedNode<Value>: ValueNode<Value>, @unchecked Sendable {
    // The flags live in `stamp` (see `NodeFlags`).
    private var hasValue: Bool {
        @inline(__always) get { has(.hasValue) }
        @inline(__always) set { set(.hasValue, newValue) }
    }
    /// Set by the push phase while watched; cleared once validated.
    private var isStale: Bool {
        @inline(__always) get { has(.isStale) }
        @inline(__always) set { set(.isStale, newValue) }
    }
    /// Whether this node is in its dependencies' subscriber lists (true while observed).
    private var isLinked: Bool {
        @inline(__always) get { has(.isLinked) }
        @inline(__always) set { set(.isLinked, newValue) }
    }
    private var isComputing: Bool {
        @inline(__always) get { has(.isComputing) }
        @inline(__always) set { set(.isComputing, newValue) }
    }
    /// The current value, initialised once `hasValue` is true.
    private let storage: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var dependencies = DependencyList()
    /// `graph.globalVersion` at the last validation, for unwatched reads.
    @exclusivity(unchecked) private var validatedAt: UInt64 = 0

    override init() {
        storage = .allocate(capacity: 1)
        super.init()
        isStale = true
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

    private func dependencyChanged() -> Bool {
        // A copy, kept alive for the walk: a refresh may reach this node again and replace
        // `dependencies` (a cycle, or a write from a derived closure).
        let checked = dependencies
        return withExtendedLifetime(checked) {
            checked.contains { node, seen in
                node.refresh()
                return node.version != seen
            }
        }
    }

    private func recompute(in graph: Graph) {
        let run = graph.beginRun()
        // Until the links are settled below: a cycle reaching this node meanwhile gets the
        // previous value, and gaining or losing subscribers is settled afterwards.
        isComputing = true
        let newValue = evaluate(hasValue ? UnsafePointer(storage) : nil)
        graph.endRun(run)
        let sameNodes = graph.collected.withUnsafeBufferPointer { collected in
            dependencies.updateVersions(ifSameNodesAs: UnsafeBufferPointer(rebasing: collected[run.start...]))
        }
        if !sameNodes {
            let new = graph.collected.withUnsafeBufferPointer { collected in
                DependencyList(UnsafeBufferPointer(rebasing: collected[run.start...]))
            }
            let old = dependencies
            dependencies = new
            // Linking may run other computations, which push onto `collected`: this run's
            // reads are only dropped afterwards, and `old` and `new` keep their nodes alive.
            if isLinked {
                relink(from: old, to: new)
            }
        }
        isComputing = false
        graph.dropReads(of: run)
        defer { settleLinks() }
        if hasValue {
            if isUnchanged(storage.pointee, newValue) { return }
            storage.pointee = newValue
        } else {
            storage.initialize(to: newValue)
            hasValue = true
        }
        version &+= 1
    }

    /// Links or unlinks this node if it gained its first subscriber or lost its last one
    /// while it was computing or linking (those events wait until then).
    @inline(__always) private func settleLinks() {
        if isLinked == subscribers.isEmpty {
            if isLinked {
                unlink()
            } else {
                link(validating: false)
            }
        }
    }

    /// Moves this watched node's subscriptions from the old dependency set to the new one.
    /// Small lists (the usual case) are compared by linear search, large ones through sets.
    private func relink(from old: DependencyList, to new: DependencyList) {
        if old.count <= 16 && new.count <= 16 {
            new.forEachNode { node in
                if !old.containsNode(node) { node.addSubscriber(self) }
            }
            old.forEachNode { node in
                if !new.containsNode(node) { node.removeSubscriber(self) }
            }
            return
        }
        let oldIDs = old.nodeIdentifiers()
        let newIDs = new.nodeIdentifiers()
        new.forEachNode { node in
            if !oldIDs.contains(ObjectIdentifier(node)) { node.addSubscriber(self) }
        }
        old.forEachNode { node in
            if !newIDs.contains(ObjectIdentifier(node)) { node.removeSubscriber(self) }
        }
    }

    final override func markStale() {
        if isStale { return }
        isStale = true
        markSubscribersStale()
    }

    final override func didGainFirstSubscriber() {
        if isComputing { return }
        link(validating: true)
    }

    final override func didLoseLastSubscriber() {
        if isComputing { return }
        unlink()
    }

    /// Subscribes this node to its dependencies. Linking runs user code (a dependency that
    /// gains its first subscriber validates), which may cancel this node's last observer or
    /// add one: those events wait, and are settled once every link is made.
    private func link(validating: Bool) {
        let graph = Graph.shared
        if validating {
            // Unlinked validation brings the value up to date; from now on writes upstream
            // reach this node through `markStale`.
            validate(in: graph)
            // The validation may have settled the links itself (a recompute that gained or
            // lost subscribers meanwhile).
            guard !isLinked, !subscribers.isEmpty else { return }
        }
        isComputing = true
        isLinked = true
        isStale = false
        // A copy: it keeps the nodes alive even if linking reaches this node again.
        let linked = dependencies
        linked.forEachNode { $0.addSubscriber(self) }
        isComputing = false
        if subscribers.isEmpty {
            unlink()
            return
        }
        // A write during that validation or linking (from a derived closure) may have come
        // before the links existed: take the value as stale, and tell the subscribers.
        if validatedAt != graph.globalVersion { markStale() }
    }

    /// Unsubscribes this node from its dependencies (runs no user code).
    private func unlink() {
        isLinked = false
        let unlinked = dependencies
        unlinked.forEachNode { $0.removeSubscriber(self) }
        isStale = true
    }
}
