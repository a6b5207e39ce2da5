import Foundation
import Signals
@testable import ReactiveSources

/// A fetcher whose every call is driven by the test: deliver batches, finish or fail, in any
/// order across calls. Cancellation makes the call throw `CancellationError`. Wakes waits
/// when a call starts, is cancelled or ends.
final class ScriptedFetcher<Object: Sendable>: Fetcher, Wakes, @unchecked Sendable {
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
        private let pulse: Pulse

        init(_ pulse: Pulse) {
            self.pulse = pulse
            (commands, continuation) = AsyncStream<Command>.makeStream()
        }

        func deliver(_ batch: [Object]) { continuation.yield(.batch(batch)) }
        func finish() { continuation.yield(.finish) }
        func fail(_ error: any Error) { continuation.yield(.fail(error)) }

        var wasCancelled: Bool { lock.withLock { cancelled } }
        var hasEnded: Bool { lock.withLock { ended } }
        func markCancelled() {
            lock.withLock { cancelled = true }
            pulse.poke()
        }
        func markEnded() {
            lock.withLock { ended = true }
            pulse.poke()
        }
    }

    private let lock = NSLock()
    private var storage: [Call] = []
    private let pulse = Pulse()

    /// Every call so far, oldest first.
    var calls: [Call] { lock.withLock { storage } }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { pulse.onChange(wake) }

    func fetch(into sink: FetchSink<Object>) async throws {
        let call = Call(pulse)
        lock.withLock { storage.append(call) }
        pulse.poke()
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
