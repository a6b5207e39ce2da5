import Foundation

/// Holds a fetch task back until the call that started it has returned: the one rule for
/// when a ``RemoteDataSource`` or ``PaginatedDataSource`` fetcher starts, the same on every
/// platform. The task awaits ``wait()`` first; the starting call opens the gate as its last
/// step. A task that gets there first suspends once; otherwise it passes at once.
final class StartGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// For tests of the start rule, which wait for it instead of giving a task time: called
    /// by a task that reaches its gate while the gate is closed (the call that started it has
    /// not returned), just before it suspends there. Task-local, so only the tasks started
    /// inside the test's `withValue` call it; `nil` (not set) everywhere else.
    @TaskLocal static var reachedClosed: (@Sendable () -> Void)?

    /// Returns once the gate is open.
    func wait() async {
        if lock.withLock({ isOpen }) { return }
        Self.reachedClosed?()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = lock.withLock {
                if !isOpen { waiter = continuation }
                return isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the gate, resuming the task waiting at it. Later calls do nothing.
    func open() {
        let resumed: CheckedContinuation<Void, Never>? = lock.withLock {
            isOpen = true
            defer { waiter = nil }
            return waiter
        }
        resumed?.resume()
    }
}
