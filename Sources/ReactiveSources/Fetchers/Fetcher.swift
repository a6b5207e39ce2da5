/// Gets objects for a source, asynchronously, in one or more batches.
///
/// A fetcher knows nothing about sources: it delivers batches to a ``FetchSink`` and returns
/// when it is done, or throws. The source turns the batches into its content (each one a
/// partial load; see the source for when they become visible).
///
/// Cancellation: the source cancels the task running ``fetch(into:)``. A fetcher must stop
/// promptly and throw `CancellationError` (map transport-specific cancellations, such as
/// `URLError(.cancelled)`, to it). Batches delivered after cancellation are ignored anyway.
public protocol Fetcher<Object>: Sendable {
    /// The type of the objects fetched.
    associatedtype Object: Sendable

    /// Fetches, delivering each batch to `sink` as it arrives. Throws a typed error that
    /// describes what went wrong, or `CancellationError` when cancelled.
    func fetch(into sink: FetchSink<Object>) async throws
}

/// Where a fetcher delivers its batches.
public struct FetchSink<Object: Sendable>: Sendable {
    private let receive: @Sendable ([Object]) async -> Void

    /// Creates a sink that hands each batch to `receive`.
    public init(_ receive: @escaping @Sendable ([Object]) async -> Void) {
        self.receive = receive
    }

    /// Delivers one batch (in order; an empty batch is allowed and still counts as a batch).
    public func deliver(_ batch: [Object]) async {
        await receive(batch)
    }
}
