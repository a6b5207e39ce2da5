/// A collection of subscriptions that cancels all of them when it is deinitialised
/// (or when ``cancelAll()`` is called). Thread-safe.
///
/// Typical use: a service owns a bag, and everything it observes is stored in it, so the
/// observations end with the service.
public final class SubscriptionBag: Sendable {
    private let lock = PlainLock()
    nonisolated(unsafe) private var subscriptions: [SignalSubscription] = []

    /// Creates an empty bag.
    public init() {}

    /// Adds a subscription. Adding one that is already cancelled is harmless.
    public func insert(_ subscription: SignalSubscription) {
        lock.withLock { subscriptions.append(subscription) }
    }

    /// The number of subscriptions held (cancelled ones included until ``cancelAll()``).
    public var count: Int { lock.withLock { subscriptions.count } }

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
