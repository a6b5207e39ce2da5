import Foundation

/// Runs `body` on a new thread and returns what it returns or rethrows what it throws,
/// suspending (not blocking) the caller. Running a child process and reading its pipes to
/// the end blocks a thread for the whole run; Swift Testing runs tests on the cooperative
/// pool (one thread per core, two on CI), whose threads every other suite's tasks need.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
