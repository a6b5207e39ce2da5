import Foundation

// Helpers for tests that need threads of their own. Swift Testing runs test functions, sync
// ones included, on the cooperative pool, which has one thread per core (two on CI). A test
// that blocks a pool thread (a semaphore, a dispatch group, a spin) holds it from every other
// test's tasks: fetch tasks, and the tasks `eventually` wakes. Under load two such tests at
// once left the pool without a thread for tens of seconds, and waits in other suites timed
// out. So blocking code runs on threads of its own, and the test awaits it (suspending).

/// Runs `body` on a new thread and returns its result, suspending (not blocking) the caller.
@discardableResult
func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Runs `body` on `count` new threads at once and waits (without blocking the caller's
/// thread) until all have returned.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.notify(queue: .global()) { continuation.resume() }
    }
}

/// Blocks the calling thread (one of the test's own) until `semaphore` is signalled, and
/// takes the signal; returns false if the hang guard ended the wait instead (`limit` seconds
/// of pool time, see ``PoolClock``; `WAIT_LIMIT` shortens it as for every wait). The guard
/// is a timer on a queue of its own that signals the semaphore once expired: the thread
/// wakes for the event or for a wait that never comes, never to poll.
func waitGuarded(for semaphore: DispatchSemaphore, limit: TimeInterval = 120) -> Bool {
    let limit = ProcessInfo.processInfo.environment["WAIT_LIMIT"].flatMap(TimeInterval.init) ?? limit
    let guardian = HangGuard(limit)
    let expired = Locked(false)
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "waitGuarded"))
    timer.schedule(deadline: .now() + PoolClock.tick, repeating: PoolClock.tick)
    timer.setEventHandler {
        guard guardian.hasExpired, expired.withLock({ expired in
            defer { expired = true }
            return !expired
        }) else { return }
        semaphore.signal()
    }
    timer.resume()
    semaphore.wait()
    timer.cancel()
    // An expired guard may have signalled as the event came: the run fails then anyway.
    return !expired.withLock { $0 }
}
