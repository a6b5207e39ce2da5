/// A derived node holding `transform(input's value)` (``Property/map(_:)``). It reads its
/// input node directly, under the lock its computation already holds, rather than through a
/// closure calling the public `value` (which looks the thread's graph up and locks again),
/// and its `transform` is a constant, so a call retains nothing.
///
/// The input is retained by hand and handed to the thread's teardown loop on deinit, so that
/// releasing a chain of maps of any length uses constant stack. The transform is released
/// normally: a transform that itself owns a long chain is released by recursion.
@usableFromInline
final class MapNode<Input, Value>: DerivedNode<Value>, @unchecked Sendable {
    private let input: Unmanaged<ValueNode<Input>>
    private let transform: @Sendable (Input) -> Value

    @usableFromInline init(input: ValueNode<Input>, transform: @escaping @Sendable (Input) -> Value) {
        self.input = Unmanaged.passRetained(input)
        self.transform = transform
        super.init(inputs: [input])
    }

    deinit {
        var owned: ValueNode<Input>? = input.takeRetainedValue()
        Teardown.release(taking: &owned, leaving: nil)
    }

    override func evaluate(_ previous: UnsafePointer<Value>?, in graph: Graph) -> Value {
        transform(input._withUnsafeGuaranteedRef { graph.read($0) })
    }
}

/// A ``MapNode`` whose recomputed values equal (`==`) to the previous one count as unchanged.
@usableFromInline
final class EquatableMapNode<Input, Value: Equatable>: DerivedNode<Value>, @unchecked Sendable {
    private let input: Unmanaged<ValueNode<Input>>
    private let transform: @Sendable (Input) -> Value

    @usableFromInline init(input: ValueNode<Input>, transform: @escaping @Sendable (Input) -> Value) {
        self.input = Unmanaged.passRetained(input)
        self.transform = transform
        super.init(inputs: [input])
    }

    deinit {
        var owned: ValueNode<Input>? = input.takeRetainedValue()
        Teardown.release(taking: &owned, leaving: nil)
    }

    override func evaluate(_ previous: UnsafePointer<Value>?, in graph: Graph) -> Value {
        transform(input._withUnsafeGuaranteedRef { graph.read($0) })
    }

    override func isUnchanged(_ old: Value, _ new: Value) -> Bool {
        old == new
    }
}

extension Graph {
    /// The value of `node`, read (and recorded) by the computation running on this thread,
    /// which holds a lock: taken again for `node` (joining its component if another).
    @inline(__always) func read<Value>(_ node: ValueNode<Value>) -> Value {
        lock(node)
        defer { unlock() }
        if node.isSource {
            return unsafeDowncast(node, to: SourceNode<Value>.self).trackedValue(in: self)
        }
        return node.currentValue(in: self)
    }
}
