import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources

/// Wraps a transport so the next request can be made to fail (the demo's `e` key): it then
/// answers HTTP 503 without reaching the API.
final class FailureInjector: HTTPTransport, @unchecked Sendable {
    /// The transport that answers requests that are not failed.
    private let base: any HTTPTransport
    /// Guards `armed`.
    private let lock = NSLock()
    /// Whether the next request fails.
    private var armed = false

    /// Wraps `base`, with no failure armed.
    init(wrapping base: any HTTPTransport) {
        self.base = base
    }

    /// Whether the next request will fail.
    var isArmed: Bool { lock.withLock { armed } }

    /// Makes the next request fail.
    func failNextRequest() {
        lock.withLock { armed = true }
    }

    /// Answers 503 if a failure is armed, otherwise forwards `request`. A request whose task
    /// is already cancelled is not sent and leaves the failure armed for the next one.
    func send(_ request: URLRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let failing = lock.withLock {
            defer { armed = false }
            return armed
        }
        guard failing else { return try await base.send(request) }
        try await Task.sleep(for: .milliseconds(50))
        return HTTPResponse(statusCode: 503, body: Data("injected failure (key e)".utf8), url: request.url ?? SimulatedFeedAPI.baseURL)
    }
}
