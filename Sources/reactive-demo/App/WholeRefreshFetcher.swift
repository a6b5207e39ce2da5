import Foundation
import ReactiveSources

/// Streams the first fetch batch by batch (the photos arrive one at a time), but delivers a
/// refresh in one batch once the base fetcher has finished, so a refresh never shows a
/// partial list: a cancelled or failed refresh delivers nothing and the rows already shown
/// stay, and views grouped from the source keep their sections while it runs.
///
/// `RemoteDataSource` replaces its content with a refresh's first batch, so a streamed
/// refresh would otherwise show (and, cancelled, keep) only its first rows.
struct WholeRefreshFetcher<Base: Fetcher>: Fetcher {
    /// The fetcher whose batches are delivered.
    let base: Base
    /// Whether a fetch has finished (later fetches are refreshes).
    private let state = FetchCount()

    /// Wraps `base`.
    init(base: Base) {
        self.base = base
    }

    /// The first fetch: `base`'s batches as they come. Later fetches: all of them at the end.
    func fetch(into sink: FetchSink<Base.Object>) async throws {
        guard state.hasFinished else {
            try await base.fetch(into: sink)
            state.markFinished()
            return
        }
        let collected = Collected<Base.Object>()
        try await base.fetch(into: FetchSink { collected.append($0) })
        try Task.checkCancellation()
        await sink.deliver(collected.objects)
    }
}

/// Whether a fetch has finished; thread-safe.
private final class FetchCount: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false

    /// Whether ``markFinished()`` was called.
    var hasFinished: Bool { lock.withLock { finished } }
    /// Records a finished fetch.
    func markFinished() { lock.withLock { finished = true } }
}

/// The batches of one refresh, in order; thread-safe.
private final class Collected<Object: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Object] = []

    /// Every object appended so far.
    var objects: [Object] { lock.withLock { stored } }
    /// Appends a batch.
    func append(_ batch: [Object]) { lock.withLock { stored.append(contentsOf: batch) } }
}
