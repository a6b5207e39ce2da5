/// A writable node: the storage behind `MutableProperty` and constant properties.
@usableFromInline
final class SourceNode<Value>: ValueNode<Value>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// True while a `modify` body runs.
    @inlinable var isModifying: Bool {
        @inline(__always) get { has(.isModifying) }
        @inline(__always) set { set(.isModifying, newValue) }
    }

    /// The value before a batch's first write to this node, initialised only while
    /// ``NodeFlags/batchRecorded`` is set; allocated by the first batched write and reused.
    @usableFromInline @exclusivity(unchecked) var before: UnsafeMutablePointer<Value>?
    /// The version before that write.
    @usableFromInline @exclusivity(unchecked) var versionBefore: UInt64 = 0
    /// For a trivial `Value`: the ``Graph/batchID`` of the batch whose first write to this
    /// node recorded ``before`` (see ``store(_:in:)``).
    @usableFromInline @exclusivity(unchecked) var recordedBatch: UInt64 = 0

    /// `component`: a new one unless given (a constant made inside another graph's lock).
    init(_ value: Value, isEqual: (@Sendable (Value, Value) -> Bool)?, component: GraphComponent = GraphComponent()) {
        self.value = value
        self.isEqual = isEqual
        super.init(component: component)
        set(.isSource, true)
    }

    deinit {
        before?.deallocate()
    }

    @usableFromInline override func currentValue(in graph: Graph) -> Value {
        trackedValue(in: graph)
    }

    /// The value, recorded as read by the running computation. Caller holds the component's lock.
    @inlinable @inline(__always) func trackedValue(in graph: Graph) -> Value {
        if _slowPath(isModifying) { graph.waitForModify(of: self) }
        graph.track(source: self)
        return value
    }

    /// Traps: the property was read or written from inside its own `modify` body.
    @usableFromInline static func accessedWhileModifying() -> Never {
        preconditionFailure("Signals: a MutableProperty was read or written from inside its own modify body; use the body's inout value instead.")
    }

    /// Stores `newValue` and marks everything downstream. Caller holds the component's lock.
    /// Returns false when the value was equal to the current one and nothing changed.
    /// Inlinable: a write from client code is specialised for `Value` (no value-witness calls).
    @inlinable @discardableResult
    func store(_ newValue: Value, in graph: Graph) -> Bool {
        // Called through the optional, not bound to a local: a bound copy of the closure is
        // retained for the call.
        guard let equal = isEqual?(value, newValue) else {
            value = newValue
            didChange(in: graph)
            return true
        }
        if equal { return false }
        if graph.batchDepth > 0 {
            if _isPOD(Value.self) {
                // The first write in this batch records the value before it; only a second
                // one can bring that value back, so only then is the node settled when the
                // batch ends (``settleBatchWrite(in:)``). A record left behind holds nothing
                // (a trivial value) and is overwritten by the next batch's first write.
                if recordedBatch != graph.batchID {
                    recordedBatch = graph.batchID
                    if before == nil { before = .allocate(capacity: 1) }
                    before.unsafelyUnwrapped.initialize(to: value)
                    versionBefore = version
                } else if !has(.batchRecorded) {
                    set(.batchRecorded, true)
                    graph.writes.append(self)
                }
            } else if !has(.batchRecorded) {
                // The first write to this node in this thread's batch: the value before it, to
                // compare with when the batch ends.
                set(.batchRecorded, true)
                if before == nil { before = .allocate(capacity: 1) }
                before.unsafelyUnwrapped.initialize(to: value)
                versionBefore = version
                graph.writes.append(self)
            }
        }
        value = newValue
        didChange(in: graph)
        return true
    }

    /// Called when the outermost batch that wrote this node ends: if its value equals the
    /// one before the batch, gives it back its version, so nothing that had not seen the
    /// values in between recomputes or is notified. Takes the node's lock.
    override func settleBatchWrite(in graph: Graph) {
        graph.lock(self)
        set(.batchRecorded, false)
        if let before {
            if let isEqual, isEqual(before.pointee, value) { version = versionBefore }
            before.deinitialize(count: 1)
        }
        graph.unlock()
    }

    /// Publishes an in-place change made to `value`.
    ///
    /// Versions of source nodes come from ``Graph/globalVersion``, so a version is never
    /// reused: a batch can give a node back the version it had (``settleBatchWrite(in:)``) without a
    /// later write repeating a version a derived node saw in between.
    @usableFromInline func didChange(in graph: Graph) {
        graph.repeatedDerived = 0
        graph.globalVersion &+= 1
        version = graph.globalVersion
        markSubscribersStale(in: graph)
    }
}
