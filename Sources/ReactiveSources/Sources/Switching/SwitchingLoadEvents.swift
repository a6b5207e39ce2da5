import Signals
import Synchronization

extension Property {
    /// The events of whichever signal `signal(value)` gives for the current value: on every
    /// change the previous inner signal is no longer observed (switch-latest).
    func switchLatest<Event: Sendable>(_ signal: @escaping @Sendable (Value) -> Signal<Event>) -> Signal<Event> {
        Signal { observer in
            let inner = Mutex<(subscription: SignalSubscription?, isCancelled: Bool)>((nil, false))
            let outer = self.observe { value in
                let replaced = inner.withLock { $0.subscription.take() }
                replaced?.cancel()
                let next = signal(value).observe(observer)
                let keep = inner.withLock { state -> Bool in
                    guard !state.isCancelled else { return false }
                    state.subscription = next
                    return true
                }
                if !keep { next.cancel() }
            }
            return SignalSubscription {
                outer.cancel()
                let last = inner.withLock { state -> SignalSubscription? in
                    state.isCancelled = true
                    return state.subscription.take()
                }
                last?.cancel()
            }
        }
    }
}
