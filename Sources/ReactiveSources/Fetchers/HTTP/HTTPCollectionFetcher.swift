import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a JSON collection over HTTP and decodes each element as `Element` (the Swift form
/// of Instant Cocoa's collection fetcher).
///
/// The request is `GET baseURL/apiPath?queryItems` with the configuration's and the
/// fetcher's headers. The array lives at the dotted `keyPath` of the response (`""` for a
/// root array); a single object at the key path becomes a one-element array. The elements
/// are decoded straight from the parsed JSON, in one pass.
///
/// Errors are ``DataSourceError``s: non-2xx status (with status code and a body excerpt),
/// timeout, connection refused, a body that is not JSON, key path not found (naming the
/// path), an element that does not decode (naming its index and the decoding error).
/// Cancelling the fetch cancels the request in flight.
public struct HTTPCollectionFetcher<Element: Decodable & Sendable>: Fetcher {
    /// Base URL, common headers, timeout and transport.
    public let configuration: RemoteConfiguration
    /// The path below the base URL.
    public let apiPath: String
    /// Query parameters added to the request.
    public let queryItems: [URLQueryItem]
    /// Header fields added to the request.
    public let headers: [String: String]
    /// The dotted key path of the array in the response (`""` for the root).
    public let keyPath: String
    private let decoder: @Sendable () -> JSONDecoder
    /// The request (or why there is none) and the read plan, built once.
    private let request: Result<URLRequest, any Error>
    private let plan: JSONReadPlan

    /// Creates a fetcher.
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
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) {
        self.configuration = configuration
        self.apiPath = apiPath
        self.queryItems = queryItems
        self.headers = headers
        self.keyPath = keyPath
        self.decoder = makeDecoder
        request = Result { try configuration.request(apiPath: apiPath, queryItems: queryItems, headers: headers) }
        plan = JSONReadPlan(itemsKeyPath: keyPath, scalarKeyPaths: [])
    }

    /// Delivers the results to `sink` in one or more batches (see ``Fetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetch(into sink: FetchSink<Element>) async throws {
        let response = try await configuration.transport.send(try request.get())
        try Task.checkCancellation()
        try response.requireSuccess()
        let envelope = try JSONEnvelope<Element>.decode(response.body, plan: plan, keyPath: keyPath, url: response.url, decoder: decoder())
        await sink.deliver(envelope.elements)
    }
}

extension HTTPResponse {
    /// Throws ``DataSourceError/httpStatus(code:url:bodyExcerpt:retryAfter:)`` unless the
    /// status is 2xx.
    func requireSuccess() throws {
        guard (200...299).contains(statusCode) else {
            throw DataSourceError.httpStatus(
                code: statusCode, url: url, bodyExcerpt: DataSourceError.excerpt(of: body), retryAfter: header("Retry-After")
            )
        }
    }
}
