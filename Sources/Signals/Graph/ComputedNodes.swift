/// A derived node computed by a closure that reads other properties; every recomputation
/// counts as a change.
@usableFromInline
final class ComputedNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    /// A constant: calling it retains nothing (a `var` would be copied, and retained, for
    /// each call).
    private let compute: @Sendable () -> Value
    /// Declared after `compute`, so destroyed after it (see ``TeardownTrigger``).
    private let teardown = TeardownTrigger()

    /// `inputs`: what `compute` reads first, when known (see ``DerivedNode/init(inputs:)``).
    @usableFromInline init(_ compute: @escaping @Sendable () -> Value, inputs: [GraphNode] = []) {
        self.compute = compute
        super.init(inputs: inputs)
    }

    deinit {
        // What the closure captures (upstream properties) is released iteratively.
        Teardown.release(compute, after: teardown)
    }

    override func computeAndStore(into storage: UnsafeMutablePointer<Value>, hasValue: Bool, in graph: Graph) -> Bool {
        let newValue = compute()
        if hasValue {
            storage.pointee = newValue
        } else {
            storage.initialize(to: newValue)
        }
        return true
    }
}

/// A derived node computed by a closure, whose recomputed values equal (`==`) to the
/// previous one count as unchanged.
///
/// `store` runs `compute`, compares and stores: built by the inlinable `Property.init` in
/// the caller's module, where `Value` is known, it captures nothing (no allocation) and
/// runs with no value-witness or witness-table call, which this class's own methods
/// (unspecialised: called through the vtable) would make for every copy and `==`.
@usableFromInline
final class EquatableComputedNode<Value: Equatable>: DerivedNode<Value>, @unchecked Sendable {
    /// Constants: calling them retains nothing (a `var` would be copied, and retained, for
    /// each call).
    private let compute: @Sendable () -> Value
    private let store: @Sendable (() -> Value, UnsafeMutablePointer<Value>, Bool) -> Bool
    /// Declared after `compute`, so destroyed after it (see ``TeardownTrigger``).
    private let teardown = TeardownTrigger()

    /// `store(compute, storage, hasValue)` computes the value, stores it in `storage`
    /// (initialising it unless `hasValue`) and returns false when it is equal to the stored
    /// one (leaving it). `inputs`: what `compute` reads first, when known
    /// (see ``DerivedNode/init(inputs:)``).
    @usableFromInline init(
        _ compute: @escaping @Sendable () -> Value,
        store: @escaping @Sendable (() -> Value, UnsafeMutablePointer<Value>, Bool) -> Bool,
        inputs: [GraphNode] = []
    ) {
        self.compute = compute
        self.store = store
        super.init(inputs: inputs)
    }

    deinit {
        Teardown.release(compute, after: teardown)
    }

    override func computeAndStore(into storage: UnsafeMutablePointer<Value>, hasValue: Bool, in graph: Graph) -> Bool {
        store(compute, storage, hasValue)
    }
}

/// A derived node whose computation receives the previous value (reducers, pairs of values)
/// or whose equality is a caller's closure.
@usableFromInline
final class ClosureComputedNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    /// A constant, as in ``ComputedNode``.
    private let compute: @Sendable (UnsafePointer<Value>?) -> Value
    private let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// Declared after the closures, so destroyed after them (see ``TeardownTrigger``).
    private let teardown = TeardownTrigger()

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
        Teardown.release(compute, after: teardown)
    }

    override func computeAndStore(into storage: UnsafeMutablePointer<Value>, hasValue: Bool, in graph: Graph) -> Bool {
        guard hasValue else {
            storage.initialize(to: compute(nil))
            return true
        }
        let newValue = compute(UnsafePointer(storage))
        if let isEqual, isEqual(storage.pointee, newValue) { return false }
        storage.pointee = newValue
        return true
    }
}

/// Stores `value` in `storage` (initialising it when `hasValue` is false) unless it equals
/// the value held; returns whether the node's value changed. The one cut-off rule of
/// Equatable nodes. O(1) plus one `==`.
@inlinable @inline(__always)
func storeIfChanged<Value: Equatable>(_ value: Value, into storage: UnsafeMutablePointer<Value>, hasValue: Bool) -> Bool {
    if hasValue {
        if storage.pointee == value { return false }
        storage.pointee = value
    } else {
        storage.initialize(to: value)
    }
    return true
}
