import Foundation

/// A fetcher whose batches are another fetcher's batches with each element transformed.
public struct MappedFetcher<Base: Fetcher, Object: Sendable>: Fetcher {
    private let base: Base
    private let transform: @Sendable (Base.Object) throws -> Object

    /// Creates a fetcher applying `transform` to every element `base` delivers. An error
    /// thrown by `transform` stops the base fetch (by cancelling it) and ends the fetch with
    /// that error; the failing batch is not delivered.
    public init(_ base: Base, transform: @escaping @Sendable (Base.Object) throws -> Object) {
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
                    await sink.deliver(try batch.map(transform))
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
