import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A received HTTP response: status, headers and the whole body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields (names as sent; look them up with ``header(_:)``). For a response
    /// from ``URLSessionTransport`` the dictionary is made on first access.
    public var headers: [String: String] {
        get { fields.all }
        set { fields = HeaderFields(newValue) }
    }
    /// The body.
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: URL
    private var fields: HeaderFields

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data, url: URL) {
        self.statusCode = statusCode
        fields = HeaderFields(headers)
        self.body = body
        self.url = url
    }

    /// A response whose header fields are read from `response` when asked for.
    init(statusCode: Int, fieldsOf response: HTTPURLResponse, body: Data, url: URL) {
        self.statusCode = statusCode
        fields = HeaderFields(response)
        self.body = body
        self.url = url
    }

    /// The value of the header field `name`, compared case-insensitively; `nil` if absent.
    public func header(_ name: String) -> String? {
        fields.value(name)
    }
}

/// Sends HTTP requests. ``URLSessionTransport`` is the real one; the demo and tests inject
/// in-process transports.
///
/// Contract: return the response whatever its status (status checks are the fetcher's job);
/// throw ``DataSourceError/transport(_:url:)`` for transport
/// failures and `CancellationError` when the calling task is cancelled.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response.
    func send(_ request: URLRequest) async throws -> HTTPResponse
}
