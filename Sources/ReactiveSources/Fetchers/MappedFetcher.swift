import Foundation

/// A fetcher whose batches are another fetcher's batches with each element transformed
/// (``Fetcher/map(_:)``), or transformed and filtered (``Fetcher/compactMap(_:)``).
public struct MappedFetcher<Base: Fetcher, Object: Sendable>: Fetcher {
    private let base: Base
    private let transform: @Sendable ([Base.Object]) throws -> [Object]

    /// Creates a fetcher applying `transform` to every element `base` delivers. An error
    /// thrown by `transform` stops the base fetch (by cancelling it) and ends the fetch with
    /// that error; the failing batch is not delivered.
    public init(_ base: Base, transform: @escaping @Sendable (Base.Object) throws -> Object) {
        self.base = base
        self.transform = { try $0.map(transform) }
    }

    /// A fetcher delivering `transform` of each batch (same batch count, in order).
    init(_ base: Base, batches transform: @escaping @Sendable ([Base.Object]) throws -> [Object]) {
        self.base = base
        self.transform = transform
    }

    /// Delivers the results to `sink` in one or more batches (see ``Fetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetch(into sink: FetchSink<Object>) async throws {
        let transform = self.transform
        let results = ResultBox()
        do {
            try await base.fetch(into: FetchSink { batch in
                guard results.firstError == nil else { return }
                do {
                    await sink.deliver(try transform(batch))
                } catch {
                    results.record(error)
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            })
        } catch {
            throw results.firstError ?? error
        }
        if let error = results.firstError { throw error }
    }
}

extension Fetcher {
    /// Maps every fetched element with `transform` (for example JSON models to view models).
    public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Object) throws -> Mapped) -> MappedFetcher<Self, Mapped> {
        MappedFetcher(self, transform: transform)
    }

    /// Maps every fetched element with `transform` and drops those it maps to `nil` (for
    /// example models a view cannot show). A batch whose elements are all dropped is still
    /// delivered, empty. O(batch) per batch; an error thrown stops the fetch as for `map`.
    public func compactMap<Mapped: Sendable>(_ transform: @escaping @Sendable (Object) throws -> Mapped?) -> MappedFetcher<Self, Mapped> {
        MappedFetcher(self, batches: { try $0.compactMap(transform) })
    }
}

/// Keeps the first error raised inside a sink, which cannot throw.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?

    func record(_ error: any Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    var firstError: (any Error)? { lock.withLock { error } }
}
