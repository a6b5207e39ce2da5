import Foundation

/// Lets a test wait, without sleeping, until a condition over state changed by other threads
/// holds: whatever changes that state calls ``poke()``, and each waiter's condition is
/// re-evaluated then. A watchdog ends waits that never come true after `timeout` seconds (a
/// safety net so a broken library fails the test instead of hanging it, not a timing
/// assertion). The timeout is in pool time (see ``PoolClock``): it does not run while the
/// tasks a wait depends on are queued for a thread of the cooperative pool, which on a loaded
/// 2-core machine, or under a sanitizer, can take minutes of wall-clock time.
final class Pulse: @unchecked Sendable {
    private struct Waiter {
        var condition: @Sendable () -> Bool
        var continuation: CheckedContinuation<Bool, Never>
        var guardian: HangGuard
    }

    private let lock = NSLock()
    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0
    /// How long a wait may last before the watchdog ends it (a hang guard).
    let timeout: TimeInterval
    private var watchdog: (any DispatchSourceTimer)?

    init(timeout: TimeInterval = 120) {
        self.timeout = timeout
        // A serial queue of its own: the global queue's threads are the pool's.
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Pulse.watchdog"))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.expireOverdue() }
        timer.resume()
        watchdog = timer
    }

    deinit { watchdog?.cancel() }

    /// Re-evaluates every waiting condition; resumes the waits whose condition holds.
    func poke() {
        let pending = lock.withLock { waiters.map { ($0.key, $0.value.condition) } }
        for (id, condition) in pending where condition() {
            resume(id, with: true)
        }
    }

    /// Waits until `condition` holds (true) or the watchdog gives up (false).
    func wait(until condition: @escaping @Sendable () -> Bool) async -> Bool {
        if condition() { return true }
        let id: UInt64 = lock.withLock {
            nextID &+= 1
            return nextID
        }
        return await withCheckedContinuation { continuation in
            lock.withLock {
                waiters[id] = Waiter(condition: condition, continuation: continuation, guardian: HangGuard(timeout))
            }
            // The state may have changed between the first check and the registration.
            if condition() { resume(id, with: true) }
        }
    }

    private func resume(_ id: UInt64, with value: Bool) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: value)
    }

    private func expireOverdue() {
        let overdue = lock.withLock { waiters.filter { $0.value.guardian.hasExpired }.map(\.key) }
        if !overdue.isEmpty, ProcessInfo.processInfo.environment["RELIABILITY_VERBOSE"] != nil {
            print("Pulse: \(overdue.count) wait(s) gave up after \(timeout) s of pool time")
        }
        for id in overdue { resume(id, with: false) }
    }
}

/// Waits until every box in `boxes` is freed, yielding (then sleeping a millisecond) between
/// checks, for at least `attempts` checks; returns the names of those still alive. Fetch
/// tasks ending after their source was dropped may hold it a moment longer. When sleeping,
/// it also keeps checking for up to a minute (a hang guard: those tasks may wait long for a
/// thread of the cooperative pool on a loaded machine); without sleeping it is a quick check.
func stillAlive(_ boxes: [WeakBox], attempts: Int = 2_000, sleeping: Bool = true) async -> [String] {
    let guardian = HangGuard(sleeping ? 60 : 0)
    var remaining = boxes.filter(\.isAlive)
    var attempt = 0
    while !remaining.isEmpty && (attempt < attempts || !guardian.hasExpired) {
        attempt += 1
        if sleeping { try? await Task.sleep(nanoseconds: 1_000_000) } else { await Task.yield() }
        remaining = remaining.filter(\.isAlive)
    }
    return remaining.map(\.name)
}
