import Foundation

extension Property {
    /// Calls `observer` on the main actor with the current value, then with the latest value
    /// after each change. Values that arrive faster than the main actor runs are coalesced:
    /// the observer always ends with the latest value, in order, never an older one after a
    /// newer. After `cancel()` returns, no call starts. The returned subscription's
    /// `waitForLastCall()` does not wait for a main-actor call in progress (it returns at
    /// once): to know that the last call ended, have the observer report it.
    public func observeLatestOnMainActor(_ observer: @escaping @MainActor (Value) -> Void) -> SignalSubscription {
        let delivery = MainActorLatest<Value>(observer: observer)
        let subscription = observe { delivery.enqueue($0) }
        return SignalSubscription {
            delivery.cancel()
            subscription.cancel()
        }
    }
}

/// The latest value waiting for one main-actor observer.
final class MainActorLatest<Value: Sendable>: @unchecked Sendable {
    private let observer: @MainActor (Value) -> Void
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var latest: Value?
    private var scheduled = false
    private var cancelled = false

    init(observer: @escaping @MainActor (Value) -> Void) {
        self.observer = observer
    }

    func enqueue(_ value: Value) {
        let schedule = lock.withLock { () -> Bool in
            guard !cancelled else { return false }
            latest = value
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { Task { @MainActor in self.deliver() } }
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            latest = nil
        }
    }

    @MainActor
    private func deliver() {
        let value = lock.withLock { () -> Value? in
            defer {
                latest = nil
                scheduled = false
            }
            return cancelled ? nil : latest
        }
        if let value { observer(value) }
    }
}
