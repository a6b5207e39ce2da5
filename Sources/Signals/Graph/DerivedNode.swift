import SignalsThreadLocal
import Synchronization

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
/// ``computeAndStore(into:hasValue:in:)`` computes straight into it.
///
/// Abstract: the subclasses in `ComputedNodes.swift` store the computation and the
/// equality, so a node holds exactly the closures it needs (no wrapping closure, and no
/// closure at all for `==`).
@usableFromInline
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
    /// The current value, initialised once `hasValue` is true, with ``validatedAt`` in the
    /// 8 bytes before it: in the node itself (``inlineStorage``) for values of up to 8 bytes,
    /// else in an allocation of its own. Set once, in `init`.
    @usableFromInline @exclusivity(unchecked) final var storage: UnsafeMutablePointer<Value>
    /// ``validatedAt`` and the value, for values of up to 8 bytes and alignment (one
    /// allocation a node fewer: see ``storage``).
    @exclusivity(unchecked) private var inlineStorage: (UInt64, UInt64) = (0, 0)
    /// `graph.globalVersion` at the last validation, for unwatched reads (see ``storage``).
    private var validatedAt: UInt64 {
        @inline(__always) get { UnsafeRawPointer(storage).load(fromByteOffset: -8, as: UInt64.self) }
        @inline(__always) set { UnsafeMutableRawPointer(storage).storeBytes(of: newValue, toByteOffset: -8, as: UInt64.self) }
    }

    /// Whether the value lives in ``inlineStorage``.
    private static var isInline: Bool { MemoryLayout<Value>.size <= 8 && MemoryLayout<Value>.alignment <= 8 }

    /// Where the value starts in its own allocation: after the 8 bytes of ``validatedAt``,
    /// or after as many bytes as the value's alignment if that is more.
    private static var valueOffset: Int { Swift.max(8, MemoryLayout<Value>.alignment) }

    /// `inputs`: the nodes the first run will read, when known (a `map` reads its parent),
    /// so that a long chain's first read computes them first, iteratively, instead of
    /// recursing through every closure of the chain.
    /// `component`: the first input's, when known (the node will read it and join it
    /// anyway), else the nursery (placed by the first computation).
    init(inputs: [GraphNode]) {
        if Self.isInline {
            // Replaced below: the address of a stored property exists once `self` does.
            storage = UnsafeMutablePointer(bitPattern: MemoryLayout<Value>.alignment)!
        } else {
            let offset = Self.valueOffset
            let base = UnsafeMutableRawPointer.allocate(byteCount: offset + MemoryLayout<Value>.stride, alignment: offset)
            base.storeBytes(of: 0, toByteOffset: offset - 8, as: UInt64.self)
            storage = (base + offset).bindMemory(to: Value.self, capacity: 1)
        }
        super.init(component: inputs.first.map { $0.isUnplaced ? GraphComponent.nursery : $0.component.root.takeUnretainedValue() } ?? GraphComponent.nursery)
        if Self.isInline {
            // A class's stored property does not move: its address stays valid for the node's life.
            storage = withUnsafeMutablePointer(to: &inlineStorage) { UnsafeMutableRawPointer($0) + 8 }
                .bindMemory(to: Value.self, capacity: 1)
        }
        if !inputs.isEmpty { dependencies = DependencyList(inputs: inputs) }
        isStale = true
        set(.isDerived, true)
    }

    deinit {
        if hasValue { storage.deinitialize(count: 1) }
        if !Self.isInline { (UnsafeMutableRawPointer(storage) - Self.valueOffset).deallocate() }
    }

    /// A dependency cycle reaching a node that is computing gets its previous value, untracked;
    /// on its first computation there is none, which is a precondition failure.
    @usableFromInline final override func currentValue(in graph: Graph) -> Value {
        // Computing on another thread that waits with its lock released: wait for it.
        while isComputing && graph.isBusyElsewhere(self) && graph.waitUntilNotBusy(Unmanaged.passUnretained(self)) {}
        if isComputing {
            guard hasValue else {
                preconditionFailure("Signals: a derived property read itself while computing its first value (dependency cycle).")
            }
            return storage.pointee
        }
        if needsCheck(in: graph) { graph.validate(self) }
        graph.track(self)
        return storage.pointee
    }

    /// The value, recorded as read: read inline (specialised in the caller) when the node
    /// is watched, validated since the last write upstream and not computing, which is what
    /// a pull finds below a node it just recomputed; otherwise ``currentValue(in:)``.
    /// Caller holds the component's lock.
    @inlinable @inline(__always) final func value(in graph: Graph) -> Value {
        let fresh = NodeFlags.hasValue.rawValue | NodeFlags.isLinked.rawValue
        let mask = fresh | NodeFlags.isStale.rawValue | NodeFlags.isComputing.rawValue
        let flags = stamp
        if flags & mask == fresh {
            graph.track(self)
            return storage.pointee
        }
        if flags & NodeFlags.isLinked.rawValue != 0 { return currentValue(in: graph) }
        // Read again in this run with nothing written since (see ``Graph/repeatedDerived``).
        if UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) == graph.repeatedDerived { return storage.pointee }
        return checkedValue(in: graph)
    }

    /// The value, read with no lock, for a thread that holds none (a read from outside any
    /// closure): the node must be watched and validated since the last write upstream, as
    /// ``value(in:)`` reads it, and `Value` trivially copyable; `nil` otherwise, or when a
    /// thread held the component's lock at any moment of the read (then the caller takes the
    /// lock). The component's ``GraphComponent/sequence`` is the same even number before and
    /// after: no lock holder changed anything meanwhile, so the value is the one a locked
    /// read would have returned at the first load. O(1) plus the root walk; no atomic
    /// read-modify-write.
    @inlinable @inline(__always) final func valueWithoutLock() -> Value? {
        guard _isPOD(Value.self) else { return nil }
        let bits = componentBits.load(ordering: .acquiring)
        if bits == GraphComponent.nurseryBits { return nil }
        let root = Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { $0.root }
        return root._withUnsafeGuaranteedRef { root -> Value? in
            let before = root.sequence.load(ordering: .acquiring)
            if before & 1 != 0 { return nil }
            let fresh = NodeFlags.hasValue.rawValue | NodeFlags.isLinked.rawValue
            let mask = fresh | NodeFlags.isStale.rawValue | NodeFlags.isComputing.rawValue | NodeFlags.isSource.rawValue
            if stamp & mask != fresh { return nil }
            if MemoryLayout<Value>.size == 8 && MemoryLayout<Value>.alignment == 8 {
                // One word (`Int`, `Double`, a pointer-sized struct): no temporary to copy through.
                let word = signals_load_word_unsynchronized(storage)
                atomicMemoryFence(ordering: .acquiring)
                if root.sequence.load(ordering: .relaxed) != before { return nil }
                return unsafeBitCast(word, to: Value.self)
            }
            return withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { copy -> Value? in
                signals_copy_unsynchronized(copy.baseAddress!, storage, UInt(MemoryLayout<Value>.size))
                atomicMemoryFence(ordering: .acquiring)
                if root.sequence.load(ordering: .relaxed) != before { return nil }
                return copy[0]
            }
        }
    }

    /// ``value(in:)`` of an unwatched node: specialised in the caller but not inlined (the
    /// read stays small enough to inline into client closures). One validated
    /// since the last write to its component (what ``needsCheck(in:)`` tests, as a closure
    /// reading the same unwatched node again in one run finds) is read here; anything else
    /// goes to ``currentValue(in:)``.
    @inlinable @inline(never) final func checkedValue(in graph: Graph) -> Value {
        let watched = NodeFlags.hasValue.rawValue | NodeFlags.isLinked.rawValue | NodeFlags.isComputing.rawValue
        if stamp & watched == NodeFlags.hasValue.rawValue
            && UnsafeRawPointer(storage).load(fromByteOffset: -8, as: UInt64.self)
                == graph.held.unsafelyUnwrapped._withUnsafeGuaranteedRef({ $0.globalVersion }) {
            graph.track(self)
            if graph.isTracking { graph.repeatedDerived = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) }
            return storage.pointee
        }
        return currentValue(in: graph)
    }

    final override func isValidated(in graph: Graph) -> Bool {
        validatedAt == graph.globalVersion
    }

    // Marked valid before anything runs: a dependency cycle that reaches this node again
    // (it is validating or computing further up) returns its current value instead of
    // recursing without end; and a write made meanwhile (by a derived closure) moves
    // `globalVersion` past `validatedAt` or marks the node stale again, so the next read
    // validates again instead of keeping a value computed from before the write.
    final override func beginCheck(in graph: Graph) -> Bool {
        // One load of the flags, then the store (see ``recompute(in:)``).
        let flags = stamp
        stamp = flags & ~NodeFlags.isStale.rawValue
        validatedAt = graph.globalVersion
        return flags & NodeFlags.hasValue.rawValue != 0
    }

    /// The check this thread has in progress cleared this node's mark (or stamped it
    /// validated) before looking at what it read (``beginCheck(in:)``), and the thread is
    /// about to release its lock to wait: until the check ends the value may be from before
    /// a write that has returned, so other threads must not take it as validated (neither a
    /// locked read nor ``valueWithoutLock()``). A watched node becomes stale again, with what
    /// is downstream of it (as a write's push leaves them); an unwatched one counts as not
    /// validated. The check goes on as before; the node is checked again (versions compared)
    /// on its next read. O(what is downstream).
    final override func forgetValidation(in graph: Graph) {
        let flags = stamp
        if flags & NodeFlags.isComputing.rawValue != 0 || flags & NodeFlags.hasValue.rawValue == 0 { return }
        if flags & NodeFlags.isLinked.rawValue != 0 {
            if becomeStale(in: graph) { markSubscribersStale(in: graph) }
        } else {
            // No placed component's version is 0 (see ``GraphComponent/nursery``).
            validatedAt = 0
        }
    }

    final override func recompute(in graph: Graph) {
        let run = graph.beginRun(for: self)
        // Until the links are settled below: a cycle reaching this node meanwhile gets the
        // previous value, and gaining or losing subscribers is settled afterwards.
        // The flags are read once and written whole: a narrow store to `stamp` followed by
        // a wider load of it stalls the load until the store retires.
        let flags = stamp
        stamp = flags | NodeFlags.isComputing.rawValue
        graph.beginBusy(self)
        // The new value and version are stored at once: the rest of this function runs no
        // user code before the node is consistent again.
        if computeAndStore(into: storage, hasValue: flags & NodeFlags.hasValue.rawValue != 0, in: graph) { version &+= 1 }
        hasValue = true
        // A first computation that read nothing placed: a component of its own.
        if isUnplaced { graph.leaveNursery(to: GraphComponent()) }
        let matched = graph.endRun(run)
        if let matched {
            if matched < dependencies.count { keepPrefix(matched, in: graph) }
        } else {
            // Asked again after anything that may run closures (which may grow, and so
            // move, `collected`): see ``replaceDependencies(in:reads:)``.
            replaceDependencies(in: graph) { graph.collected.buffer(from: run.start) }
        }
        isComputing = false
        graph.endBusy()
        graph.dropReads(of: run)
        if isLinked == subscribers.isEmpty { graph.needsSettling(self) }
    }

    /// Computes the value and stores it in `storage` (initialising it unless `hasValue`);
    /// returns false when it counts as unchanged (`storage` then keeps the old value).
    /// Each subclass does all of it in one call: its closure, its equality and the store.
    func computeAndStore(into storage: UnsafeMutablePointer<Value>, hasValue: Bool, in graph: Graph) -> Bool {
        fatalError("abstract")
    }

    /// After a run that read only the first `count` dependencies, in order: drops the rest.
    private func keepPrefix(_ count: Int, in graph: Graph) {
        var reads: [Read] = []
        reads.reserveCapacity(count)
        for index in 0..<count {
            let (node, version) = dependencies.dependency(at: index).unsafelyUnwrapped
            reads.append(Read(node: node, version: version))
        }
        reads.withUnsafeBufferPointer { buffer in replaceDependencies(in: graph) { buffer } }
    }

    /// Makes `reads()` (each node once, kept alive by the caller) the dependency list, moving
    /// the subscriptions of a watched node; reuses the list's buffer when it can (no check in
    /// progress may refer to its nodes: ``Graph/keepUntilChecked(_:)``). O(old x new) up to 16
    /// nodes each, through sets beyond. `reads` is called again after each step that may run
    /// closures: a dependency that gains or loses its first subscriber may be settled at once
    /// (validated), and a closure that runs then may grow `graph.collected`, where the reads
    /// can be, and so move it.
    private func replaceDependencies(in graph: Graph, reads: () -> UnsafeBufferPointer<Read>) {
        // The old list keeps its nodes alive while the subscriptions move.
        if isLinked { relink(in: graph, to: reads) }
        let reads = reads()
        if graph.isChecking || !dependencies.overwrite(with: reads) {
            let old = dependencies
            dependencies = DependencyList(reads)
            if graph.isChecking { graph.keepUntilChecked(old) }
        }
        // A node this run read for the first time was not linked yet: a write to it since
        // the read (by another thread while this one waited with its lock released, or by
        // this closure) marked nothing. Take the value as stale, as `settleLink` does, and
        // tell the subscribers.
        if isLinked && reads.contains(where: { $0.node._withUnsafeGuaranteedRef { $0.version } != $0.version })
            && becomeStale(in: graph) {
            markSubscribersStale(in: graph)
        }
    }

    /// Moves this watched node's subscriptions from its dependency list to the nodes of
    /// `reads()` (asked again after each subscription moved, see
    /// ``replaceDependencies(in:reads:)``).
    private func relink(in graph: Graph, to reads: () -> UnsafeBufferPointer<Read>) {
        // The list is not replaced meanwhile: this node is computing.
        dependencies.withReads { old in
            let count = reads().count
            if old.count <= 16 && count <= 16 {
                for index in 0..<count {
                    let node = reads()[index].node
                    if !Self.contains(node, in: old) { node._withUnsafeGuaranteedRef { $0.addSubscriber(self, in: graph) } }
                }
                for read in old where !Self.contains(read.node, in: reads()) {
                    read.node._withUnsafeGuaranteedRef { $0.removeSubscriber(self, in: graph) }
                }
                return
            }
            let oldIDs = Set(old.map { $0.node.toOpaque() })
            let newIDs = Set(reads().map { $0.node.toOpaque() })
            for index in 0..<count {
                let node = reads()[index].node
                if !oldIDs.contains(node.toOpaque()) { node._withUnsafeGuaranteedRef { $0.addSubscriber(self, in: graph) } }
            }
            for read in old where !newIDs.contains(read.node.toOpaque()) {
                read.node._withUnsafeGuaranteedRef { $0.removeSubscriber(self, in: graph) }
            }
        }
    }

    /// Whether `reads` has a read of `node`. O(reads).
    @inline(__always) private static func contains(_ node: Unmanaged<GraphNode>, in reads: UnsafeBufferPointer<Read>) -> Bool {
        var index = 0
        while index < reads.count {
            if reads[index].node.toOpaque() == node.toOpaque() { return true }
            index &+= 1
        }
        return false
    }

    final override func becomeStale(in graph: Graph) -> Bool {
        if isStale { return false }
        isStale = true
        return true
    }

    /// Links this node to its dependencies if it has subscribers and is not linked, or
    /// unlinks it if it has none and is linked. Linking first validates (which may run user
    /// code that changes the subscribers again: then the node is settled again later).
    final override func settleLink(in graph: Graph) {
        if isComputing || isLinked != subscribers.isEmpty { return }
        if isLinked {
            unlink(in: graph)
            return
        }
        // Unlinked validation brings the value up to date; from now on writes upstream
        // reach this node through the push phase.
        if needsCheck(in: graph) { graph.validate(self) }
        guard !isLinked, !subscribers.isEmpty, !isComputing else { return }
        isLinked = true
        isStale = false
        // In place: a node that gains its first subscriber is settled after this loop
        // (``Graph/needsSettling(_:)`` defers it while settling), so nothing changes the list.
        dependencies.forEachNode { $0.addSubscriber(self, in: graph) }
        // A write during that validation (from a derived closure) may have come before the
        // links existed: take the value as stale, and tell the subscribers.
        if validatedAt != graph.globalVersion && becomeStale(in: graph) { markSubscribersStale(in: graph) }
    }

    /// Unsubscribes this node from its dependencies (runs no user code).
    private func unlink(in graph: Graph) {
        isLinked = false
        // In place, as in ``settleLink(in:)``.
        dependencies.forEachNode { $0.removeSubscriber(self, in: graph) }
        isStale = true
    }
}
