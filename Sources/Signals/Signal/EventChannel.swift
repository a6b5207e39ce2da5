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
            if let self, let index = self.observers.firstIndex(where: { $0 === observer }) {
                self.observers.remove(at: index)
            }
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

/// A registered closure; `nil` once cancelled.
final class EventObserver<Value>: @unchecked Sendable {
    var closure: (@Sendable (Value) -> Void)?

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
        guard let closure = observer.closure else { return }
        graph.unlock()
        closure(value)
        graph.lock()
    }
}
