import Foundation

/// How an API pages: what to add to a request for a page, and what a response says about
/// the collection and the next page. ``HTTPPageFetcher`` does the HTTP and JSON work and
/// asks its strategy for these two answers.
///
/// Shipped strategies: ``PageNumberPaging`` (Instant Cocoa's paginator keys in the body, the
/// default), ``CursorPaging`` (a cursor at a key path, sent back as a query parameter) and
/// ``LinkHeaderPaging`` (`Link: <...>; rel="next"`, RFC 8288).
public protocol PagingStrategy: Sendable {
    /// Dotted key paths of response scalars this strategy reads (read in the same pass as
    /// the objects).
    var scalarKeyPaths: [String] { get }

    /// Adapts `request` to ask for the page named by `token`. Throws
    /// ``DataSourceError/invalidRequest(reason:)`` for a token kind it does not use.
    func prepare(_ request: inout PageRequest, for token: PageToken) throws

    /// What `response` (which carried `objectCount` objects) says about the collection,
    /// and the token of the next page (`nil` when there is none).
    func interpret(_ response: PageResponse, objectCount: Int, requested token: PageToken) -> (info: PageInfo, next: PageToken?)
}

/// A page request being prepared: the URL (base, `apiPath` and fixed query items already
/// applied) and header fields.
public struct PageRequest: Sendable {
    /// The URL to fetch.
    public var url: URL
    /// Header fields to send.
    public var headers: [String: String]

    /// Creates a request.
    public init(url: URL, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }

    /// Sets the query parameter `name` to `value`, replacing any previous value. Characters
    /// other than `A-Z a-z 0-9 - . _ ~` in either are percent-encoded (`+` too); the other
    /// parameters are kept as they are encoded. A URL that `URLComponents` cannot take is
    /// left unchanged.
    public mutating func setQueryItem(_ name: String, to value: String) {
        setQueryItems([(name, value)])
    }
}

/// A received page: the HTTP response and the scalars the strategy asked for.
public struct PageResponse: Sendable {
    /// The HTTP response (status, headers, body).
    public var http: HTTPResponse
    /// Scalars by dotted key path; absent paths are missing.
    public var scalars: [String: JSONScalar]

    /// Creates a page response.
    public init(http: HTTPResponse, scalars: [String: JSONScalar] = [:]) {
        self.http = http
        self.scalars = scalars
    }

    /// A boolean at `keyPath` (`true`/`false`, or the numbers 1/0), or `nil` when missing or
    /// ill-typed.
    public func flag(at keyPath: String) -> Bool? {
        switch scalars[keyPath] {
        case .bool(let value)?: value
        case .integer(0)?: false
        case .integer(1)?: true
        default: nil
        }
    }

    /// A whole, non-negative number at `keyPath`, or `nil` when missing, ill-typed (a
    /// string, a fraction, `null`) or negative.
    public func count(at keyPath: String) -> Int? {
        guard let value = scalars[keyPath]?.integer, value >= 0 else { return nil }
        return value
    }
}
