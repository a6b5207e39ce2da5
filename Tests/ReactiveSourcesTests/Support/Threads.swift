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
