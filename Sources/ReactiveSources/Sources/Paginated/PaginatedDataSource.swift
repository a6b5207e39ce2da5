import Foundation
import Signals

/// A source that loads its objects page by page with a ``PageFetcher`` and shows them in
/// one section.
///
/// - `fetchData()` is a refresh: it starts again from the first page and replaces the
///   content atomically when the first page arrives (old pages stay visible until then).
///   Its lifecycle is reported by `loadState` / `loadEvents` like any source.
/// - ``fetchNextPage()`` appends the next page. Its state is separate: ``pagination``
///   (`nextPage` is idle, loading or failed), so a next-page error never looks like a
///   first-load error. Calls while a page or a refresh is loading are coalesced: a page is
///   never requested twice at once. A failed page is not skipped: the next call retries it.
/// - ``willDisplayRow(at:)`` fetches the next page when the displayed row is within
///   `prefetchDistance` rows of the last object (default 0: the last object, or the
///   trailing placeholder). It does not retry a failed page; call ``fetchNextPage()``.
/// - Paging always ends: `hasMorePages` becomes false, with the reason in
///   ``PaginationState/end``, when the server says the page was the last (no next token, a
///   has-more key that is false, or the page count reached: ``PagingEnd/lastPage``), when a
///   page comes back with no objects, even in the middle of a declared page count
///   (``PagingEnd/emptyPage``), when a page repeats the previous page object for object
///   (``PagingEnd/repeatedPage``), or when every object of a page is already shown, by
///   identity (``PagingEnd/noNewObjects``). A refresh starts over.
/// - Placeholders: a trailing ``Placeholder/loadingMore`` row while more pages exist; with
///   no objects, loading / no-results / error rows as ``PlaceholderOptions`` say; with
///   `.errors`, a failed next page shows an error row after the objects.
/// - Duplicates: an object whose identity (its `id` for `Identifiable` types, otherwise the
///   object itself; pass `identity` to choose) is already shown is dropped from later pages, so
///   a collection that shifted under us never duplicates rows. The first occurrence wins.
///   Checking costs one hash of each received identity and one table insertion (compiled for
///   the identity type); shown objects are compared only when a hash value repeats.
/// - `maxPages`: when set, the oldest pages are dropped as new ones arrive, before the new
///   page is checked for duplicates (an object that was only on a dropped page comes back).
/// - `cancelFetch()` cancels both the refresh and the next-page load in flight.
/// - Retry: each direction has its policy (``retry`` for the first page, ``nextPageRetry``
///   for later pages; ``RetryPolicy/default`` unless given, ``RetryPolicy/none`` opts out).
///   A retryable failure is tried again after the policy's wait, shown meanwhile by
///   ``LoadState/retry`` (first page) or ``PaginationState/retry`` (next page); the load stays
///   in flight and `cancelFetch()` ends the wait at once, sending nothing more.
/// - When the fetcher starts, the rule for every source that fetches, on every platform:
///   `fetchData()` and ``fetchNextPage()`` return before their fetcher is called; it then
///   runs in a task on the global concurrent executor (never while the call runs: not on
///   the calling thread before it returns, not during the call's own observers). A fetcher
///   may work before it first suspends without holding up the caller. The task needs a
///   free thread of the cooperative pool: code that blocks a pool thread until a fetch
///   delivers (a semaphore in an observer) can wait as long as the pool is busy.
///   One exception, the way a list loads: ``fetchNextPage()`` called on the thread that is
///   delivering the update of a next page this source just applied (from any observer that
///   delivery runs, as a list's `willDisplayRow` is called) reserves the page and returns at
///   once; the task that applied the page fetches it as soon as that delivery ends, on the
///   same thread. Pages loaded this way need no new task each, and the request goes out
///   after the page's observers have run, so such an observer must not wait for the request
///   it asked for. A page asked for and then cancelled (or superseded by a refresh) in the
///   same delivery is never requested. A page applied inside a caller's `batch` or observer
///   is delivered later, by that caller: a page asked for then starts a task as usual.
///
/// Thread-safe; see ``DataSource`` for observer threading.
public final class PaginatedDataSource<Object: Hashable & Sendable>: AwaitableFetching {
    /// The section title.
    public let name: String
    /// The placeholder rows shown when there are no objects (and error rows, if included).
    public let placeholders: PlaceholderOptions
    /// How many rows before the last object displaying a row triggers the next page.
    public let prefetchDistance: Int
    /// The most pages kept, or `nil` for no limit.
    public let maxPages: Int?
    /// When a failed first page (a refresh) is tried again.
    public let retry: RetryPolicy
    /// When a failed next page is tried again.
    public let nextPageRetry: RetryPolicy
    private let fetcher: any PageFetcher<Object>
    /// The identities shown (for dropping duplicates); touched only under the engine lock.
    private let seen: SeenIdentities<Object>
    /// The append of a next page, compiled for `Object`.
    private let rows: PageRows<Object>
    private let engine: SourceEngine<Object>
    private let paginationState = MutableProperty(PaginationState())
    private let book = PageBook<Object>()
    /// The handle of the refresh in flight.
    private let refreshLoads = LoadSlot()

