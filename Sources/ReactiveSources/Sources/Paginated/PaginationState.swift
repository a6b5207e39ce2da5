/// The paging state of a ``PaginatedDataSource``, separate from its first-load state
/// (`loadState`), as Paging 3 and TanStack Query users expect.
public struct PaginationState: Sendable, Equatable {
    /// The state of the next-page load.
    public enum NextPage: Sendable, Equatable {
        /// No next page is loading.
        case idle
        /// The next page is loading.
        case loading
        /// The last next-page load failed; ``PaginatedDataSource/fetchNextPage()`` retries
        /// the same page.
        case failed(DataSourceError)
    }

    /// What the last page said about the collection (page, page size, pages, total).
    public var info = PageInfo()
    /// How many pages are shown.
    public var loadedPages = 0
    /// Whether another page can be fetched.
    public var hasMorePages = false
    /// The next-page load.
    public var nextPage: NextPage = .idle
    /// The retry the next-page load waits for or runs (see ``RetryPolicy``), from the failure
    /// until the page lands or the load ends; `nil` otherwise.
    public var retry: RetryStatus?

    /// The state before anything was fetched.
    public init() {}

    /// Whether the next page is loading.
    public var isLoadingNextPage: Bool { nextPage == .loading }

    /// The error of the last next-page load, if it failed.
    public var nextPageError: DataSourceError? {
        if case .failed(let error) = nextPage { return error }
        return nil
    }
}
