/// A read-write observable value.
///
/// Writes are atomic and may come from any thread. For `Equatable` values a write equal to
/// the current value is ignored (no observer runs); pass `equals: nil` to notify on every
/// write. See ``Property`` for when and where observers run.
public final class MutableProperty<Value: Sendable>: Property<Value>, @unchecked Sendable {
    @usableFromInline let source: SourceNode<Value>

    /// Creates a property with an initial value and an optional equality used to ignore
    /// writes that do not change the value.
    public init(_ initial: Value, equals: (@Sendable (Value, Value) -> Bool)?) {
        source = SourceNode(initial, isEqual: equals)
        super.init(node: source)
    }

    /// Creates a property that notifies observers on every write.
    public convenience init(_ initial: Value) {
        self.init(initial, equals: nil)
    }

    /// The current value (``value`` of ``_SettablePropertyValue``, which reads through
    /// ``Property/value``): setting it notifies observers (after the current delivery, if
    /// called from inside an observer).
    public var _settableValue: Value {
        @inlinable @inline(__always) get { (self as Property<Value>).value }
        // Inlinable: the client's write is specialised for `Value`.
        @inlinable set {
            Graph.current._withUnsafeGuaranteedRef { graph in
                graph.lock(source)
                if _slowPath(source.isModifying) { graph.waitForModify(of: source) }
                source.store(newValue, in: graph)
                graph.unlockAndDeliver()
            }
        }
    }

    /// Atomically reads and modifies the value; no other write to this property can interleave.
    /// `body` runs with this property's graph locked: keep it short and do not wait on other
    /// threads. Touching a property of another graph in `body` joins the two graphs.
    /// If `body` throws, the value is left as `body` left it and observers are notified.
    /// Without an equality the value is mutated in place (no copy of large values).
    ///
    /// Inside `body`, use its inout argument: reading or writing this same property from
    /// inside `body` (`value`, `modify`, `swap`, directly or through a derived property that
    /// has to recompute from it) is a precondition failure, because it would see, or
    /// overwrite, a half-made value. Other properties may be read and written; observers
    /// (of this property and of the others) run after `modify` returns, as for any write.
    @discardableResult
    public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let graph = Graph.current.takeUnretainedValue()
        graph.lock(source)
        defer { graph.unlockAndDeliver() }
        if _slowPath(source.isModifying) { graph.waitForModify(of: source) }
        source.isModifying = true
        graph.repeatedSource = 0
        graph.repeatedDerived = 0
        graph.beginBusy(source)
        guard source.isEqual != nil else {
            defer {
                source.isModifying = false
                graph.endBusy()
                source.didChange(in: graph)
            }
            return try body(&source.value)
        }
        var value = source.value
        defer {
            source.isModifying = false
            graph.endBusy()
            source.store(value, in: graph)
        }
        return try body(&value)
    }

    /// Atomically replaces the value and returns the old one.
    @discardableResult
    public func swap(_ newValue: Value) -> Value {
        modify { value in
            let old = value
            value = newValue
            return old
        }
    }

    /// A read-only view of this property, for exposing it without its setter.
    public var readOnly: Property<Value> {
        Property(node: source)
    }
}

extension MutableProperty where Value: Equatable {
    /// Creates a property that ignores writes equal to the current value.
    /// Inlinable: the equality is made in the client's module, specialised for `Value` (a
    /// closure with no context: each write compares with no witness call and no retain).
    @inlinable
    public convenience init(_ initial: Value) {
        self.init(initial, equals: { $0 == $1 })
    }
}

/// What gives ``MutableProperty`` a settable `value` (not for other types).
///
/// ``Property/value`` is `final`, so that a read of any property from client code is
/// specialised for its type and inlined instead of going through the class's vtable to
/// unspecialised generic code (which an overriding `MutableProperty.value` would force on
/// every `Property` read). A class cannot override a final property, so the setter lives in
/// this protocol's extension: Swift picks it for assignments (the getter of ``Property``
/// cannot be assigned to) and ``Property/value`` for reads.
public protocol _SettablePropertyValue: AnyObject {
    associatedtype Value
    var _settableValue: Value { get set }
}

extension _SettablePropertyValue {
    /// The current value. Setting it notifies observers (after the current delivery, if
    /// called from inside an observer).
    @inlinable public var value: Value {
        @inline(__always) get { _settableValue }
        @inline(__always) set { _settableValue = newValue }
    }
}

extension MutableProperty: _SettablePropertyValue {}
