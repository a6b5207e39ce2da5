import Foundation
import Signals

/// A source that fetches its objects with a ``Fetcher`` and shows them in one section,
/// with placeholder rows for loading, no results and errors (see ``PlaceholderOptions``).
///
/// - `fetchData()` cancels any fetch in flight and starts a new one. A first load (nothing
///   shown) shows each batch as it arrives. A refresh (objects shown) keeps them visible and
///   unchanged until it finishes, then replaces them in one update diffed by identity,
///   unless `clearsContentOnRefresh` (then it loads like a first load). Each batch is a
///   `didPartiallyLoad`.
/// - `cancelFetch()` cancels the fetcher's task (an HTTP request in flight is cancelled),
///   resets `isFetching` and ends the fetch with `didFail(.cancelled)`.
/// - A failed or cancelled fetch keeps the objects already shown.
/// - Retry: a fetch that fails with a retryable error is tried again as `retry` says
///   (``RetryPolicy/default`` unless given; ``RetryPolicy/none`` opts out). While it waits,
///   ``LoadState/retry`` says which attempt comes next and when; the fetch stays in flight
///   (`cancelFetch()` ends the wait at once). A retried fetch starts over (the batches of the
///   failed attempt are dropped).
/// - Batches and finishers of a superseded fetch are ignored, whenever they arrive.
/// - When the fetcher starts, the same rule as ``PaginatedDataSource``'s, on every
///   platform: `fetchData()` returns before the fetcher is called; it then runs in a task on
///   the global concurrent executor, so a fetcher that works before it first suspends
///   (``FileLinesFetcher`` reads a file) never holds up the caller's thread.
///
/// Thread-safe; see ``DataSource`` for observer threading.
public final class RemoteDataSource<Object: Hashable & Sendable>: AwaitableFetching {
    /// The section title.
    public let name: String
    /// The placeholder rows this source stores.
    public let placeholders: PlaceholderOptions
    /// Whether a refresh clears the objects when it starts instead of keeping them visible.
    public let clearsContentOnRefresh: Bool
    /// When a failed fetch is tried again.
    public let retry: RetryPolicy
    private let fetcher: any Fetcher<Object>
    private let engine: SourceEngine<Object>
    private let loads = LoadSlot()

    /// Creates a source over `fetcher`. Nothing is fetched until `fetchData()`.
    public init(
        name: String = "",
        fetcher: some Fetcher<Object>,
        placeholders: PlaceholderOptions = .default,
        clearsContentOnRefresh: Bool = false,
        retry: RetryPolicy = .default
    ) {
        self.name = name
        self.fetcher = fetcher
        self.placeholders = placeholders
        self.clearsContentOnRefresh = clearsContentOnRefresh
        self.retry = retry
        engine = SourceEngine(snapshot: Snapshot(sections: [SnapshotSection(id: name, title: name)]))
    }

    /// A source going away cancels its fetch in flight (the fetch task holds only the
    /// engine, so it would otherwise run, and keep its request open, to the end); the fetch
    /// still ends with `didFail(.cancelled)` for observers of ``loadEvents``.
    deinit {
        engine.cancelTask()
    }

    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public var updates: Property<SnapshotUpdate<Object>> { engine.updates }
    /// The fetch status and content state (see ``DataSource/loadState``).
    public var loadState: Property<LoadState> { engine.loadState }
    /// Will load, partially loaded, finished, failed (see ``DataSource/loadEvents``).
    public var loadEvents: Signal<LoadEvent> { engine.loadEvents }

