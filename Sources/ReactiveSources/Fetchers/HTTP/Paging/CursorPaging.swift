/// Cursor paging: each response carries the cursor of the next page at a key path, and
/// the next request sends it back as a query parameter. A missing, `null` or empty cursor
/// means there are no more pages.
public struct CursorPaging: PagingStrategy {
    /// Dotted key path of the next cursor in the response. Default `next_cursor`.
    public var cursorKeyPath: String
    /// Query parameter carrying the cursor. Default `cursor`.
    public var parameter: String
    /// Optional dotted key path of the total number of objects.
    public var totalCountKeyPath: String?

    /// Creates the strategy.
    public init(cursorKeyPath: String = "next_cursor", parameter: String = "cursor", totalCountKeyPath: String? = nil) {
        self.cursorKeyPath = cursorKeyPath
        self.parameter = parameter
        self.totalCountKeyPath = totalCountKeyPath
    }

    /// The dotted key paths of the response scalars this strategy reads (see ``PagingStrategy``).
    public var scalarKeyPaths: [String] { [cursorKeyPath] + (totalCountKeyPath.map { [$0] } ?? []) }

    /// Puts `token` into `request` (see ``PagingStrategy``). Throws ``DataSourceError/invalidRequest(reason:)`` for a token kind this strategy does not use.
    public func prepare(_ request: inout PageRequest, for token: PageToken) throws {
        switch token {
        case .first: break
        case .cursor(let cursor): request.setQueryItem(parameter, to: cursor)
        case .number, .url: throw DataSourceError.invalidRequest(reason: "cursor paging cannot fetch \(token)")
        }
    }

    /// Reads the page info and the next token from `response` (see ``PagingStrategy``). Missing or ill-typed values leave the fields unknown.
    public func interpret(_ response: PageResponse, objectCount: Int, requested token: PageToken) -> (info: PageInfo, next: PageToken?) {
        let info = PageInfo(totalCount: totalCountKeyPath.flatMap { response.count(at: $0) })
        guard objectCount > 0, let cursor = response.scalars[cursorKeyPath]?.string, !cursor.isEmpty else {
            return (info, nil)
        }
        return (info, .cursor(cursor))
    }
}
