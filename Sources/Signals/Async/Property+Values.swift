extension Property {
    /// The current value followed by every change, as an `AsyncSequence`.
    ///
    /// Buffering: latest value wins. If the consumer is slower than the producer, values in
    /// between are dropped and the next iteration returns the newest one. Cancelling the
    /// consuming task (or dropping the iterator) cancels the underlying subscription.
    public var values: AsyncStream<Value> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let subscription = observe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}

extension Signal {
    /// Every event sent after iteration starts, as an `AsyncSequence`.
    ///
    /// Buffering: unbounded by default, so no event is lost when the consumer is slow; pass
    /// a policy to ``values(bufferingPolicy:)`` to bound memory. Cancelling the consuming task
    /// (or dropping the iterator) cancels the underlying subscription.
    public var values: AsyncStream<Value> {
        values(bufferingPolicy: .unbounded)
    }

    /// Every event sent after this call, buffered according to `bufferingPolicy`.
    public func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let subscription = observe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
