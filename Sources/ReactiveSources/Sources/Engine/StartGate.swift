import Foundation

/// Holds a fetch task back until the call that started it has returned: the one rule for
/// when a ``RemoteDataSource`` or ``PaginatedDataSource`` fetcher starts, the same on every
/// platform. The task awaits ``wait()`` first; the starting call opens the gate as its last
/// step. A task that gets there first suspends once; otherwise it passes at once.
final class StartGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// Returns once the gate is open.
    func wait() async {
        if lock.withLock({ isOpen }) { return }
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