    /// Creates a paginated source. Nothing is fetched until `fetchData()`.
    /// A negative `prefetchDistance` is treated as 0; a `maxPages` below 1 as 1.
    /// `identity` names an object for the duplicate rule; `nil` (the default) means the
    /// object itself. It must give equal values for equal objects each time it is called:
    /// once per delivered object, and again for a shown object when it is dropped or when a
    /// delivered object's identity has the same hash value (only hash values are kept).
    @inlinable
    public convenience init(
        name: String = "",
        fetcher: some PageFetcher<Object>,
        placeholders: PlaceholderOptions = .default,
        prefetchDistance: Int = 0,
        maxPages: Int? = nil,
        identity: (@Sendable (Object) -> AnyHashable)? = nil,
        retry: RetryPolicy = .default,
        nextPageRetry: RetryPolicy = .default
    ) {
        self.init(
            name: name, fetcher: fetcher, placeholders: placeholders, prefetchDistance: prefetchDistance,
            maxPages: maxPages, seen: identity.map { .keys($0) } ?? .objects(), rows: .compiled(), retry: retry,
            nextPageRetry: nextPageRetry
        )
    }

    @usableFromInline
    init(
        name: String,
        fetcher: any PageFetcher<Object>,
        placeholders: PlaceholderOptions,
        prefetchDistance: Int,
        maxPages: Int?,
        seen: SeenIdentities<Object>,
        rows: PageRows<Object>,
        retry: RetryPolicy,
        nextPageRetry: RetryPolicy
    ) {
        self.retry = retry
        self.nextPageRetry = nextPageRetry
        self.name = name
        self.fetcher = fetcher
        self.placeholders = placeholders
        self.prefetchDistance = max(0, prefetchDistance)
        self.maxPages = maxPages.map { max(1, $0) }
        self.seen = seen
        self.rows = rows
        engine = SourceEngine(snapshot: Snapshot(sections: [SnapshotSection(id: name, title: name)]))
    }

    /// A source going away cancels its refresh and next page in flight (their tasks hold it
    /// weakly, so they would otherwise run, and keep their requests open, to the end).
    deinit {
        engine.cancelTask()
        book.loader?.cancel()
        book.nextLoad?.end(.cancelled)
    }

    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public var updates: Property<SnapshotUpdate<Object>> { engine.updates }
    /// The fetch status and content state (see ``DataSource/loadState``).
    public var loadState: Property<LoadState> { engine.loadState }
    /// Will load, partially loaded, finished, failed (see ``DataSource/loadEvents``).
    public var loadEvents: Signal<LoadEvent> { engine.loadEvents }

    /// The paging state: page info, loaded pages, `hasMorePages`, next-page load.
    public var pagination: Property<PaginationState> { paginationState }

    /// Whether another page can be fetched.
    public var hasMorePages: Bool { paginationState.value.hasMorePages }

    /// Refreshes from the first page (see the type's documentation). Returns the refresh's
    /// handle: `await fetchData().outcome` is `.loaded(objects:)` with the objects of the
    /// first page shown, `.failed` or `.cancelled`.
    @discardableResult
    public func fetchData() -> LoadHandle {
        let load = LoadHandle()
        var ended: [LoadHandle] = []
        let fetcher = self.fetcher
        let retry = self.retry
        let gate = StartGate()
        engine.begin(prepare: {
            if let superseded = refreshLoads.take() { ended.append(superseded) }
            refreshLoads.current = load
            if let nextPage = cancelNextPage() { ended.append(nextPage) }
            showPlaceholder(placeholder(refreshing: true))
        }, start: { fetch in Task { [weak self] in
            await gate.wait()
            do {
                try Task.checkCancellation()
                let page = try await retry.run({ try await fetcher.fetchPage(.first) }, willWait: { status in
                    self?.engine.ifCurrent(fetch) { self?.engine.loadState.modify { $0.retry = status } } ?? false
                })
                try Task.checkCancellation()
                guard let self else { return load.end(.cancelled) }
                var shown: Int?
                self.engine.finish(fetch) {
                    self.applyFirst(page)
                    _ = self.refreshLoads.take()
                    shown = self.book.objectCount
                }
                if let shown { load.end(.loaded(objects: shown)) }
            } catch {
                guard let self else { return load.end(LoadOutcome(DataSourceError(error))) }
                var failed: DataSourceError?
                self.engine.fail(fetch, error: error) { failure in
                    _ = self.refreshLoads.take()
                    self.showPlaceholder(self.placeholder(refreshing: false, failure: failure))
                    failed = failure
                }
                if let failed { load.end(LoadOutcome(failed)) }
            }
        } })
        for handle in ended { handle.end(.cancelled) }
        gate.open()
        return load
    }

