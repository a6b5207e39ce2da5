import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux).
///
/// Cancelling the calling task cancels the data task in flight (the server sees the
/// connection close) and throws `CancellationError`; on Linux a cancelled request reports
/// `URLError(.cancelled)`, which is mapped the same way. The request's `timeoutInterval`
/// is enforced by the transport itself (FoundationNetworking on Linux does not honour
/// sub-second or idle timeouts reliably): past it, the task is cancelled and the call throws
/// ``HTTPFetchError/timeout(url:seconds:)``.
public struct URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// The session used for every request.
    public let session: URLSession

    /// Creates a transport over `session` (an ephemeral session by default, so no cache or
    /// cookies leak between sources).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Sends `request` and returns the response whatever its status. Throws ``HTTPFetchError`` for a timeout or a transport failure, and `CancellationError` when the task is cancelled (URLSession's `URLError(.cancelled)` is mapped to it; sources report it as ``DataSourceError/cancelled``).
    public func send(_ request: URLRequest) async throws -> HTTPResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if box.finish() {
                        continuation.resume(throwing: HTTPFetchError.timeout(url: url, seconds: request.timeoutInterval))
                    } else if let error {
                        continuation.resume(throwing: Self.map(error, url: url, timeout: request.timeoutInterval))
                    } else if let response = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (key, value) in response.allHeaderFields {
                            headers[String(describing: key)] = String(describing: value)
                        }
                        continuation.resume(returning: HTTPResponse(
                            statusCode: response.statusCode, headers: headers, body: data ?? Data(), url: response.url ?? url
                        ))
                    } else {
                        continuation.resume(throwing: HTTPFetchError.transport(url: url, reason: "the response is not HTTP"))
                    }
                }
                box.start(task, timeout: request.timeoutInterval)
            }
        } onCancel: {
            box.cancel()
        }
    }

    static func map(_ error: any Error, url: URL, timeout: TimeInterval) -> any Error {
        guard let urlError = error as? URLError else {
            return HTTPFetchError.transport(url: url, reason: error.localizedDescription)
        }
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return HTTPFetchError.timeout(url: url, seconds: timeout)
        case .cannotConnectToHost:
            return HTTPFetchError.connectionFailed(url: url, reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed:
            return HTTPFetchError.connectionFailed(url: url, reason: "unknown host")
        case .networkConnectionLost:
            return HTTPFetchError.connectionFailed(url: url, reason: "the connection was lost")
        case .notConnectedToInternet:
            return HTTPFetchError.connectionFailed(url: url, reason: "no network")
        default:
            return HTTPFetchError.transport(url: url, reason: urlError.localizedDescription)
        }
    }
}

/// Holds the data task so a cancellation that races with its creation still cancels it,
/// and enforces the timeout.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false
    private var didTimeOut = false
    private var timer: (any DispatchSourceTimer)?

    func start(_ task: URLSessionDataTask, timeout: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + max(0.001, timeout))
        timer.setEventHandler { [weak self] in self?.timeOut() }
        let cancelled = lock.withLock {
            self.task = task
            self.timer = timer
            return isCancelled
        }
        if cancelled { task.cancel() }
        task.resume()
        timer.resume()
    }

    /// Stops the timer; returns whether the request ended because it timed out.
    func finish() -> Bool {
        let (timer, timedOut) = lock.withLock {
            defer { self.timer = nil }
            return (self.timer, didTimeOut)
        }
        timer?.cancel()
        return timedOut
    }

    private func timeOut() {
        let task = lock.withLock {
            didTimeOut = true
            return self.task
        }
        task?.cancel()
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return self.task
        }
        task?.cancel()
    }
}
