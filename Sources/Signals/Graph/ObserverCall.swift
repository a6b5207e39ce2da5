#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An observer whose call a cancelling thread can wait for (``Graph/waitForCall(of:)``).
/// Both properties are read and written with the graph lock held; a delivery sets
/// `runningThread` when it calls the closure and ends the call with ``Graph/endCall(of:)``.
protocol ObserverCall: AnyObject {
    /// The thread inside the observer's closure, if any.
    var runningThread: pthread_t? { get set }
    /// What threads waiting for the call sleep on; made by the first thread that waits.
    var callEnd: CallEndCondition? { get set }
}

/// A condition variable that threads waiting for one observer's call sleep on, so that the
/// end of that call wakes them and nothing else does.
final class CallEndCondition {
    let condition: UnsafeMutablePointer<pthread_cond_t>
    /// How many threads sleep on `condition`. Read and written with the graph lock held.
    var waiters = 0

    init() {
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }
}
