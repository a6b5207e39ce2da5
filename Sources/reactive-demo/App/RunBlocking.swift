import Dispatch

/// Runs `body` on a detached task and blocks the calling thread until it returns its result.
/// The demo's `main` is synchronous (the interactive loop blocks the main thread), so its
/// asynchronous steps go through here; `body` must not need the calling thread.
func runBlocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    guard let result = box.value else { preconditionFailure("runBlocking: the task ended without a result") }
    return result
}

/// Carries a result from the detached task to the blocked thread; the semaphore orders the
/// write before the read.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    /// The result, once the task has returned.
    var value: Value?
}
