#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The observer list behind a piped signal. Guarded by the graph lock.
final class EventChannel<Value: Sendable>: @unchecked Sendable {
    private var observers: ContiguousArray<EventObserver<Value>> = []

    func attach(_ closure: @escaping @Sendable (Value) -> Void) -> Subscription {
        let graph = Graph.shared
        let observer = EventObserver(closure)
        graph.lock()
        observers.append(observer)
        graph.unlock()
        return Subscription { [weak self] in
            graph.lock()
            observer.closure = nil
            observer.backlog.removeAll()
            if let self, let index = self.observers.firstIndex(where: { $0 === observer }) {
                self.observers.remove(at: index)
            }
            graph.waitWhile { observer.runningThread }
            graph.unlock()
        }
    }

    func send(_ value: Value) {
        let graph = Graph.shared
        graph.lock()
        for observer in observers {
            graph.enqueue(EventDelivery(observer: observer, value: value))
        }
        graph.unlockAndDeliver()
    }
}

/// A registered closure; `nil` once cancelled. Guarded by the graph lock.
final class EventObserver<Value>: @unchecked Sendable {
    var closure: (@Sendable (Value) -> Void)?
    /// The thread inside `closure`, if any.
    var runningThread: pthread_t?
    /// Events that arrived while another thread was inside `closure`, in order.
    var backlog: [Value] = []

    init(_ closure: @escaping @Sendable (Value) -> Void) {
        self.closure = closure
    }
}

/// One event queued for one observer.
final class EventDelivery<Value>: Deliverable {
    private let observer: EventObserver<Value>
    private let value: Value

    init(observer: EventObserver<Value>, value: Value) {
        self.observer = observer
        self.value = value
    }

    func deliver(in graph: Graph) {
        guard observer.closure != nil else { return }
        if observer.runningThread != nil {
            observer.backlog.append(value)
            return
        }
        observer.runningThread = pthread_self()
        var next: Value? = value
        while let event = next, let closure = observer.closure {
            graph.suspendForCallback()
            closure(event)
            graph.resumeAfterCallback()
            next = observer.backlog.isEmpty ? nil : observer.backlog.removeFirst()
        }
        observer.runningThread = nil
    }
}
