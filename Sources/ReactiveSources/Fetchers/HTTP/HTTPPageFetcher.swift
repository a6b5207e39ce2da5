import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches pages of a JSON API over HTTP for a ``PaginatedDataSource``; the
/// ``PagingStrategy`` decides how pages are requested and chained.
///
/// Each page is `GET baseURL/apiPath?queryItems` adapted by the strategy; the objects are
/// the array (or single object) at the dotted `keyPath`, decoded as `Element` in the same
/// pass as the strategy's paginator values. Errors are ``DataSourceError``s, as for
/// ``HTTPCollectionFetcher``. Cancelling the page load cancels the request in flight.
public struct HTTPPageFetcher<Element: Decodable & Sendable>: PageFetcher {
    /// Base URL, common headers, timeout and transport.
    public let configuration: RemoteConfiguration
    /// The path below the base URL.
    public let apiPath: String
    /// Query parameters added to every page request.
    public let queryItems: [URLQueryItem]
    /// Header fields added to every page request.
    public let headers: [String: String]
    /// The dotted key path of the array in each response (`""` for the root).
    public let keyPath: String
    /// How pages are requested and chained.
    public let paging: any PagingStrategy
    private let decoder: @Sendable () -> JSONDecoder
    /// What every page's request starts from (or why there is none), built once: the URL
    /// and header fields of the configuration's request for `apiPath`.
    private let base: Result<(url: URL, headers: [String: String]), any Error>
    /// The read plan for the strategy's scalar key paths at creation (rebuilt per page only
    /// if the strategy later reports other paths).
    private let plan: JSONReadPlan

    /// Creates a page fetcher. The default strategy is ``PageNumberPaging`` with Instant
    /// Cocoa's paginator keys.
    /// `makeDecoder` supplies the `JSONDecoder` for each response, used as it is: its
    /// strategies and options (`userInfo` included) apply to the envelope's keys and to the
    /// elements, and it is never modified, so one decoder may be shared. (With
    /// `assumesTopLevelDictionary`, a response whose root is an array cannot be read.)
    public init(
        configuration: RemoteConfiguration,
        apiPath: String,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        keyPath: String = "",
        paging: any PagingStrategy = PageNumberPaging(),
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) {
        self.configuration = configuration
        self.apiPath = apiPath
        self.queryItems = queryItems
        self.headers = headers
        self.keyPath = keyPath
        self.paging = paging
        self.decoder = makeDecoder
        base = Result {
            let request = try configuration.request(apiPath: apiPath, queryItems: queryItems, headers: headers)
            return (request.url ?? configuration.baseURL, request.allHTTPHeaderFields ?? [:])
        }
        plan = JSONReadPlan(itemsKeyPath: keyPath, scalarKeyPaths: paging.scalarKeyPaths)
    }

    /// Fetches the page `token` names (see ``PageFetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetchPage(_ token: PageToken) async throws -> Page<Element> {
        let (baseURL, baseHeaders) = try base.get()
        var pageRequest = PageRequest(url: baseURL, headers: baseHeaders)
        try paging.prepare(&pageRequest, for: token)
        // A new request rather than a copy of a base request with another URL: copying a
        // request copies the Foundation object under it, which costs several times more.
        var request = configuration.request(url: pageRequest.url)
        if pageRequest.headers == baseHeaders {
            request.allHTTPHeaderFields = baseHeaders
        } else {
            for (name, value) in pageRequest.headers { request.setValue(value, forHTTPHeaderField: name) }
        }

        let response = try await configuration.transport.send(request)
        try Task.checkCancellation()
        try response.requireSuccess()
        let scalarPaths = paging.scalarKeyPaths
        let plan = scalarPaths == self.plan.scalarKeyPaths ? self.plan : JSONReadPlan(itemsKeyPath: keyPath, scalarKeyPaths: scalarPaths)
        let envelope = try JSONEnvelope<Element>.decode(response.body, plan: plan, keyPath: keyPath, url: response.url, decoder: decoder())
        let (info, next) = paging.interpret(PageResponse(http: response, scalars: envelope.scalars), objectCount: envelope.elements.count, requested: token)
        return Page(objects: envelope.elements, info: info, next: next)
    }
}
