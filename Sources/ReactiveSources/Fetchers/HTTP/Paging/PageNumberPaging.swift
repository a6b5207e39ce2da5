/// Page numbers, with the paginator keys in the response body (Instant Cocoa's scheme and
/// the default strategy).
///
/// Requests carry the page number (and the page size, when set). Each response's page,
/// page size, number of pages and total count are parsed into ``PageInfo``; missing,
/// ill-typed or negative values stay unknown. The next page is the requested number plus
/// one, unless the page was empty, the requested page reached the number of pages, or the
/// has-more key (``PaginatorKeys/hasMore``, when set) says `false`.
public struct PageNumberPaging: PagingStrategy {
    /// The names used in requests and responses.
    public var keys: PaginatorKeys
    /// The page size to request, or `nil` to let the server choose.
    public var pageSize: Int?
    /// The number of the first page (1 by default; some APIs count from 0).
    public var firstPage: Int

    /// Creates the strategy. A `pageSize` below 1 is treated as `nil`.
    public init(keys: PaginatorKeys = .default, pageSize: Int? = nil, firstPage: Int = 1) {
        self.keys = keys
        self.pageSize = pageSize.flatMap { $0 > 0 ? $0 : nil }
        self.firstPage = firstPage
    }

    /// The dotted key paths of the response scalars this strategy reads (see ``PagingStrategy``).
    public var scalarKeyPaths: [String] { [keys.page, keys.pageSize, keys.numberOfPages, keys.totalCount] + (keys.hasMore.map { [$0] } ?? []) }

    /// Puts `token` into `request` (see ``PagingStrategy``). Throws ``DataSourceError/invalidRequest(reason:)`` for a token kind this strategy does not use.
    public func prepare(_ request: inout PageRequest, for token: PageToken) throws {
        let number: Int
        switch token {
        case .first: number = firstPage
        case .number(let value): number = value
        case .cursor, .url: throw DataSourceError.invalidRequest(reason: "page-number paging cannot fetch \(token)")
        }
        var parameters = [(name: keys.pageParameter, value: String(number))]
        if let pageSize { parameters.append((keys.pageSizeParameter, String(pageSize))) }
        switch keys.placement {
        case .query: request.setQueryItems(parameters)
        case .header: for (name, value) in parameters { request.headers[name] = value }
        }
    }

    /// Reads the page info and the next token from `response` (see ``PagingStrategy``). Missing or ill-typed values leave the fields unknown.
    public func interpret(_ response: PageResponse, objectCount: Int, requested token: PageToken) -> (info: PageInfo, next: PageToken?) {
        let requested: Int = if case .number(let value) = token { value } else { firstPage }
        let info = PageInfo(
            page: response.count(at: keys.page),
            pageSize: response.count(at: keys.pageSize).flatMap { $0 > 0 ? $0 : nil },
            numberOfPages: response.count(at: keys.numberOfPages),
            totalCount: response.count(at: keys.totalCount),
            hasMore: keys.hasMore.flatMap { response.flag(at: $0) }
        )
        var isLast = objectCount == 0 || requested == Int.max || info.hasMore == false
        if let pages = info.numberOfPages {
            let (lastPage, overflow) = firstPage.addingReportingOverflow(pages - 1)
            if !overflow && requested >= lastPage { isLast = true }
        }
        return (info, isLast ? nil : .number(requested + 1))
    }
}