    /// Starts a fetch, cancelling the one in flight (which ends with `didFail(.cancelled)`).
    ///
    /// A first load (nothing shown) shows each batch as it arrives. A refresh (objects shown,
    /// and the source does not clear on refresh) keeps them visible and unchanged until it
    /// finishes, then replaces them in one update diffed by identity; a refresh that is
    /// cancelled or fails leaves them exactly as they were. Either way each batch sends
    /// `didPartiallyLoad`. Returns the fetch's handle: `await fetchData().outcome` is
    /// `.loaded(objects:)` with the number of objects shown, `.failed` or `.cancelled`.
    @discardableResult
    public func fetchData() -> LoadHandle {
        let load = LoadHandle()
        let loads = self.loads
        var superseded: LoadHandle?
        let fetcher = self.fetcher
        let engine = self.engine
        let placeholders = self.placeholders
        let retry = self.retry
        let batches = BatchCounter()
        let held = HeldBatches<Object>()
        let gate = StartGate()
        engine.begin(prepare: {
            superseded = loads.take()
            loads.current = load
            if clearsContentOnRefresh && !engine.snapshot.sections[0].objects.isEmpty {
                var cleared = engine.snapshot
                cleared.sections[0].objects = []
                cleared.sections[0].placeholder = nil
                engine.replace(with: cleared)
            }
            let showsLoading = placeholders.contains(.loading) && engine.snapshot.sections[0].objects.isEmpty
            held.isHolding = !engine.snapshot.sections[0].objects.isEmpty
            engine.setPlaceholder(showsLoading ? .loading : nil, inSection: 0)
        }, start: { fetch in
            Task {
                await gate.wait()
                do {
                    try Task.checkCancellation()
                    try await retry.run({
                        try await fetcher.fetch(into: FetchSink { batch in
                            engine.ifCurrent(fetch) {
                                let isFirst = batches.next() == 0
                                if held.isHolding {
                                    held.objects.append(contentsOf: batch)
                                } else {
                                    Self.apply(batch, isFirst: isFirst, to: engine, placeholders: placeholders)
                                }
                                engine.emit(.didPartiallyLoad)
                            }
                        })
                    }, willWait: { status in
                        engine.ifCurrent(fetch) {
                            batches.reset()
                            held.objects.removeAll()
                            engine.loadState.modify { $0.retry = status }
                        }
                    })
                    try Task.checkCancellation()
                    var shown: Int?
                    engine.finish(fetch) {
                        _ = loads.take()
                        if held.isHolding {
                            var next = engine.snapshot
                            next.sections[0].objects = RowStorage(held.objects)
                            engine.replace(with: next)
                        } else if batches.count == 0 {
                            // Finished without any batch: the content is now empty.
                            var empty = engine.snapshot
                            empty.sections[0].objects = []
                            engine.replace(with: empty)
                        }
                        let isEmpty = engine.snapshot.sections[0].objects.isEmpty
                        let placeholder: Placeholder? = isEmpty && placeholders.contains(.noResults) ? .noResults : nil
                        engine.setPlaceholder(placeholder, inSection: 0)
                        shown = engine.snapshot.sections[0].objects.count
                    }
                    if let shown { load.end(.loaded(objects: shown)) }
                } catch {
                    var ended: DataSourceError?
                    engine.fail(fetch, error: error) { failure in
                        _ = loads.take()
                        let placeholder: Placeholder? = placeholders.contains(.errors) ? .error(message: failure.message) : nil
                        engine.setPlaceholder(placeholder, inSection: 0)
                        ended = failure
                    }
                    if let ended { load.end(LoadOutcome(ended)) }
                }
            }
        })
        superseded?.end(.cancelled)
        gate.open()
        return load
    }

    /// Cancels the fetch in flight: it ends with `didFail(.cancelled)`, `isFetching` becomes false and the objects already shown stay. Does nothing when idle.
    public func cancelFetch() {
        var cancelled: LoadHandle?
        engine.cancel {
            cancelled = loads.take()
            engine.setPlaceholder(nil, inSection: 0)
        }
        cancelled?.end(.cancelled)
    }

    /// Applies one batch: the first replaces the objects (diffed), later ones append.
    private static func apply(_ batch: [Object], isFirst: Bool, to engine: SourceEngine<Object>, placeholders: PlaceholderOptions) {
        if isFirst {
            var next = engine.snapshot
            next.sections[0].objects = RowStorage(batch)
            next.sections[0].placeholder = batch.isEmpty && placeholders.contains(.loading) ? .loading : nil
            engine.replace(with: next)
        } else {
            engine.mutate { snapshot in
                let old = snapshot.sections[0]
                let placeholder: Placeholder? = old.objects.isEmpty && batch.isEmpty ? old.placeholder : nil
                snapshot.sections[0].objects.append(contentsOf: batch)
                snapshot.sections[0].placeholder = placeholder
                return .appending(batch.count, toSection: 0, old: old.placeholder, new: placeholder, oldObjectCount: old.objects.count)
            }
        }
    }
}

/// The batches of a refresh, held until it finishes (touched only under the engine lock).
final class HeldBatches<Object: Sendable>: @unchecked Sendable {
    /// Whether the fetch holds its batches (it started with objects shown).
    var isHolding = false
    var objects: [Object] = []
}

/// Counts the batches of one fetch (touched only under the engine lock).
final class BatchCounter: @unchecked Sendable {
    private(set) var count = 0

    /// Starts counting again (a retried fetch starts over).
    func reset() {
        count = 0
    }

    /// Returns the index of the batch arriving now.
    func next() -> Int {
        defer { count += 1 }
        return count
    }
}
