import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where and how to reach an API: the base URL, headers sent with every request, the
/// timeout and the transport. Shared by the HTTP fetchers of one API.
public struct RemoteConfiguration: Sendable {
    /// The URL that `apiPath`s are appended to.
    public var baseURL: URL
    /// Header fields sent with every request (a fetcher's own headers win on conflicts).
    public var headers: [String: String]
    /// Seconds to wait for a response before failing with ``DataSourceError/transport(_:url:)`` (``TransportFailure/timeout(seconds:)``).
    /// Values of 0 or less mean the default of 30 s.
    public var timeout: TimeInterval
    /// What sends the requests.
    public var transport: any HTTPTransport

    /// Creates a configuration.
    public init(
        baseURL: URL,
        headers: [String: String] = [:],
        timeout: TimeInterval = 30,
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout > 0 ? timeout : 30
        self.transport = transport
    }

    /// The request for `apiPath` below the base URL, with `queryItems` added to any the
    /// base URL has. Throws ``DataSourceError/invalidRequest(reason:)`` if no valid URL
    /// results.
    func request(apiPath: String, queryItems: [URLQueryItem], headers extra: [String: String]) throws -> URLRequest {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw DataSourceError.invalidRequest(reason: "'\(baseURL.absoluteString)' is not a valid base URL")
        }
        let trimmedPath = apiPath.drop { $0 == "/" }
        if !trimmedPath.isEmpty {
            let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.path = base + "/" + trimmedPath
        }
        if !queryItems.isEmpty {
            components.queryItems = (components.queryItems ?? []) + queryItems
        }
        guard let url = components.url, url.host != nil else {
            throw DataSourceError.invalidRequest(reason: "'\(apiPath)' below '\(baseURL.absoluteString)' is not a valid URL")
        }
        var request = request(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers.merging(extra, uniquingKeysWith: { $1 }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// A request for `url` with no header fields: every request of the HTTP fetchers starts
    /// here, so a page request made anew has whatever the base request has besides its URL
    /// and header fields.
    func request(url: URL) -> URLRequest {
        URLRequest(url: url, timeoutInterval: timeout)
    }
}
