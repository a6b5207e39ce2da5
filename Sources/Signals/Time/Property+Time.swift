import Synchronization

extension Property {
    /// A property that starts with this property's current value and then takes each new value
    /// once `interval` has passed on `clock` without a newer one (search text typed quickly
    /// gives one value, `interval` after the last keystroke).
    ///
    /// The returned property observes this one for as long as it is alive; dropping it cancels
    /// the timer and drops a pending value. Its writes happen on the timer's task; observe it
    /// as any property (see ``Property`` for threading). O(1) per change.
    public func debounce<C: Clock>(for interval: C.Duration, clock: C) -> Property<Value> {
        timed(interval: interval, clock: clock, mode: .debounce)
    }

    /// ``debounce(for:clock:)`` on the `ContinuousClock`.
    public func debounce(for interval: Duration) -> Property<Value> {
        debounce(for: interval, clock: ContinuousClock())
    }

    /// A property that takes at most one new value per `interval` on `clock`: it starts with
    /// the current value, which opens a window; changes during a window are kept (the latest,
    /// or the first if `latest` is false) and taken when the window ends. See
    /// ``Signal/throttle(for:clock:latest:)`` for how this compares with swift-async-algorithms.
    /// Dropping the returned property cancels its timer. O(1) per change.
    public func throttle<C: Clock>(for interval: C.Duration, clock: C, latest: Bool = true) -> Property<Value> {
        timed(interval: interval, clock: clock, mode: .throttle(latest: latest))
    }

    /// ``throttle(for:clock:latest:)`` on the `ContinuousClock`.
    public func throttle(for interval: Duration, latest: Bool = true) -> Property<Value> {
        throttle(for: interval, clock: ContinuousClock(), latest: latest)
    }

    private func timed<C: Clock>(interval: C.Duration, clock: C, mode: TimerGate<Value, C>.Mode) -> Property<Value> {
        let output = MutableProperty(value, equals: nil)
        let gate = TimerGate(interval: interval, clock: clock, mode: mode) { [weak output] value in
            output?.value = value
        }
        // The current value is the first one observed: a debounce takes it at once (it is the
        // starting value), a throttle lets it open the first window.
        let isFirst = Mutex(true)
        let upstream = observe { value in
            let first = isFirst.withLock { first in
                defer { first = false }
                return first
            }
            if first, case .debounce = mode { output.value = value } else { gate.receive(value) }
        }
        let subscription = SignalSubscription.detaching({
            upstream.cancel()
            gate.cancel()
        }, lastCall: { await upstream.waitForLastCall() })
        return HoldingProperty(source: output, keeping: subscription)
    }
}
