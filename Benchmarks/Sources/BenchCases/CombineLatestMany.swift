import OpenCombine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal combineLatest for OpenCombine, which (0.14) has no `combineLatest`/`merge`.
/// Written against the public `Publisher`/`Subscriber`/`Subscription` protocols: it
/// subscribes to every upstream with unlimited demand, keeps the latest value of each
/// under a lock (taken once per event), and emits the array of latest values once every
/// upstream has produced one. Downstream demand is not honoured (the benchmark only uses
/// `sink`, which requests `.unlimited`).
struct CombineLatestMany<Upstream: Publisher>: Publisher where Upstream.Failure == Never {
    typealias Output = [Upstream.Output]
    typealias Failure = Never

    let upstreams: [Upstream]

    func receive<Downstream: Subscriber>(subscriber: Downstream) where Downstream.Input == Output, Downstream.Failure == Never {
        let inner = Inner(downstream: subscriber, count: upstreams.count)
        subscriber.receive(subscription: inner)
        for (index, upstream) in upstreams.enumerated() {
            upstream.subscribe(Side(index: index, parent: inner))
        }
    }

    final class Inner<Downstream: Subscriber>: Subscription where Downstream.Input == Output, Downstream.Failure == Never {
        private let downstream: Downstream
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private var values: [Upstream.Output?]
        private var missing: Int
        private var subscriptions: [(any Subscription)?]
        private var cancelled = false

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            values = Array(repeating: nil, count: count)
            subscriptions = Array(repeating: nil, count: count)
            missing = count
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        func receive(subscription: any Subscription, at index: Int) {
            pthread_mutex_lock(mutex)
            if cancelled {
                pthread_mutex_unlock(mutex)
                subscription.cancel()
                return
            }
            subscriptions[index] = subscription
            pthread_mutex_unlock(mutex)
            subscription.request(.unlimited)
        }

        func receive(_ input: Upstream.Output, at index: Int) {
            pthread_mutex_lock(mutex)
            if cancelled {
                pthread_mutex_unlock(mutex)
                return
            }
            if values[index] == nil { missing -= 1 }
            values[index] = input
            guard missing == 0 else {
                pthread_mutex_unlock(mutex)
                return
            }
            let output = values.map { $0! }
            pthread_mutex_unlock(mutex)
            _ = downstream.receive(output)
        }

        func request(_ demand: Subscribers.Demand) {}

        func cancel() {
            pthread_mutex_lock(mutex)
            cancelled = true
            let all = subscriptions
            subscriptions = []
            pthread_mutex_unlock(mutex)
            for subscription in all { subscription?.cancel() }
        }
    }

    struct Side<Downstream: Subscriber>: Subscriber where Downstream.Input == Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output
        typealias Failure = Never

        let index: Int
        let parent: Inner<Downstream>
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, at: index)
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }
}

/// Builds "derived nodes" out of OpenCombine pieces: every node is a `CurrentValueSubject`
/// fed by a `map` (or `CombineLatestMany` + `map`) subscription, with an equality cut-off
/// (the sink only sends values that differ from the subject's current one).
final class CombineGraph {
    var bag: [AnyCancellable] = []

    func map<Input, Value: Equatable>(_ upstream: CurrentValueSubject<Input, Never>, _ transform: @escaping (Input) -> Value) -> CurrentValueSubject<Value, Never> {
        let subject = CurrentValueSubject<Value, Never>(transform(upstream.value))
        bag.append(upstream.map(transform).sink { value in
            if value != subject.value { subject.send(value) }
        })
        return subject
    }

    func combine<Input, Value: Equatable>(_ upstreams: [CurrentValueSubject<Input, Never>], _ transform: @escaping ([Input]) -> Value) -> CurrentValueSubject<Value, Never> {
        let subject = CurrentValueSubject<Value, Never>(transform(upstreams.map(\.value)))
        bag.append(CombineLatestMany(upstreams: upstreams).map(transform).sink { value in
            if value != subject.value { subject.send(value) }
        })
        return subject
    }

    func effect<Value>(_ upstream: CurrentValueSubject<Value, Never>, _ body: @escaping (Value) -> Void) {
        bag.append(upstream.sink(receiveValue: body))
    }
}
