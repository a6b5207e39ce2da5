/// A collection of subscriptions that cancels all of them when it is deinitialised
/// (or when ``cancelAll()`` is called). Thread-safe.
///
/// Typical use: a service owns a bag, and everything it observes is stored in it, so the
/// observations end with the service.
public final class SubscriptionBag: Sendable {
    private let lock = PlainLock()
    nonisolated(unsafe) private var subscriptions: [SignalSubscription] = []
    /// When the array reaches this size, cancelled subscriptions are dropped from it.
    nonisolated(unsafe) private var pruneAt = 16

    /// Creates an empty bag.
    public init() {}

    /// Adds a subscription. Adding one that is already cancelled is harmless.
    ///
    /// Subscriptions cancelled elsewhere are dropped from the bag as it grows (whenever it
    /// doubles past the live ones), so a bag that keeps observing and cancelling stays as
    /// large as its live subscriptions: amortised O(1).
    public func insert(_ subscription: SignalSubscription) {
        lock.withLock {
            subscriptions.append(subscription)
            if subscriptions.count >= pruneAt {
                subscriptions.removeAll { $0.isCancelled }
                pruneAt = max(16, subscriptions.count * 2)
            }
        }
    }

    /// The number of subscriptions held that are not cancelled. O(n).
    public var count: Int { lock.withLock { subscriptions.count { !$0.isCancelled } } }

    /// Cancels and removes every subscription in the bag. The bag stays usable.
    public func cancelAll() {
        let taken = lock.withLock { () -> [SignalSubscription] in
            defer { subscriptions = [] }
            return subscriptions
        }
        for subscription in taken { subscription.cancel() }
    }

    deinit {
        for subscription in subscriptions { subscription.cancel() }
    }
}
