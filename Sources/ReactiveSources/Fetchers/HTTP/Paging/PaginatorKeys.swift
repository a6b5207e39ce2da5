/// The names a page-number API uses, with Instant Cocoa's defaults.
///
/// Response keys are dotted key paths into the JSON body (`"meta.page"` works). Request
/// names say how the page number and page size are sent, and where (``Placement``).
public struct PaginatorKeys: Hashable, Sendable {
    /// Where the page number and page size go in a request.
    public enum Placement: Hashable, Sendable {
        /// As query parameters (the default).
        case query
        /// As header fields.
        case header
    }

    /// Response key of the page number. Default `page`.
    public var page: String
    /// Response key of the page size. Default `page_size`.
    public var pageSize: String
    /// Response key of the number of pages. Default `number_of_pages`.
    public var numberOfPages: String
    /// Response key of the total number of objects. Default `total_count`.
    public var totalCount: String
    /// Response key of a boolean saying whether more pages follow (StackExchange's
    /// `has_more`), or `nil` (the default) for none. When the response says `false` (or 0),
    /// that page is the last: no request for an empty page follows.
    public var hasMore: String?
    /// Request parameter carrying the page number. Default `page`.
    public var pageParameter: String
    /// Request parameter carrying the page size. Default `page_size`.
    public var pageSizeParameter: String
    /// Where the request parameters go.
    public var placement: Placement

    /// Creates paginator keys; every name defaults to Instant Cocoa's.
    public init(
        page: String = "page",
        pageSize: String = "page_size",
        numberOfPages: String = "number_of_pages",
        totalCount: String = "total_count",
        pageParameter: String = "page",
        pageSizeParameter: String = "page_size",
        placement: Placement = .query,
        hasMore: String? = nil
    ) {
        self.hasMore = hasMore
        self.page = page
        self.pageSize = pageSize
        self.numberOfPages = numberOfPages
        self.totalCount = totalCount
        self.pageParameter = pageParameter
        self.pageSizeParameter = pageSizeParameter
        self.placement = placement
    }

    /// Instant Cocoa's names.
    public static let `default` = PaginatorKeys()

    /// The StackExchange API's names: `page` and `pagesize` in the request; `page`,
    /// `page_size`, `total` (with a filter that includes it) and `has_more` in the response.
    public static let stackExchange = PaginatorKeys(totalCount: "total", pageSizeParameter: "pagesize", hasMore: "has_more")
}
