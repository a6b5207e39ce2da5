import Signals
import Synchronization

/// A source whose request is computed from a property (search text, filters, sort order,
/// even the endpoint): each query gets its own source from `source(query)` (typically a
/// ``PaginatedDataSource`` or ``RemoteDataSource``), and a new query switches to a new one.
/// Several properties make one query through a derived property
/// (`Property { Search(text: text.value, order: order.value) }`); `source` itself is not
/// tracked, so a property it reads directly does not refetch.
///
/// - **Switch-latest.** When the query changes, the previous query's source has its fetch
///   cancelled and is no longer followed: none of its batches, errors or events appears here,
///   even one that arrives after the switch. The new query's source starts from its first page
///   (it is new), so duplicate detection and "this page added nothing new" are per query.
/// - **Debounce.** With `debounce`, a query takes effect once it has not changed for that long
///   on `clock` (typing "s", "sw", "swi" quickly makes one source and one request).
/// - **Empty query.** A query for which `isEmpty` is true shows no rows, is not fetching and
///   sends no request (its load state is that of a source that never fetched).
/// - **Old rows until the first page.** Unless `clearsOnQueryChange`, the previous query's rows
///   stay visible until the new query's source delivers its first batch or ends; then one
///   update (a diff by identity, O(n)) replaces them. ``loadState`` and ``loadEvents`` are the
///   new query's from the switch on (a view shows "loading" over the old rows).
/// - **Fetching.** Nothing is fetched before the first `fetchData()`; after it, every new
///   non-empty query is fetched at once. `fetchData()` again refreshes the current query.
///
/// Threading: as every ``DataSource``. The query property may be written from any thread;
/// `source` runs on the thread that made the query take effect (the writer, or the debounce
/// timer's task). Dropping this source stops following the query and cancels its timer.
public final class QueryDataSource<Query: Equatable & Sendable, Object: Hashable & Sendable>: DataSource {
    /// The source's name.
    public let name: String
    /// The query the current source was made for (after the debounce).
    public var query: Property<Query> { effectiveQuery.readOnly }
    /// The source of the current query (an empty, never-fetched source for an empty query).
    public var currentSource: Property<any DataSource<Object>> { target.readOnly }
    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public var updates: Property<SnapshotUpdate<Object>> { rows.updates }
    /// The current query's load state.
    public let loadState: Property<LoadState>
    /// The current query's load events.
    public let loadEvents: Signal<LoadEvent>

    private let target: MutableProperty<any DataSource<Object>>
    private let effectiveQuery: MutableProperty<Query>
    private let rows: SwitchingDataSource<Object>
    private let displayed: Property<any DataSource<Object>>
    private let emptySource: SimpleDataSource<Object>
    private let isActive = ActiveFlag()
    /// The debounced query (kept alive here) and the observation that switches sources.
    private let following: (Property<Query>, SignalSubscription)

    /// Follows `query`, showing `source(query)` for its current value.
    /// - Parameters:
    ///   - debounce: How long a query must stay unchanged before it takes effect; `nil`
    ///     (the default) switches on every change.
    ///   - clock: The clock the debounce waits on (a manual clock in tests).
    ///   - isEmpty: Which queries show nothing and fetch nothing (e.g. empty search text).
    ///   - clearsOnQueryChange: Show the new query's source at once (its loading placeholder)
    ///     instead of keeping the old rows until its first batch.
    ///   - source: Makes the source for a query; called once per query that takes effect.
    public init<C: Clock>(
        name: String = "",
        query: Property<Query>,
        debounce: C.Duration? = nil,
        clock: C,
        isEmpty: @escaping @Sendable (Query) -> Bool = { _ in false },
        clearsOnQueryChange: Bool = false,
        source: @escaping @Sendable (Query) -> any DataSource<Object>
    ) {
        self.name = name
        let emptySource = SimpleDataSource<Object>(name: name)
        self.emptySource = emptySource
        let initialQuery = query.value
        let make: @Sendable (Query) -> any DataSource<Object> = { isEmpty($0) ? emptySource : source($0) }
        let target = MutableProperty<any DataSource<Object>>(make(initialQuery), equals: nil)
        self.target = target
        effectiveQuery = MutableProperty(initialQuery, equals: nil)
        // Keeps showing the previous source until the new one delivers or ends.
        displayed = Property(reducing: target.value) { shown in
            let next = target.value
            if clearsOnQueryChange || next === shown || next.loadState.value.status != .loading { return next }
            return shown
        }
        rows = SwitchingDataSource(name: name, following: displayed, diffsSwitches: true)
        loadState = Property { target.value.loadState.value }
        loadEvents = target.switchLatest { $0.loadEvents }
        let timed = debounce.map { query.debounce(for: $0, clock: clock) } ?? query
        let effectiveQuery = effectiveQuery
        let isActive = isActive
        let subscription = timed.observe(emitsCurrentValue: false) { value in
            guard value != effectiveQuery.value else { return }
            let next = make(value)
            batch {
                effectiveQuery.value = value
                let previous = target.swap(next)
                previous.cancelFetch()
                if isActive.isSet, next !== emptySource { next.fetchData() }
            }
        }
        following = (timed, subscription)
    }

    /// Fetches the current query's source (nothing for an empty query); from now on each new
    /// query is fetched when it takes effect.
    public func fetchData() {
        isActive.set()
        let current = target.value
        if current !== emptySource { current.fetchData() }
    }

    /// Cancels the current query's fetch.
    public func cancelFetch() { target.value.cancelFetch() }

    /// Forwards to the current query's source while its rows are the ones shown (the old
    /// query's rows shown meanwhile load no more pages).
    public func willDisplayRow(at path: RowPath) {
        let current = target.value
        if displayed.value === current { current.willDisplayRow(at: path) }
    }
}

extension QueryDataSource {
    /// As the designated initialiser, with the debounce (if any) on the `ContinuousClock`.
    public convenience init(
        name: String = "",
        query: Property<Query>,
        debounce: Duration? = nil,
        isEmpty: @escaping @Sendable (Query) -> Bool = { _ in false },
        clearsOnQueryChange: Bool = false,
        source: @escaping @Sendable (Query) -> any DataSource<Object>
    ) {
        self.init(
            name: name, query: query, debounce: debounce, clock: ContinuousClock(), isEmpty: isEmpty,
            clearsOnQueryChange: clearsOnQueryChange, source: source
        )
    }
}

/// A flag set once, read from any thread.
final class ActiveFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
