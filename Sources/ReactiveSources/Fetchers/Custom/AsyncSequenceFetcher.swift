/// A fetcher that reads an `AsyncSequence` made fresh for every fetch, delivering its
/// elements in batches of up to `batchSize` (1 by default: every element is its own partial
/// load, as for photos arriving one at a time).
///
/// A batch is delivered as soon as it is full or the sequence ends. Cancelling the fetch
/// stops the iteration; an error thrown by the sequence fails the fetch (objects already
/// delivered stay shown). A `batchSize` below 1 is treated as 1.
public struct AsyncSequenceFetcher<Object: Sendable>: Fetcher {
    private let run: @Sendable (FetchSink<Object>, Int) async throws -> Void
    /// The most objects per delivered batch.
    public let batchSize: Int

    /// Creates a fetcher over the sequence that `makeSequence` returns for each fetch.
    public init<Sequence: AsyncSequence & Sendable>(
        batchSize: Int = 1,
        _ makeSequence: @escaping @Sendable () -> Sequence
    ) where Sequence.Element == Object {
        self.batchSize = max(1, batchSize)
        run = { sink, batchSize in
            var batch: [Object] = []
            batch.reserveCapacity(batchSize)
            for try await element in makeSequence() {
                try Task.checkCancellation()
                batch.append(element)
                if batch.count >= batchSize {
                    await sink.deliver(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try Task.checkCancellation()
            if !batch.isEmpty { await sink.deliver(batch) }
        }
    }

    /// Delivers the results to `sink` in one or more batches (see ``Fetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetch(into sink: FetchSink<Object>) async throws {
        try await run(sink, batchSize)
    }
}
