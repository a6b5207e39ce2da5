import Synchronization

/// A handle to an observation. Cancel it to stop receiving values.
///
/// For the observations this module makes (``Property/observe(emitsCurrentValue:_:)``,
/// ``Signal/observe(_:)`` and the operators built on them):
/// - Once `cancel()` has returned, no new call of the observer closure starts, on any thread.
///   Values and events not delivered yet (deferred by a ``batch(_:)``, or queued behind an
///   observer that is running) are dropped.
/// - `cancel()` never waits for an observer call, from any thread or actor, inside or outside
///   observers: a call already in progress on another thread may still be running when it
///   returns, and runs to its end (no call after it). It takes its graph's lock only briefly.
///   So cancelling cannot deadlock against an observer, whatever that observer waits for.
/// - To know when the observer has run for the last time, `await` ``waitForLastCall()``
///   after `cancel()`: it returns once the call in progress (if any) has ended.
/// - Every call gives these guarantees, not only the first: cancelling twice, from several
///   threads at once, or from inside the observer itself is safe.
/// - `cancel()` releases the observer closure and the property it observed (with the derived
///   properties and what their closures capture), or, if a call is in progress on another
///   thread, the closure when that call returns.
/// - A subscription cancels itself when it is deinitialised (also from inside its own
///   observer): keep it (for example in a ``SubscriptionBag``) for as long as you want values.
///
/// A subscription made with ``init(onCancel:)`` runs `onCancel` on the first `cancel()`
/// only; later calls return at once, so its guarantees are those of `onCancel`, and its
/// ``waitForLastCall()`` returns at once.
///
/// Subscriptions compare and hash by identity: two subscriptions are equal only if they are
/// the same instance (whatever they observe), and cancelling does not change equality or
/// hash, so a cancelled subscription can still be found in and removed from a `Set`.
public final class SignalSubscription: Sendable, Hashable {
    private let isCancelledFlag = Atomic<Bool>(false)
    private let onCancel: @Sendable () -> Void
    /// Whether `onCancel` runs on every `cancel()` call, not only the first.
    private let cancelsEveryTime: Bool
    /// Awaits the end of the observer's call in progress (`nil`: nothing to await).
    private let lastCall: (@Sendable () async -> Void)?

    /// Creates a subscription that runs `onCancel` exactly once, on the first `cancel()`
    /// or on deinitialisation, whichever comes first.
    public convenience init(onCancel: @escaping @Sendable () -> Void) {
        self.init(onCancel: onCancel, everyTime: false)
    }

    private init(onCancel: @escaping @Sendable () -> Void, everyTime: Bool, lastCall: (@Sendable () async -> Void)? = nil) {
        self.onCancel = onCancel
        cancelsEveryTime = everyTime
        self.lastCall = lastCall
    }

    /// A subscription whose idempotent `detach` runs on every `cancel()` call (and on
    /// deinitialisation if never cancelled), so that a `cancel()` racing the first one also
    /// returns only once the observation is detached. `lastCall` awaits the end of the
    /// observer's call in progress.
    static func detaching(_ detach: @escaping @Sendable () -> Void, lastCall: @escaping @Sendable () async -> Void) -> SignalSubscription {
        SignalSubscription(onCancel: detach, everyTime: true, lastCall: lastCall)
    }

    /// Returns once no call of the observer closure is in progress: after `cancel()`, once
    /// the observer has run for the last time. Returns at once when no call is in progress,
    /// and when the call in progress runs on the awaiting thread (awaited from inside that
    /// observer, it cannot wait for itself). Never blocks a thread; task cancellation does
    /// not end the wait early. Before `cancel()`, a new call may start after it returns.
    public func waitForLastCall() async {
        await lastCall?()
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { isCancelledFlag.load(ordering: .acquiring) }

    /// Stops the observation: no new observer call starts after it returns. Never waits for
    /// an observer call. Idempotent and thread-safe; O(1) plus the detach from the graph.
    public func cancel() {
        let (exchanged, _) = isCancelledFlag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged || cancelsEveryTime { onCancel() }
    }

    /// Adds this subscription to `bag`, which cancels it when the bag is deinitialised.
    public func store(in bag: SubscriptionBag) {
        bag.insert(self)
    }

    deinit {
        let (exchanged, _) = isCancelledFlag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged { onCancel() }
    }

    /// Identity: true only when `lhs` and `rhs` are the same instance.
    public static func == (lhs: SignalSubscription, rhs: SignalSubscription) -> Bool { lhs === rhs }

    /// Hashes the instance's identity (consistent with `==`; unchanged by cancelling).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
