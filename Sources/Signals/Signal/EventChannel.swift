#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The observer list behind a piped signal. Guarded by the lock of its own component (a
/// signal is not a graph node: sending joins nothing, unless sent under another lock).
final class EventChannel<Value: Sendable>: @unchecked Sendable {
    private var observers: ContiguousArray<EventObserver<Value>> = []
    private let component = GraphComponent()

    func attach(_ closure: @escaping @Sendable (Value) -> Void) -> SignalSubscription {
        let component = component
        let observer = EventObserver(closure, component: component)
        Graph.current._withUnsafeGuaranteedRef { graph in
            graph.lock(component)
            observers.append(observer)
            graph.unlock()
        }
        // Idempotent, so it runs on every cancel() (see SignalSubscription).
        return SignalSubscription.detaching(
            { [weak self] in
                let graph = Graph.current.takeUnretainedValue()
                graph.lock(component)
                if observer.closure != nil {
                    observer.closure = nil
                    observer.parked.removeAll()
                    if let self, let index = self.observers.firstIndex(where: { $0 === observer }) {
                        self.observers.remove(at: index)
                    }
                }
                graph.unlockAndDeliver()
            },
            lastCall: { await Graph.callEnded(of: observer) }
        )
    }

    func send(_ value: Value) {
        let graph = Graph.current.takeUnretainedValue()
        graph.lock(component)
        for observer in observers {
            // The ticket fixes the event's place in the observer's order now, under the lock:
            // deliveries may be drained later by different threads (a batch defers them).
            graph.enqueue(EventDelivery(observer: observer, value: value, ticket: observer.nextTicket))
            observer.nextTicket &+= 1
        }
        graph.unlockAndDeliver()
    }
}

/// A registered closure; `nil` once cancelled. Guarded by the channel's lock.
final class EventObserver<Value>: ObserverCall, @unchecked Sendable {
    let callComponent: GraphComponent
    var closure: (@Sendable (Value) -> Void)?
    /// The thread inside `closure`, if any.
    var runningThread: pthread_t?
    var endWaiters: [CheckedContinuation<Void, Never>] = []
    /// The ticket of the next event sent, and of the next event to deliver.
    var nextTicket: UInt64 = 0
    var nextToDeliver: UInt64 = 0
    /// Events that cannot be delivered yet, by ticket: another thread is inside `closure`,
    /// or an earlier event is still queued on another thread (in a batch, say).
    var parked: [UInt64: Value] = [:]
    var feedback = FeedbackCounter()

    init(_ closure: @escaping @Sendable (Value) -> Void, component: GraphComponent) {
        self.closure = closure
        callComponent = component
    }
}

/// One event queued for one observer.
///
/// Events reach an observer in the order they were sent (their tickets), whichever thread
/// delivers them: an event whose turn has not come is parked, and the thread that delivers
/// its predecessor goes on with it.
final class EventDelivery<Value>: DeliveryJob, @unchecked Sendable {
    private let observer: EventObserver<Value>
    private let value: Value
    private let ticket: UInt64

    init(observer: EventObserver<Value>, value: Value, ticket: UInt64) {
        self.observer = observer
        self.value = value
        self.ticket = ticket
    }

    override func deliver(in graph: Graph) {
        graph.releaseKeptLock()
        graph.lock(observer.callComponent)
        defer { graph.unlock() }
        // A ticket before the next to deliver was dropped by a feedback loop's report.
        guard observer.closure != nil, ticket >= observer.nextToDeliver else { return }
        observer.parked[ticket] = value
        guard observer.runningThread == nil, ticket == observer.nextToDeliver else { return }
        observer.runningThread = pthread_self()
        let run = graph.deliveryRun
        while let closure = observer.closure, let event = observer.parked.removeValue(forKey: observer.nextToDeliver) {
            observer.nextToDeliver &+= 1
            guard observer.feedback.allowsCall(in: run) else {
                // Dropped (and the events parked after it, sent by the loop): a signal
                // holds no value to deliver later. The call ends before the report: an
                // event sent meanwhile from another thread is delivered by that thread.
                observer.parked.removeAll()
                observer.nextToDeliver = observer.nextTicket
                graph.endCall(of: observer)
                graph.reportFeedbackLoop(relocking: observer.callComponent)
                return
            }
            graph.suspendForCallback()
            closure(event)
            graph.lock(observer.callComponent)
        }
        graph.endCall(of: observer)
    }
}