    /// Loads and appends the next page. Does nothing when there are no more pages, or when a
    /// refresh or a next page is already loading (coalesced). Retries a page that failed.
    /// Returns the load's handle: `await fetchNextPage().outcome` is `.loaded(objects:)` with
    /// the new objects appended, `.failed`, `.cancelled`, or `.noMorePages` at once when there
    /// is nothing to load; a coalesced call returns the handle of the load in flight.
    /// The fetcher is called after this returns, in a task of its own; from an observer of a
    /// next page's update, by that page's task right after the delivery (see the type's
    /// documentation).
    @discardableResult
    public func fetchNextPage() -> LoadHandle {
        var handle = LoadHandle()
        let reserved: NextPageLoad? = engine.locked {
            let state = paginationState.value
            if engine.isInFlight, let refresh = refreshLoads.current {
                handle = refresh
                return nil
            }
            if state.isLoadingNextPage, let nextPage = book.nextLoad {
                handle = nextPage
                return nil
            }
            guard !engine.isInFlight, state.hasMorePages, !state.isLoadingNextPage, let token = book.next else {
                handle = LoadHandle(ended: .noMorePages)
                return nil
            }
            book.nextLoad = handle
            book.sequence &+= 1
            var loading = state
            loading.nextPage = .loading
            paginationState.value = loading
            showPlaceholder(placeholder(refreshing: false, objectCount: book.objectCount, state: loading))
            return (token, book.sequence)
        }
        guard let (token, sequence) = reserved else { return handle }
        // Called while this thread delivers a page it applied (a list's observer asking for
        // the next page): that page's task fetches this one once the delivery ends, instead
        // of a new task starting it here.
        let loader: PageLoader? = engine.withLock {
            guard book.sequence == sequence else { return nil }
            if let applying = book.applying, pthread_equal(applying.thread, pthread_self()) != 0, !applying.loader.isCancelled {
                applying.loader.continuation = (token, sequence)
                book.loader = applying.loader
                return nil
            }
            let loader = PageLoader()
            book.loader = loader
            return loader
        }
        guard let loader else { return handle }
        let gate = StartGate()
        let task = startNextPages(from: token, sequence: sequence, loader: loader, after: gate)
        engine.withLock { loader.started(task) }
        gate.open()
        return handle
    }

    /// Starts a task that fetches and applies the page `token` names (load `sequence`), then
    /// each page requested while it delivers the previous one (see ``fetchNextPage()``).
    private func startNextPages(from token: PageToken, sequence: UInt64, loader: PageLoader, after gate: StartGate) -> Task<Void, Never> {
        let fetcher = self.fetcher
        let retry = nextPageRetry
        return Task { [weak self] in
            await gate.wait()
            var next: NextPageLoad? = (token, sequence)
            while let (token, sequence) = next {
                do {
                    try Task.checkCancellation()
                    let page = try await retry.run({ try await fetcher.fetchPage(token) }, willWait: { status in
                        self?.showNextPageRetry(status, sequence: sequence) ?? false
                    })
                    try Task.checkCancellation()
                    next = self?.applyNext(page, sequence: sequence, loader: loader)
                } catch {
                    self?.failNext(DataSourceError(error), sequence: sequence)
                    next = nil
                }
            }
        }
    }

    /// Cancels the refresh and the next-page load in flight. The refresh ends with
    /// `didFail(.cancelled)`; a cancelled next page goes back to idle and can be fetched again.
    public func cancelFetch() {
        let cancelled: [LoadHandle] = engine.locked {
            let nextPage = cancelNextPage()
            var refresh: LoadHandle?
            engine.cancel { refresh = refreshLoads.take() }
            showPlaceholder(placeholder(refreshing: false))
            return [nextPage, refresh].compactMap { $0 }
        }
        for handle in cancelled { handle.end(.cancelled) }
    }

