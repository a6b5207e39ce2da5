import Synchronization

/// A handle to an observation. Cancel it to stop receiving values.
///
/// - After `cancel()` returns, the observer closure is never called again (a call that
///   another thread had already started may still be finishing).
/// - Cancelling twice, from any thread, or from inside the observer itself is safe.
/// - The observer closure is released when the subscription is cancelled.
/// - A subscription cancels itself when it is deinitialised: keep it (for example in a
///   ``SubscriptionBag``) for as long as you want values.
public final class Subscription: Sendable, Hashable {
    private let isCancelledFlag = Atomic<Bool>(false)
    private let onCancel: @Sendable () -> Void

    /// Creates a subscription that runs `onCancel` exactly once, on the first `cancel()`
    /// or on deinitialisation, whichever comes first.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { isCancelledFlag.load(ordering: .acquiring) }

    /// Stops the observation. Idempotent and thread-safe.
    public func cancel() {
        let (exchanged, _) = isCancelledFlag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged { onCancel() }
    }

    /// Adds this subscription to `bag`, which cancels it when the bag is deinitialised.
    public func store(in bag: SubscriptionBag) {
        bag.insert(self)
    }

    deinit {
        cancel()
    }

    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
