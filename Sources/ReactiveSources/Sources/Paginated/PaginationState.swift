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
    /// Why paging ended (``hasMorePages`` is false), or `nil` while it has not (or before
    /// the first page).
    public var end: PagingEnd?
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

/// Why a ``PaginatedDataSource`` fetches no more pages (see ``PaginationState/end``).
public enum PagingEnd: Sendable, Equatable {
    /// The server said the page was the last: no next page token, a has-more key that is
    /// false, or the page number reached the declared number of pages.
    case lastPage
    /// A page came back with no objects, even if the server declared more pages.
    case emptyPage
    /// A page repeated the previous page, object for object (a server ignoring the page
    /// parameter, a cursor that does not move).
    case repeatedPage
    /// Every object of a page was already shown, by identity: the next pages would very
    /// likely bring nothing new either.
    case noNewObjects
}
