#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An observer whose call in progress can be awaited (``Graph/callEnded(of:)``).
/// Both properties are read and written with `callComponent`'s lock held; a delivery sets
/// `runningThread` when it calls the closure and ends the call with ``Graph/endCall(of:)``.
protocol ObserverCall: AnyObject, Sendable {
    /// The component whose lock guards the two properties below.
    var callComponent: GraphComponent { get }
    /// The thread inside the observer's closure, if any.
    var runningThread: pthread_t? { get set }
    /// Tasks waiting for the call in progress to end.
    var endWaiters: [CheckedContinuation<Void, Never>] { get set }
    /// Adds `waiter` to ``endWaiters`` while a call runs on another thread; false (nothing
    /// kept) when that call ended meanwhile. Caller holds the lock.
    func addEndWaiter(_ waiter: CheckedContinuation<Void, Never>) -> Bool
}

extension ObserverCall {
    /// For calls that start and end under the lock: the call cannot have ended meanwhile.
    func addEndWaiter(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        endWaiters.append(waiter)
        return true
    }
}
