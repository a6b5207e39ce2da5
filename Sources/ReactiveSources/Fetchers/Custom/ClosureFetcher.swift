/// A fetcher made of a closure: for custom producers, fakes and in-process APIs.
///
/// The closure receives the sink and delivers one or more batches; it should check
/// `Task.isCancelled` (or call `try Task.checkCancellation()`) between batches.
public struct ClosureFetcher<Object: Sendable>: Fetcher {
    private let body: @Sendable (FetchSink<Object>) async throws -> Void

    /// Creates a fetcher that runs `body` for every fetch.
    public init(_ body: @escaping @Sendable (FetchSink<Object>) async throws -> Void) {
        self.body = body
    }

    /// A fetcher that returns `objects` in one batch.
    public static func just(_ objects: [Object]) -> ClosureFetcher {
        ClosureFetcher { sink in await sink.deliver(objects) }
    }

    /// Delivers the results to `sink` in one or more batches (see ``Fetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetch(into sink: FetchSink<Object>) async throws {
        try await body(sink)
    }
}
