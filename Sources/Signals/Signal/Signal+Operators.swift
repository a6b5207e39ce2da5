import Synchronization

extension Signal {
    /// Transforms every event with `transform`. `transform` runs with no lock held, once per
    /// event per observer.
    public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Mapped) -> Signal<Mapped> {
        Signal<Mapped> { observer in self.observe { observer(transform($0)) } }
    }

    /// Forwards only the events for which `isIncluded` returns true.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal { observer in self.observe { if isIncluded($0) { observer($0) } } }
    }

    /// Transforms events and drops those mapped to `nil`.
    public func compactMap<Mapped: Sendable>(_ transform: @escaping @Sendable (Value) -> Mapped?) -> Signal<Mapped> {
        Signal<Mapped> { observer in self.observe { if let mapped = transform($0) { observer(mapped) } } }
    }

    /// Drops an event when `isEqual` says it equals the previous event seen by the same
    /// observer. The first event always passes.
    public func skipRepeats(_ isEqual: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value> {
        Signal { observer in
            let last = Mutex<Value?>(nil)
            return self.observe { value in
                let isRepeat = last.withLock { previous -> Bool in
                    defer { previous = value }
                    guard let previous else { return false }
                    return isEqual(previous, value)
                }
                if !isRepeat { observer(value) }
            }
        }
    }

    /// Merges this signal with others: events from all of them, in delivery order.
    public func merge(with others: Signal<Value>...) -> Signal<Value> {
        let all = [self] + others
        return Signal { observer in
            let subscriptions = all.map { $0.observe(observer) }
            return SignalSubscription.detaching(
                { subscriptions.forEach { $0.cancel() } },
                lastCall: {
                    for subscription in subscriptions { await subscription.waitForLastCall() }
                }
            )
        }
    }

    /// The current value followed by every event, as a property holding the latest event.
    /// The returned property keeps observing this signal for as long as it is alive.
    public func hold(initial: Value) -> Property<Value> {
        let property = MutableProperty(initial)
        let subscription = observe { [weak property] value in property?.value = value }
        return HoldingProperty(source: property, keeping: subscription)
    }
}

extension Signal where Value: Equatable {
    /// Drops an event equal to the previous one seen by the same observer.
    public func skipRepeats() -> Signal<Value> {
        skipRepeats({ $0 == $1 })
    }
}

/// A read-only view of a property that also keeps a subscription alive.
final class HoldingProperty<Value: Sendable>: Property<Value>, @unchecked Sendable {
    private let retained: (MutableProperty<Value>, SignalSubscription)

    init(source: MutableProperty<Value>, keeping subscription: SignalSubscription) {
        retained = (source, subscription)
        super.init(node: source.node)
    }
}
