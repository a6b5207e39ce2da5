import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Signals
@testable import ReactiveSources

/// An in-memory ``HTTPTransport`` whose every request waits until the test answers it, in
/// whatever order the test chooses. It records every request (URL, page number, arrival
/// order) and calls `onChange` (and wakes waits) when a request arrives or ends.
///
/// Each request either honours cancellation (the waiting call throws `CancellationError`
/// as soon as its task is cancelled, like ``URLSessionTransport``) or ignores it (the call
/// goes on waiting and returns whatever the test answers later: a late, stale response).
final class FakeTransport: HTTPTransport, Wakes, @unchecked Sendable {
    /// One request and its pending answer.
    final class Request: @unchecked Sendable {
        let id: Int
        let url: URL
        let honoursCancellation: Bool
        private let lock = NSLock()
        private var continuation: CheckedContinuation<HTTPResponse, any Error>?
        private var early: Result<HTTPResponse, any Error>?
        private var answered = false

        init(id: Int, url: URL, honoursCancellation: Bool) {
            self.id = id
            self.url = url
            self.honoursCancellation = honoursCancellation
        }

        /// The `page` query parameter, if any.
        var page: Int? {
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "page" }?.value.flatMap { Int($0) }
        }

        /// Whether an answer (or a cancellation) has been given.
        var isAnswered: Bool { lock.withLock { answered } }

        /// Answers the request; returns false if it was already answered.
        @discardableResult
        func answer(_ result: Result<HTTPResponse, any Error>) -> Bool {
            let (didAnswer, waiting): (Bool, CheckedContinuation<HTTPResponse, any Error>?) = lock.withLock {
                guard !answered else { return (false, nil) }
                answered = true
                if let waiting = continuation {
                    continuation = nil
                    return (true, waiting)
                }
                early = result
                return (true, nil)
            }
            waiting?.resume(with: result)
            return didAnswer
        }

        fileprivate func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
            let ready: Result<HTTPResponse, any Error>? = lock.withLock {
                if let early {
                    self.early = nil
                    return early
                }
                self.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private let lock = NSLock()
    private var storage: [Request] = []
    private let honoursCancellation: @Sendable (Int) -> Bool
    private let onChange: @Sendable () -> Void

    /// `honoursCancellation(id)` decides, per request, whether cancellation ends it at once.
    init(honoursCancellation: @escaping @Sendable (Int) -> Bool = { _ in true }, onChange: @escaping @Sendable () -> Void = {}) {
        self.honoursCancellation = honoursCancellation
        let pulse = Pulse()
        self.pulse = pulse
        self.onChange = {
            pulse.poke()
            onChange()
        }
    }

    private let pulse: Pulse

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { pulse.onChange(wake) }

    /// Every request so far, in arrival order.
    var requests: [Request] { lock.withLock { storage } }

    var count: Int { lock.withLock { storage.count } }

    /// The requests not answered yet.
    var unanswered: [Request] { requests.filter { !$0.isAnswered } }

    func send(_ urlRequest: URLRequest) async throws -> HTTPResponse {
        let request: Request = lock.withLock {
            let request = Request(id: storage.count, url: urlRequest.url!, honoursCancellation: honoursCancellation(storage.count))
            storage.append(request)
            return request
        }
        onChange()
        defer { onChange() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { request.attach($0) }
        } onCancel: {
            if request.honoursCancellation { request.answer(.failure(CancellationError())) }
        }
    }

    /// A 200 response with a JSON body.
    static func json(_ object: Any, url: URL) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body, url: url)
    }
}
