/// A derived node computed by a closure that reads other properties; every recomputation
/// counts as a change.
final class ComputedNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    private let compute: @Sendable () -> Value

    init(_ compute: @escaping @Sendable () -> Value) {
        self.compute = compute
    }

    override func evaluate(_ previous: UnsafePointer<Value>?) -> Value {
        compute()
    }
}

/// A derived node computed by a closure, whose recomputed values equal (`==`) to the
/// previous one count as unchanged.
final class EquatableComputedNode<Value: Equatable>: DerivedNode<Value>, @unchecked Sendable {
    private let compute: @Sendable () -> Value

    init(_ compute: @escaping @Sendable () -> Value) {
        self.compute = compute
    }

    override func evaluate(_ previous: UnsafePointer<Value>?) -> Value {
        compute()
    }

    override func isUnchanged(_ old: Value, _ new: Value) -> Bool {
        old == new
    }
}

/// A derived node whose computation receives the previous value (reducers, pairs of values)
/// or whose equality is a caller's closure.
final class ClosureComputedNode<Value>: DerivedNode<Value>, @unchecked Sendable {
    private let compute: @Sendable (UnsafePointer<Value>?) -> Value
    private let isEqual: (@Sendable (Value, Value) -> Bool)?

    /// `compute` gets the previous value (`nil` on the first run); the pointer is only valid
    /// during the call.
    init(compute: @escaping @Sendable (UnsafePointer<Value>?) -> Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.compute = compute
        self.isEqual = isEqual
    }

    override func evaluate(_ previous: UnsafePointer<Value>?) -> Value {
        compute(previous)
    }

    override func isUnchanged(_ old: Value, _ new: Value) -> Bool {
        guard let isEqual else { return false }
        return isEqual(old, new)
    }
}
