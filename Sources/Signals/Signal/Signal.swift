/// A stream of discrete events with no current value (taps, load events, errors).
///
/// Create one with ``pipe()``, which also returns the ``Input`` used to send. Unlike a
/// property, a signal never coalesces: every event sent is delivered to every observer
/// attached at the time of sending, in the order sent.
///
/// ## Threading
/// `send` and `observe` may be called from any thread. Observers run under the same rules as
/// property observers (see ``Property``): with no lock held, on the sending thread before
/// `send` returns, in the order they became due on that thread. Different observers may run
/// at the same time on different threads (each thread delivers what its own sends and writes
/// made due). One subscription's observer never runs concurrently with itself, and receives
/// events in the order they were sent, whichever threads sent them: if it is already running
/// on another thread, or an earlier event for it is still held there (by that thread's
/// ``batch(_:)``, or queued behind the observer it is running), the event waits and that
/// thread delivers it, so `send` may return before this observer has seen it. An event sent
/// from inside an observer is queued and delivered after that observer returns; one sent
/// inside a batch, when the batch ends.
///
/// Operators (``map(_:)``, ``filter(_:)``...) are cheap descriptions: each observation of a
/// derived signal observes its upstream with the composed closure, so an unobserved derived
/// signal holds nothing upstream.
public final class Signal<Value: Sendable>: Sendable {
    private let attach: @Sendable (_ observer: @escaping @Sendable (Value) -> Void) -> SignalSubscription

    /// Creates a signal from a function that attaches an observer and returns its subscription.
    /// Use this to build custom operators.
    public init(_ attach: @escaping @Sendable (_ observer: @escaping @Sendable (Value) -> Void) -> SignalSubscription) {
        self.attach = attach
    }

    /// Calls `observer` for every event sent after this call, until the subscription is
    /// cancelled or deinitialised.
    public func observe(_ observer: @escaping @Sendable (Value) -> Void) -> SignalSubscription {
        attach(observer)
    }

    /// The sending side of a signal created by ``Signal/pipe()``.
    public struct Input: Sendable {
        let channel: EventChannel<Value>

        /// Delivers `value` to every current observer (see ``Signal`` for ordering).
        public func send(_ value: Value) {
            channel.send(value)
        }
    }

    /// Creates a signal and the input that sends into it.
    public static func pipe() -> (signal: Signal<Value>, input: Input) {
        let channel = EventChannel<Value>()
        let signal = Signal { observer in channel.attach(observer) }
        return (signal, Input(channel: channel))
    }

    /// A signal that never sends anything.
    public static var never: Signal<Value> {
        Signal { _ in SignalSubscription {} }
    }
}

extension Signal.Input where Value == Void {
    /// Sends an event with no payload.
    public func send() {
        send(())
    }
}
