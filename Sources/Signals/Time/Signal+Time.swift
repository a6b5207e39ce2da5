extension Signal {
    /// Emits a value once `interval` has passed on `clock` without a newer event: a burst of
    /// events gives its last one, `interval` after it. Like swift-async-algorithms'
    /// `debounce(for:clock:)`, except that a signal never ends, so there is no final flush.
    ///
    /// Threading: events are delivered on a task of the clock's timer (not the sending thread),
    /// one at a time, in order, under the usual ``Signal`` rules. Each observation has its own
    /// timer (one `Task` while an event is pending); cancelling the subscription cancels it and
    /// drops the pending event. O(1) per event. A negative or zero interval emits each event
    /// on the timer task as soon as it runs, still after newer events replaced older ones.
    public func debounce<C: Clock>(for interval: C.Duration, clock: C) -> Signal<Value> {
        timed(interval: interval, clock: clock, mode: .debounce)
    }

    /// ``debounce(for:clock:)`` on the `ContinuousClock`.
    public func debounce(for interval: Duration) -> Signal<Value> {
        debounce(for: interval, clock: ContinuousClock())
    }

    /// Emits at most one event per `interval` on `clock`: an event when no window is open goes
    /// out at once (on the sending thread) and opens a window; events during the window are
    /// kept (the `latest` one, or the first if `latest` is false) and the kept one goes out
    /// when the window ends (on the timer's task), opening the next window.
    ///
    /// Unlike swift-async-algorithms' pull-based `throttle(for:clock:latest:)`, which hands over
    /// the kept element only when a later element arrives after the window, this emits it when
    /// the window ends (as Combine's `throttle(for:scheduler:latest:)` does), so the last event
    /// of a burst is never held back indefinitely. Cancelling the subscription cancels the timer
    /// and drops the kept event. O(1) per event.
    public func throttle<C: Clock>(for interval: C.Duration, clock: C, latest: Bool = true) -> Signal<Value> {
        timed(interval: interval, clock: clock, mode: .throttle(latest: latest))
    }

    /// ``throttle(for:clock:latest:)`` on the `ContinuousClock`.
    public func throttle(for interval: Duration, latest: Bool = true) -> Signal<Value> {
        throttle(for: interval, clock: ContinuousClock(), latest: latest)
    }

    /// Each observation: upstream -> gate -> a private pipe, so that the observer is called
    /// one event at a time and in order, whichever thread (sender or timer) emits.
    private func timed<C: Clock>(interval: C.Duration, clock: C, mode: TimerGate<Value, C>.Mode) -> Signal<Value> {
        Signal { observer in
            let (output, input) = Signal.pipe()
            let delivery = output.observe(observer)
            let gate = TimerGate(interval: interval, clock: clock, mode: mode) { input.send($0) }
            let upstream = self.observe { gate.receive($0) }
            return SignalSubscription.detaching({
                upstream.cancel()
                gate.cancel()
                delivery.cancel()
            }, lastCall: {
                await upstream.waitForLastCall()
                await delivery.waitForLastCall()
            })
        }
    }
}
