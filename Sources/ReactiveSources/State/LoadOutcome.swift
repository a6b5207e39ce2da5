/// How a load started by ``RemoteDataSource/fetchData()``, ``PaginatedDataSource/fetchData()``
/// or ``PaginatedDataSource/fetchNextPage()`` ended (see ``LoadHandle``).
public enum LoadOutcome: Sendable, Equatable {
    /// The load finished: `objects` is how many objects it brought (for a fetch or a refresh,
    /// the objects shown; for a next page, the new objects appended).
    case loaded(objects: Int)
    /// `fetchNextPage()` had nothing to load: paging has ended (or nothing was fetched yet).
    case noMorePages
    /// The load failed (retries included) with `error`; the content shown is kept.
    case failed(DataSourceError)
    /// The load was cancelled: by `cancelFetch()`, a newer `fetchData()`, or the source going away.
    case cancelled

    /// The outcome of a load that ended with `error` (a cancellation is ``cancelled``).
    init(_ error: DataSourceError) {
        self = error.isCancellation ? .cancelled : .failed(error)
    }
}
