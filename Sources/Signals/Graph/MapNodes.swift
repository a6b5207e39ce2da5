import Synchronization

/// A derived node holding `transform(input's value)` (``Property/map(_:)``).
///
/// Its one closure, `step`, is built by the inlinable `map` in the caller's module, where
/// both types are known: it reads the input node directly (under the lock the computation
/// already holds, not through the public `value`, which looks the thread's graph up and
/// locks again), applies the transform, compares with the stored value (`==` for Equatable
/// results) and stores the new one, with no generic value-witness calls. The closure is a
/// constant, so calling it retains nothing.
///
/// The closure refers to the input unretained; the node retains it by hand and hands it to
/// the thread's teardown loop on deinit, so releasing a chain of maps of any length uses
/// constant stack (a transform that itself owns a long chain is released by recursion).
@usableFromInline
final class MapNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    private let input: Unmanaged<GraphNode>
    private let step: @Sendable (Graph, UnsafeMutablePointer<Value>, Bool) -> Bool

    /// `step(graph, storage, hasValue)` computes the value, stores it in `storage`
    /// (initialising it unless `hasValue`) and returns false when it is unchanged (leaving
    /// the old value).
    @usableFromInline init(input: GraphNode, step: @escaping @Sendable (Graph, UnsafeMutablePointer<Value>, Bool) -> Bool) {
        self.input = Unmanaged.passRetained(input)
        self.step = step
        super.init(inputs: [input])
    }

    deinit {
        var owned: GraphNode? = input.takeRetainedValue()
        Teardown.release(taking: &owned, leaving: nil)
    }

    override func computeAndStore(into storage: UnsafeMutablePointer<Value>, hasValue: Bool, in graph: Graph) -> Bool {
        step(graph, storage, hasValue)
    }
}

extension Graph {
    /// The value of `node`, read (and recorded) by the computation running on this thread,
    /// which holds a lock: taken again for `node` (joining its component if another).
    @inlinable @inline(__always) func read<Value>(_ node: ValueNode<Value>) -> Value {
        if holds(node) { return readHeld(node) }
        return readUnheld(node)
    }

    /// ``read(_:)`` of a node referred to unretained (kept alive by the caller).
    @inlinable @inline(__always) func read<Value>(_ node: Unmanaged<ValueNode<Value>>) -> Value {
        @inline(__always) func readNode(_ node: ValueNode<Value>) -> Value { read(node) }
        return node._withUnsafeGuaranteedRef(readNode)
    }

    /// `Property.value` and ``read(_:)`` of a node whose lock this thread does not know it
    /// holds: from outside any closure, a watched derived value that is up to date and
    /// trivially copyable is read with no lock (``DerivedNode/valueWithoutLock()``); anything
    /// else takes the lock around the read (joining components inside a closure) and, from
    /// outside any closure, delivers what that made due. The test of `Value` folds where it
    /// is known; the two reads are out of line, so that reads inside closures stay small.
    @inlinable @inline(__always) func readUnheld<Value>(_ node: ValueNode<Value>) -> Value {
        _isPOD(Value.self) ? readUnheldTrivial(node) : readUnheldNontrivial(node)
    }

    /// ``readUnheld(_:)`` of a trivially copyable value.
    @inlinable @inline(never) func readUnheldTrivial<Value>(_ node: ValueNode<Value>) -> Value {
        // Not while a computation records reads (a `ReadRecord` outside any closure): the
        // read must be tracked, under the lock.
        if _isPOD(Value.self) && depth == 0 && !isTracking && node.has(.isDerived),
           let value = unsafeDowncast(node, to: DerivedNode<Value>.self).valueWithoutLock() {
            return value
        }
        return readLocking(node)
    }

    /// ``readUnheld(_:)`` of a value that is not trivially copyable: the locked read. Apart,
    /// so that unspecialised callers (data sources) do not look up the metadata of the
    /// unlocked read's optional and temporary on every read.
    @inlinable @inline(never) func readUnheldNontrivial<Value>(_ node: ValueNode<Value>) -> Value {
        readLocking(node)
    }

    /// The locked read of ``readUnheld(_:)``.
    @inlinable @inline(__always) func readLocking<Value>(_ node: ValueNode<Value>) -> Value {
        lock(node)
        let value = readHeld(node)
        unlockAndDeliver()
        // Back to no lock: a `ReadRecord` recording outside any closure goes on tracking,
        // but the repeated-read shortcuts assume the lock held since the read (another
        // thread may write or modify meanwhile).
        if depth == 0 {
            repeatedSource = 0
            repeatedDerived = 0
        }
        return value
    }

    /// Whether this thread holds the lock of `node`'s component and knows it without a walk
    /// (``heldMember``): a read then needs no lock round trip, since taking the lock again
    /// would only count up ``depth`` and down again, with nothing to deliver in between
    /// (delivery waits for the outermost unlock).
    /// (`heldMember` is 0 whenever `depth` is 0, and no node's bits are 0: one comparison.)
    @inlinable @inline(__always) func holds(_ node: GraphNode) -> Bool {
        node.componentBits.load(ordering: .acquiring) == heldMember
    }

    /// The value of `node`, recorded as read by the running computation. Caller holds
    /// `node`'s component's lock.
    @inlinable @inline(__always) func readHeld<Value>(_ node: ValueNode<Value>) -> Value {
        if node.isSource {
            return Unmanaged.passUnretained(unsafeDowncast(node, to: SourceNode<Value>.self))
                ._withUnsafeGuaranteedRef { $0.trackedValue(in: self) }
        }
        return Unmanaged.passUnretained(unsafeDowncast(node, to: DerivedNode<Value>.self))
            ._withUnsafeGuaranteedRef { $0.value(in: self) }
    }
}
