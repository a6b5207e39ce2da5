import Synchronization

/// A handle to an observation. Cancel it to stop receiving values.
///
/// For the observations this module makes (``Property/observe(emitsCurrentValue:_:)``,
/// ``Signal/observe(_:)`` and the operators built on them):
/// - Once `cancel()` has returned, no new call of the observer closure starts, on any thread.
///   Values and events not delivered yet (deferred by a ``batch(_:)``, or queued behind an
///   observer that is running) are dropped.
/// - `cancel()` waits for a call already in progress on another thread to return, so that
///   afterwards the closure is not running and never runs again, **when the calling thread
///   is not delivering to observers** (not inside any subscription's observer closure) and
///   is not inside a derived property's closure or a ``MutableProperty/modify(_:)`` body.
///   It sleeps while it waits (no spinning), woken when that call returns.
/// - From inside an observer closure (this subscription's own or another's, or anything that
///   runs while this thread delivers, such as a deinitialiser that delivery triggers), a
///   derived closure or a `modify` body, `cancel()` never waits: a call already in progress
///   on another thread may still be running when it returns, and runs to its end (no call
///   after it). This is what makes it safe for observers on two threads to cancel each
///   other: a thread that waits runs no observer, so no thread ever waits for a waiting one.
/// - A waiting `cancel()` deadlocks if the call it waits for is itself blocked on the
///   cancelling thread: do not cancel while holding a lock the observer takes, or on a
///   thread the observer synchronously waits for (`DispatchQueue.main.sync` from an
///   observer, cancelled on the main thread outside any observer).
/// - Every call gives these guarantees, not only the first: cancelling twice, from several
///   threads at once, or from inside the observer itself is safe.
/// - The observer closure is released by `cancel()`, or, if a call is in progress on another
///   thread, when that call returns.
/// - A subscription cancels itself when it is deinitialised: keep it (for example in a
///   ``SubscriptionBag``) for as long as you want values.
///
/// A subscription made with ``init(onCancel:)`` runs `onCancel` on the first `cancel()`
/// only; later calls return at once, so its guarantees are those of `onCancel`.
///
/// Subscriptions compare and hash by identity: two subscriptions are equal only if they are
/// the same instance (whatever they observe), and cancelling does not change equality or
/// hash, so a cancelled subscription can still be found in and removed from a `Set`.
public final class SignalSubscription: Sendable, Hashable {
    private let isCancelledFlag = Atomic<Bool>(false)
    private let onCancel: @Sendable () -> Void
    /// Whether `onCancel` runs on every `cancel()` call, not only the first.
    private let cancelsEveryTime: Bool

    /// Creates a subscription that runs `onCancel` exactly once, on the first `cancel()`
    /// or on deinitialisation, whichever comes first.
    public convenience init(onCancel: @escaping @Sendable () -> Void) {
        self.init(onCancel: onCancel, everyTime: false)
    }

    private init(onCancel: @escaping @Sendable () -> Void, everyTime: Bool) {
        self.onCancel = onCancel
        cancelsEveryTime = everyTime
    }

    /// A subscription whose idempotent `detach` runs on every `cancel()` call (and on
    /// deinitialisation if never cancelled), so that a `cancel()` racing the first one also
    /// returns only once the observation is detached (and, where allowed, waited for).
    static func detaching(_ detach: @escaping @Sendable () -> Void) -> SignalSubscription {
        SignalSubscription(onCancel: detach, everyTime: true)
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { isCancelledFlag.load(ordering: .acquiring) }

    /// Stops the observation. Idempotent and thread-safe; see the type's documentation for
    /// when it waits and what may still run after it returns.
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
