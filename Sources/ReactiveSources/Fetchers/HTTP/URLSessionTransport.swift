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
/// ``DataSourceError/transport(_:url:)`` with ``TransportFailure/timeout(seconds:)``.
public struct URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// The session used for every request.
    ///
    /// With ``init()``, this session's delegate queue runs blocks inline on the session's work
    /// queue (see ``init()``): a completion handler you give this session yourself (for a task
    /// of your own, `getAllTasks`, `flush`) runs on that queue and must not block or wait for
    /// it: no `cancel()`, `resume()` or `suspend()` of a task, no new task, no `send`. Use
    /// ``init(session:)`` with your own session if you need that.
    public let session: URLSession

    /// Creates a transport over `session`. The session keeps its own delegate queue, so each
    /// response makes one more thread hop than with ``init()``.
    ///
    /// - Important: On Linux, give it a session without a `URLCache`
    ///   (`configuration.urlCache = nil`). With a cache, FoundationNetworking looks the cache up
    ///   asynchronously, and a request cancelled just as its response arrives can then stop
    ///   the process with "Trying to access a behaviour for a task that in not in the
    ///   registry" (reproduced once every few thousand such cancels; never without a cache).
    ///   Sources cancel requests whenever a newer fetch supersedes them.
    public init(session: URLSession) {
        self.session = session
    }

    /// Creates a transport over a new ephemeral session with no `URLCache`: no cookies or
    /// credentials shared with other transports, and every request goes to the server (a
    /// refresh never gets a cached page). Its delegate queue runs the completion handlers
    /// inline on the session's work queue, as `URLSession.data(for:)` does: one thread hop
    /// fewer per request than a regular `OperationQueue`.
    public init() {
        self.init(session: URLSession(configuration: Self.defaultConfiguration(), delegate: nil, delegateQueue: InlineDelegateQueue()))
    }

    /// An ephemeral configuration without a `URLCache` (see ``init(session:)`` for why).
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return configuration
    }

    /// Sends `request` and returns the response whatever its status. Throws ``DataSourceError/transport(_:url:)`` for a timeout or a transport failure, and `CancellationError` when the task is cancelled (URLSession's `URLError(.cancelled)` is mapped to it; sources report it as ``DataSourceError/cancelled``).
    public func send(_ request: URLRequest) async throws -> HTTPResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    let outcome = box.finish()
                    if outcome == .alreadyFinished { return }
                    if outcome == .timedOut {
                        continuation.resume(throwing: DataSourceError.transport(.timeout(seconds: request.timeoutInterval), url: url))
                    } else if let error {
                        continuation.resume(throwing: Self.map(error, url: url, timeout: request.timeoutInterval))
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: HTTPResponse(
                            statusCode: response.statusCode, fieldsOf: response, body: data ?? Data(), url: response.url ?? url
                        ))
                    } else {
                        continuation.resume(throwing: DataSourceError.transport(.other("the response is not HTTP"), url: url))
                    }
                }
                box.start(task, timeout: request.timeoutInterval)
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// `error` as the transport reports it: cancellation as `CancellationError`, anything
    /// else as ``DataSourceError/transport(_:url:)``.
    static func map(_ error: any Error, url: URL, timeout: TimeInterval) -> any Error {
        guard let urlError = error as? URLError else {
            return DataSourceError.transport(.other(error.localizedDescription), url: url)
        }
        let mapped = DataSourceError(urlError, url: url, timeout: timeout)
        return mapped.isCancellation ? CancellationError() : mapped
    }
}

/// Holds the data task so a cancellation that races with its creation still cancels it,
/// and enforces the timeout (through the shared ``TimeoutWatchdog``).
///
/// The data task is not cancelled once its completion handler is known to have run (the
/// response is in; cancelling could only race FoundationNetworking's bookkeeping of the
/// finished task). The check is made again on the cancel queue, just before cancelling.
///
/// `URLSessionDataTask.cancel()` waits for the session's work queue, which may be running
/// the completion handler inline (``InlineDelegateQueue``) and resuming the very task being
/// cancelled; the runtime holds that task's status lock while it runs cancellation handlers.
/// So a cancellation handler never cancels the data task on its own thread: it hands it to
/// a serial queue of its own, which gets a thread even when the global queues' threads are
/// all busy (the cooperative pool blocked in synchronous work would otherwise delay the
/// cancel, and the server would see the connection close late).
private final class TaskBox: @unchecked Sendable {
    private static let cancelQueue = DispatchQueue(label: "ReactiveSources.URLSessionTransport.cancel")
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false
    private var didTimeOut = false
    private var isFinished = false
    private var watch: TimeoutWatchdog.Ticket?