    /// Fetches the next page when `path` is within `prefetchDistance` rows of the last
    /// object (or is the trailing placeholder). Invalid paths are ignored.
    public func willDisplayRow(at path: RowPath) {
        let (section, item) = (path.section, path.item)
        guard section == 0, item >= 0 else { return }
        let count = engine.withLock { book.objectCount }
        guard count > 0, item <= count, item >= count - 1 - prefetchDistance else { return }
        guard paginationState.value.nextPageError == nil else { return }
        fetchNextPage()
    }

    // MARK: Applying pages (engine lock held)

    private func applyFirst(_ page: Page<Object>) {
        seen.removeAll()
        // Nothing is recorded: the shown objects are never read.
        let objects = seen.insertNew(page.objects) { _ in preconditionFailure("no shown object is recorded") }
        book.pageCounts = [objects.count]
        book.next = page.next
        let end = Self.end(after: page, newObjects: objects.count, previous: nil)
        book.lastPage = end == nil ? page.objects : []
        paginationState.modify { state in
            state.info = page.info
            state.loadedPages = 1
            state.end = end
            state.hasMorePages = end == nil
            state.nextPage = .idle
            state.retry = nil
        }
        var next = engine.snapshot
        next.sections[0].objects = RowStorage(objects)
        book.placeholder = placeholder(refreshing: false, objectCount: objects.count, finished: true)
        next.sections[0].placeholder = book.placeholder
        engine.replace(with: next)
    }

    /// Applies a next page and delivers it; returns the page an observer asked for during
    /// that delivery on this thread, for this task to fetch (see ``fetchNextPage()``).
    private func applyNext(_ page: Page<Object>, sequence: UInt64, loader: PageLoader) -> NextPageLoad? {
        let thread = pthread_self()
        let applied: (handle: LoadHandle?, objects: Int)? = engine.locked {
            var state = paginationState.value
            guard sequence == book.sequence, state.isLoadingNextPage else { return nil }
            book.applying = (thread, loader)
            book.loader = nil
            book.next = page.next
            // The snapshot changes before the paging state is published: a thread that
            // waits for the page load to end (reading, not observing) then sees the page.
            state.info = page.info
            state.loadedPages += 1
            state.nextPage = .idle
            state.retry = nil
            // The page limit drops the oldest pages first, so an object they held may come
            // back in the new page.
            var dropped = 0
            if let maxPages, book.pageCounts.count >= maxPages {
                let droppedPages = book.pageCounts.count + 1 - maxPages
                dropped = book.pageCounts.prefix(droppedPages).reduce(0, +)
                book.pageCounts.removeFirst(droppedPages)
            }
            let fresh = newObjects(of: page, droppingFirst: dropped)
            book.pageCounts.append(fresh.count)
            state.end = Self.end(after: page, newObjects: fresh.count, previous: book.lastPage)
            state.hasMorePages = state.end == nil
            book.lastPage = state.end == nil ? page.objects : []
            let newPlaceholder = placeholder(refreshing: false, objectCount: book.objectCount, state: state)
            let oldPlaceholder = book.placeholder
            book.placeholder = newPlaceholder
            engine.mutate { snapshot in
                // Only the count is kept from before: holding the old section would make
                // the append below copy every object shown.
                let oldObjectCount = snapshot.sections[0].objects.count
                rows.dropAndAppend(&snapshot.sections[0].objects, dropped, fresh)
                snapshot.sections[0].placeholder = newPlaceholder
                var changes = ChangeSet.appending(
                    fresh.count, toSection: 0, old: oldPlaceholder, new: newPlaceholder, oldObjectCount: oldObjectCount
                )
                if dropped > 0 {
                    changes = Self.shifted(changes, droppingFirst: dropped, oldObjectCount: oldObjectCount)
                }
                return changes
            }
            paginationState.value = state
            defer { book.nextLoad = nil }
            return (book.nextLoad, fresh.count)
        }
        guard let applied else { return nil }
        applied.handle?.end(.loaded(objects: applied.objects))
        return engine.withLock {
            // Another task may have applied a page meanwhile (this delivery was slow): only
            // this task's own record is cleared, and only its own continuation taken.
            if book.applying?.loader === loader { book.applying = nil }
            defer { loader.continuation = nil }
            guard let continuation = loader.continuation, continuation.sequence == book.sequence else { return nil }
            return continuation
        }
    }

