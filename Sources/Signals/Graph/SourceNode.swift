/// A writable node: the storage behind `MutableProperty` and constant properties.
@usableFromInline
final class SourceNode<Value>: ValueNode<Value>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: Value
    let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// True while a `modify` body runs (on the thread holding the lock).
    @usableFromInline @exclusivity(unchecked) var isModifying = false

    init(_ value: Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.value = value
        self.isEqual = isEqual
        super.init()
        set(.isSource, true)
    }

    @usableFromInline override func currentValue(in graph: Graph) -> Value {
        trackedValue(in: graph)
    }

    /// The value, recorded as read by the running computation. Caller holds the graph lock.
    @inlinable @inline(__always) func trackedValue(in graph: Graph) -> Value {
        if _slowPath(isModifying) { Self.accessedWhileModifying() }
        graph.track(self)
        return value
    }

    /// Traps: the property was read or written from inside its own `modify` body.
    @usableFromInline static func accessedWhileModifying() -> Never {
        preconditionFailure("Signals: a MutableProperty was read or written from inside its own modify body; use the body's inout value instead.")
    }

    /// Stores `newValue` and marks everything downstream. Caller holds the graph lock.
    /// Returns false when the value was equal to the current one and nothing changed.
    @discardableResult
    func store(_ newValue: Value, in graph: Graph) -> Bool {
        if let isEqual, isEqual(value, newValue) { return false }
        value = newValue
        didChange(in: graph)
        return true
    }

    /// Publishes an in-place change made to `value`.
    func didChange(in graph: Graph) {
        version &+= 1
        graph.globalVersion &+= 1
        markSubscribersStale(in: graph)
    }
}
