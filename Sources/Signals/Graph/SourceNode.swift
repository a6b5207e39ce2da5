/// A writable node: the storage behind `MutableProperty` and constant properties.
final class SourceNode<Value>: ValueNode<Value>, @unchecked Sendable {
    @exclusivity(unchecked) var value: Value
    let isEqual: (@Sendable (Value, Value) -> Bool)?

    init(_ value: Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.value = value
        self.isEqual = isEqual
    }

    override func currentValue(in graph: Graph) -> Value {
        graph.track(self)
        return value
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
        markSubscribersStale()
    }
}