    /// The objects of `page` whose identity is not shown once the first `dropped` shown
    /// objects are gone, recorded by the duplicate rule. Runs the identity (user code) before
    /// the snapshot is locked for the append. The shown objects are read only when a hash
    /// value repeats (the snapshot still holds the `dropped` objects then).
    private func newObjects(of page: Page<Object>, droppingFirst dropped: Int) -> [Object] {
        if dropped > 0 { seen.forget(Array(engine.snapshot.sections[0].objects.prefix(dropped))) }
        return seen.insertNew(page.objects) { [engine] in engine.snapshot.sections[0].objects[dropped + $0] }
    }

    /// Shows that next-page load `sequence` waits to try again; returns whether it is current.
    private func showNextPageRetry(_ status: RetryStatus, sequence: UInt64) -> Bool {
        engine.locked {
            guard sequence == book.sequence, paginationState.value.isLoadingNextPage else { return false }
            paginationState.modify { $0.retry = status }
            return true
        }
    }

    private func failNext(_ error: DataSourceError, sequence: UInt64) {
        let failed: LoadHandle? = engine.locked {
            guard sequence == book.sequence, paginationState.value.isLoadingNextPage else { return nil }
            defer { book.nextLoad = nil }
            book.loader = nil
            var state = paginationState.value
            state.nextPage = error.isCancellation ? .idle : .failed(error)
            state.retry = nil
            showPlaceholder(placeholder(refreshing: false, state: state))
            paginationState.value = state
            return book.nextLoad
        }
        failed?.end(LoadOutcome(error))
    }

    /// Cancels the next-page load in flight; returns its handle, for the caller to end once
    /// the lock is released.
    private func cancelNextPage() -> LoadHandle? {
        defer { book.nextLoad = nil }
        book.loader?.cancel()
        book.loader = nil
        book.sequence &+= 1
        if paginationState.value.nextPage != .idle || paginationState.value.retry != nil {
            paginationState.modify {
                $0.nextPage = .idle
                $0.retry = nil
            }
        }
        return book.nextLoad
    }

    /// Why paging ends after `page`, which added `newObjects` objects and followed the page
    /// `previous` (`nil` for the first page), or `nil` if another page can be fetched.
    private static func end(after page: Page<Object>, newObjects: Int, previous: [Object]?) -> PagingEnd? {
        if page.objects.isEmpty { return .emptyPage }
        if let previous, previous == page.objects { return .repeatedPage }
        if newObjects == 0 { return .noNewObjects }
        if page.next == nil || page.info.hasMore == false { return .lastPage }
        if let current = page.info.page, let pages = page.info.numberOfPages, current >= pages { return .lastPage }
        return nil
    }

    /// Shows `placeholder` after the objects, publishing only if it changes. Reads the row
    /// shown from the book, not from the snapshot (a snapshot read copies the update).
    private func showPlaceholder(_ placeholder: Placeholder?) {
        assert(book.placeholder == engine.snapshot.sections[0].placeholder, "the book's placeholder is the one shown")
        guard placeholder != book.placeholder else { return }
        book.placeholder = placeholder
        engine.setPlaceholder(placeholder, inSection: 0)
    }

    /// The trailing placeholder for the current state.
    private func placeholder(
        refreshing: Bool, failure: DataSourceError? = nil, objectCount: Int? = nil, finished: Bool = false, state: PaginationState? = nil
    ) -> Placeholder? {
        let count: Int
        if let objectCount {
            count = objectCount
        } else {
            assert(book.objectCount == engine.snapshot.numberOfObjects(inSection: 0), "the book counts the objects shown")
            count = book.objectCount
        }
        let state = state ?? paginationState.value
        if count == 0 {
            if refreshing { return placeholders.contains(.loading) ? .loading : nil }
            if let failure, !failure.isCancellation { return placeholders.contains(.errors) ? .error(message: failure.message) : nil }
            if finished || engine.loadState.value.status == .finished {
                return placeholders.contains(.noResults) && !state.hasMorePages ? .noResults : nil
            }
            return nil
        }
        if let error = state.nextPageError, placeholders.contains(.errors) { return .error(message: error.message) }
        if let failure, !failure.isCancellation, placeholders.contains(.errors) { return .error(message: failure.message) }
        return state.hasMorePages ? .loadingMore : nil
    }

    /// Rewrites an append change set for a section whose first `dropped` objects were removed.
    private static func shifted(_ changes: ChangeSet, droppingFirst dropped: Int, oldObjectCount: Int) -> ChangeSet {
        var result = changes
        result.deletedRows = (0..<dropped).map { RowPath(item: $0, section: 0) } + changes.deletedRows
        result.insertedRows = changes.insertedRows.map { RowPath(item: $0.item - dropped, section: 0) }
        return result
    }
}