    func start(_ task: URLSessionDataTask, timeout: TimeInterval) {
        let cancelled = lock.withLock {
            self.task = task
            return isCancelled
        }
        if cancelled { task.cancel() }
        let ticket = TimeoutWatchdog.shared.watch(after: max(0.001, timeout)) { [weak self] in self?.timeOut() }
        // A cancel before `start` can complete the task before the ticket is stored; `finish`
        // then found no ticket to remove.
        let finished = lock.withLock {
            watch = ticket
            return isFinished
        }
        if finished { TimeoutWatchdog.shared.unwatch(ticket) }
        task.resume()
    }

    /// How a request ended, as seen by its completion handler.
    enum Outcome {
        case completed, timedOut
        /// The handler already ran once. FoundationNetworking's own guard against a second
        /// delivery is a check-then-act that a serial delegate queue protects; with the inline
        /// queue, a `URLProtocol` reporting from its own thread could race a cancel.
        case alreadyFinished
    }

    /// Stops watching the timeout and says how the request ended (once; later calls return
    /// `.alreadyFinished`).
    func finish() -> Outcome {
        let (ticket, timedOut, first) = lock.withLock {
            defer {
                watch = nil
                isFinished = true
            }
            return (watch, didTimeOut, !isFinished)
        }
        if let ticket { TimeoutWatchdog.shared.unwatch(ticket) }
        guard first else { return .alreadyFinished }
        return timedOut ? .timedOut : .completed
    }

    private func timeOut() {
        let task = lock.withLock {
            didTimeOut = true
            return isFinished ? nil : self.task
        }
        task?.cancel()
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return isFinished ? nil : self.task
        }
        guard let task else { return }
        Self.cancelQueue.async { [self] in
            if !lock.withLock({ isFinished }) { task.cancel() }
        }
    }
}

/// Runs timeout handlers with one timer for all requests in flight, so a request costs a
/// dictionary insertion and removal rather than creating, arming and cancelling a dispatch
/// timer. The timer is armed for the earliest deadline; watching a later deadline, or
/// unwatching, leaves it alone (when it fires early it re-arms for the next deadline).
final class TimeoutWatchdog: @unchecked Sendable {
    static let shared = TimeoutWatchdog()

    typealias Ticket = UInt64

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "ReactiveSources.TimeoutWatchdog")
    private var timer: (any DispatchSourceTimer)?
    private var entries: [Ticket: (deadline: DispatchTime, handler: @Sendable () -> Void)] = [:]
    private var nextTicket: Ticket = 0
    /// The deadline the timer is armed for, or `nil` when it is idle.
    private var armed: DispatchTime?

    deinit {
        timer?.cancel()
    }

    /// Calls `handler` (on a background queue) `seconds` from now, unless unwatched first.
    func watch(after seconds: TimeInterval, _ handler: @escaping @Sendable () -> Void) -> Ticket {
        let deadline = DispatchTime.now() + seconds
        return lock.withLock {
            nextTicket &+= 1
            entries[nextTicket] = (deadline, handler)
            if armed.map({ deadline < $0 }) ?? true { arm(deadline) }
            return nextTicket
        }
    }

    /// Forgets `ticket`; its handler will not run (unless it is already running).
    func unwatch(_ ticket: Ticket) {
        lock.withLock { _ = entries.removeValue(forKey: ticket) }
    }

    /// Arms the timer for `deadline`. Caller holds the lock.
    private func arm(_ deadline: DispatchTime) {
        armed = deadline
        if let timer {
            timer.schedule(deadline: deadline, leeway: .milliseconds(1))
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.schedule(deadline: deadline, leeway: .milliseconds(1))
        timer.resume()
        self.timer = timer
    }

    /// Runs the handlers whose deadline passed and re-arms for the next one.
    private func fire() {
        let due: [@Sendable () -> Void] = lock.withLock {
            let now = DispatchTime.now()
            var due: [@Sendable () -> Void] = []
            var next: DispatchTime?
            var expired: [Ticket] = []
            for (ticket, entry) in entries {
                if entry.deadline <= now {
                    expired.append(ticket)
                    due.append(entry.handler)
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            for ticket in expired { entries[ticket] = nil }
            if let next { arm(next) } else { armed = nil }
            return due
        }
        for handler in due { handler() }
    }
}
