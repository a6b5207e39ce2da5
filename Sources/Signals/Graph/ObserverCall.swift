#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An observer whose call a cancelling thread can wait for (``Graph/waitForCall(of:)``):
/// which thread is inside its closure, and how many threads wait for that call to end, so
/// that only the end of a call someone waits for wakes the waiting threads. Both are read
/// and written with the graph lock held.
protocol ObserverCall: AnyObject {
    /// The thread inside the observer's closure, if any.
    var runningThread: pthread_t? { get }
    /// How many threads wait in ``Graph/waitForCall(of:)`` for this observer's call to end.
    var waitingThreads: Int { get set }
}
