extension Property {
    /// A derived property holding `transform(value)`. `transform` runs lazily, while the
    /// graph is locked (keep it pure and fast).
    @inlinable
    public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Mapped) -> Property<Mapped> {
        let input = Unmanaged.passUnretained(node)
        return Property<Mapped>(node: MapNode(input: node) { graph, storage, hasValue in
            let new = transform(graph.read(input))
            if hasValue { storage.pointee = new } else { storage.initialize(to: new) }
            return true
        })
    }

    /// A derived property holding `transform(value)`, skipping equal results: observers and
    /// downstream properties are not notified when the mapped value does not change.
    @inlinable
    public func map<Mapped: Sendable & Equatable>(_ transform: @escaping @Sendable (Value) -> Mapped) -> Property<Mapped> {
        // The Equatable node cuts off equal results.
        let input = Unmanaged.passUnretained(node)
        return Property<Mapped>(node: MapNode(input: node) { graph, storage, hasValue in
            storeIfChanged(transform(graph.read(input)), into: storage, hasValue: hasValue)
        })
    }

    /// A property that ignores changes for which `isEqual(old, new)` is true.
    @inlinable
    public func skipRepeats(_ isEqual: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        Property(node: ClosureComputedNode(compute: { _ in self.value }, isEqual: isEqual, inputs: [node]))
    }

    /// Switch-to-latest: follows the property that `transform` returns for the current value,
    /// and switches when this property changes (for example "the objects of the currently
    /// selected source"). The previously followed property is no longer observed.
    @inlinable
    public func flatMap<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Property<Mapped>) -> Property<Mapped> {
        Property<Mapped>(node: ComputedNode({ transform(self.value).value }, inputs: [node]))
    }

    /// Pairs of the previous and the current value; `previous` is `nil` the first time.
    public func combinePrevious() -> Property<(previous: Value?, current: Value)> {
        Property<(previous: Value?, current: Value)>(
            node: ClosureComputedNode(compute: { last in (last?.pointee.current, self.value) }, isEqual: nil, inputs: [node])
        )
    }

    /// Discrete changes of this property, without the current value.
    public var changes: Signal<Value> {
        Signal { observer in self.observe(emitsCurrentValue: false, observer) }
    }
}

extension Property where Value: Equatable {
    /// A property that ignores writes or recomputations equal to the current value.
    @inlinable
    public func skipRepeats() -> Property<Value> {
        skipRepeats({ $0 == $1 })
    }
}

extension Property where Value == Bool {
    /// The logical negation of this property.
    public func negate() -> Property<Bool> {
        map { !$0 }
    }
}

/// A property holding the current values of all `properties` as a tuple. Glitch-free: a
/// single write that changes several inputs produces exactly one new tuple.
@inlinable
public func combineLatest<each Element: Sendable>(_ properties: repeat Property<each Element>) -> Property<(repeat each Element)> {
    Property<(repeat each Element)> { (repeat (each properties).value) }
}

/// A property holding the current values of `properties`, in order. Glitch-free.
/// An empty array is valid input: the result is a property whose value is always `[]`
/// (observers get `[]` once, and nothing after).
@inlinable
public func combineLatest<Element: Sendable>(_ properties: [Property<Element>]) -> Property<[Element]> {
    // Read through unretained references (`properties`, captured, keeps them alive): an
    // element read from the array is retained and released around each read, two atomic
    // operations per input per run.
    let inputs = properties.map { Unmanaged.passUnretained($0) }
    return Property<[Element]> {
        withExtendedLifetime(properties) { inputs.map { $0._withUnsafeGuaranteedRef { $0.value } } }
    }
}
