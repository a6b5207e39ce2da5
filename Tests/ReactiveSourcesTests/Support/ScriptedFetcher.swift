import Foundation
@testable import ReactiveSources

/// A fetcher whose every call is driven by the test: deliver batches, finish or fail, in any
/// order across calls. Cancellation makes the call throw `CancellationError`.
final class ScriptedFetcher<Object: Sendable>: Fetcher, @unchecked Sendable {
    enum Command: Sendable {
        case batch([Object])
        case finish
        case fail(any Error)
    }

    /// One call of `fetch(into:)`.
    final class Call: @unchecked Sendable {
        let commands: AsyncStream<Command>
        private let continuation: AsyncStream<Command>.Continuation
        private let lock = NSLock()
        private var cancelled = false
        private var ended = false

        init() {
            (commands, continuation) = AsyncStream<Command>.makeStream()
        }

        func deliver(_ batch: [Object]) { continuation.yield(.batch(batch)) }
        func finish() { continuation.yield(.finish) }
        func fail(_ error: any Error) { continuation.yield(.fail(error)) }

        var wasCancelled: Bool { lock.withLock { cancelled } }
        var hasEnded: Bool { lock.withLock { ended } }
        func markCancelled() { lock.withLock { cancelled = true } }
        func markEnded() { lock.withLock { ended = true } }
    }

    private let lock = NSLock()
    private var storage: [Call] = []

    /// Every call so far, oldest first.
    var calls: [Call] { lock.withLock { storage } }

    func fetch(into sink: FetchSink<Object>) async throws {
        let call = Call()
        lock.withLock { storage.append(call) }
        defer { call.markEnded() }
        try await withTaskCancellationHandler {
            for await command in call.commands {
                try Task.checkCancellation()
                switch command {
                case .batch(let batch): await sink.deliver(batch)
                case .finish: return
                case .fail(let error): throw error
                }
            }
            throw CancellationError()
        } onCancel: {
            call.markCancelled()
            call.finish()
        }
    }
}

/// A test error with a readable message.
struct TestFailure: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}
