import Foundation

/// The delegate queue of the sessions ``URLSessionTransport`` creates: it runs each callback
/// at once, on the thread that hands it over (the session's own work queue), instead of
/// handing it to another thread first.
///
/// FoundationNetworking delivers a data task's completion handler through the session's
/// delegate queue; a regular `OperationQueue` adds a thread hop per request before the
/// transport can resume its caller. `URLSession.data(for:)` avoids that hop the same way
/// (it asks the task to call its handler inline). The callbacks the transport installs only
/// copy the response and resume a continuation, so they never block the work queue.
///
/// Operations added as `Operation` objects still go through the regular queue.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
        super.init()
        name = "ReactiveSources.URLSessionTransport.inline"
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
