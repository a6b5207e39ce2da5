import Foundation

/// Which page to fetch: the first, a page number, a cursor, or a URL given by the server.
public enum PageToken: Hashable, Sendable {
    /// The first page (a refresh).
    case first
    /// A page number, as the page-number strategy counts them.
    case number(Int)
    /// An opaque cursor returned by the previous page.
    case cursor(String)
    /// A URL to fetch as is (for example from a `Link: <...>; rel="next"` header).
    case url(URL)
}

/// What a page tells about the whole collection. Every field is optional: a missing or
/// ill-typed value in a response leaves it unknown.
public struct PageInfo: Hashable, Sendable {
    /// The page number the response says it is.
    public var page: Int?
    /// The number of objects per page.
    public var pageSize: Int?
    /// The total number of pages.
    public var numberOfPages: Int?
    /// The total number of objects.
    public var totalCount: Int?
    /// Whether the response said more pages follow (a has-more key such as StackExchange's
    /// `has_more`); `false` ends paging.
    public var hasMore: Bool?

    /// Creates page info; unknown values are `nil`.
    public init(page: Int? = nil, pageSize: Int? = nil, numberOfPages: Int? = nil, totalCount: Int? = nil, hasMore: Bool? = nil) {
        self.page = page
        self.pageSize = pageSize
        self.numberOfPages = numberOfPages
        self.totalCount = totalCount
        self.hasMore = hasMore
    }
}

/// One fetched page.
public struct Page<Object: Sendable>: Sendable {
    /// The page's objects, in order.
    public var objects: [Object]
    /// What the response said about the collection.
    public var info: PageInfo
    /// The token of the next page, or `nil` when the server says there is none.
    public var next: PageToken?

    /// Creates a page.
    public init(objects: [Object], info: PageInfo = PageInfo(), next: PageToken?) {
        self.objects = objects
        self.info = info
        self.next = next
    }
}

/// Gets one page at a time for a ``PaginatedDataSource``: the paging strategy (page numbers,
/// cursors, Link headers) lives here, so the source works with any API.
///
/// Cancellation: the source cancels the task; throw `CancellationError` (map transport
/// cancellations such as `URLError(.cancelled)` to it).
public protocol PageFetcher<Object>: Sendable {
    /// The type of the objects fetched.
    associatedtype Object: Sendable

    /// Fetches the page named by `token`. Throws a typed error describing what went wrong.
    func fetchPage(_ token: PageToken) async throws -> Page<Object>
}

/// A page fetcher made of a closure: for tests, fakes and in-process APIs.
public struct ClosurePageFetcher<Object: Sendable>: PageFetcher {
    private let body: @Sendable (PageToken) async throws -> Page<Object>

    /// Creates a fetcher that calls `body` for every page.
    public init(_ body: @escaping @Sendable (PageToken) async throws -> Page<Object>) {
        self.body = body
    }

    /// Fetches the page `token` names (see ``PageFetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetchPage(_ token: PageToken) async throws -> Page<Object> {
        try await body(token)
    }
}
