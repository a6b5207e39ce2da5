/// A derived node computed by a closure that reads other properties; every recomputation
/// counts as a change.
@usableFromInline
final class ComputedNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    @exclusivity(unchecked) private var compute: (@Sendable () -> Value)?

    /// `inputs`: what `compute` reads first, when known (see ``DerivedNode/init(inputs:)``).
    @usableFromInline init(_ compute: @escaping @Sendable () -> Value, inputs: [GraphNode] = []) {
        self.compute = compute
        super.init(inputs: inputs)
    }

    deinit {
        // What the closure captures (upstream properties) is released iteratively.
        Teardown.release(taking: &compute, leaving: nil)
    }

    override func evaluate(_ previous: UnsafePointer<Value>?, in graph: Graph) -> Value {
        compute!()
    }
}

/// A derived node whose computation receives the previous value (reducers, pairs of values)
/// or whose equality is a caller's closure.
@usableFromInline
final class ClosureComputedNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    @exclusivity(unchecked) private var compute: (@Sendable (UnsafePointer<Value>?) -> Value)?
    private let isEqual: (@Sendable (Value, Value) -> Bool)?

    /// `compute` gets the previous value (`nil` on the first run); the pointer is only valid
    /// during the call. `inputs`: what `compute` reads first, when known.
    @usableFromInline init(
        compute: @escaping @Sendable (UnsafePointer<Value>?) -> Value,
        isEqual: (@Sendable (Value, Value) -> Bool)?,
        inputs: [GraphNode] = []
    ) {
        self.compute = compute
        self.isEqual = isEqual
        super.init(inputs: inputs)
    }

    deinit {
        Teardown.release(taking: &compute, leaving: nil)
    }

    override func evaluate(_ previous: UnsafePointer<Value>?, in graph: Graph) -> Value {
        compute!(previous)
    }

    override func isUnchanged(_ old: Value, _ new: Value) -> Bool {
        guard let isEqual else { return false }
        return isEqual(old, new)
    }
}

/// A derived node computed by a closure built in the caller's module (``Property/init(_:)``),
/// where `Value` is known: `step(storage, hasValue)` runs the user's closure, compares the
/// result with the stored value (`==` for Equatable values), stores it (initialising
/// `storage` unless `hasValue`) and returns false when it is unchanged; all specialised, with
/// no value-witness calls and no virtual equality test. The step's type does not depend on
/// how `Value` is passed, so the caller's closure is stored as is (no reabstraction thunk).
@usableFromInline
final class StepNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    @exclusivity(unchecked) private var step: (@Sendable (UnsafeMutablePointer<Value>, Bool) -> Bool)?

    @usableFromInline init(step: @escaping @Sendable (UnsafeMutablePointer<Value>, Bool) -> Bool) {
        self.step = step
        super.init(inputs: [])
    }

    deinit {
        // What the closure captures (upstream properties) is released iteratively.
        Teardown.release(taking: &step, leaving: nil)
    }

    override func computeAndStore(into storage: UnsafeMutablePointer<Value>, hasValue: Bool, in graph: Graph) -> Bool {
        step!(storage, hasValue)
    }
}
