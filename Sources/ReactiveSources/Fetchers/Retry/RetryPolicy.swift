import Foundation

/// When and how long a source waits before trying a failed load again: exponential back-off
/// with full jitter, a maximum number of attempts, a cap on the delay, and the server's
/// `Retry-After` honoured.
///
/// Only failures that may succeed again are retried (``DataSourceError/isRetryable``:
/// transport errors and timeouts, 5xx, 429), never other 4xx statuses, decoding errors,
/// invalid requests, custom errors or cancellation. Before attempt `n` (2...) the source
/// waits a random duration in `0 ... min(maxDelay, initialDelay * multiplier^(n-2))` ("full
/// jitter"), or, for a 429 or 503 with a `Retry-After` header (seconds or an HTTP date), the
/// time the server asks for; a `Retry-After` beyond `maxDelay` ends the load with the error
/// instead. Waiting runs on the policy's clock, so tests can use a manual clock; cancelling
/// the load (`cancelFetch()`, a newer `fetchData()`) ends the wait at once and sends nothing
/// more.
///
/// ``default``: 4 attempts, 0.5 s initial delay, doubling, at most 30 s, on the continuous
/// clock. ``none``: one attempt, no retry.
public struct RetryPolicy: Sendable {
    /// The most attempts, the first included (at least 1; 1 means no retry).
    public var maxAttempts: Int
    /// The upper bound of the first retry's delay.
    public var initialDelay: Duration
    /// How much the bound grows per attempt (at least 1).
    public var multiplier: Double
    /// The largest delay waited, and the largest `Retry-After` honoured.
    public var maxDelay: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double

    /// Creates a policy. `clock` is what waits; `now` gives the current date (to read a
    /// `Retry-After` date); `random` returns a number in `0..<1` (the jitter; values outside
    /// are clamped). A `maxAttempts` below 1 is treated as 1, negative delays as zero, a
    /// `multiplier` below 1 as 1.
    public init(
        maxAttempts: Int = 4,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(.zero, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(.zero, maxDelay)
        sleep = { duration in try await clock.sleep(for: duration) }
        self.now = now
        self.random = random
    }

    /// 4 attempts, 0.5 s initial delay, doubling, at most 30 s, on the continuous clock.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// No retry: one attempt.
    public static var none: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// The wait before attempt `attempt` (2 for the first retry) after `error`, or `nil` when
    /// the load should end with `error`: not retryable, no attempts left, or a `Retry-After`
    /// beyond ``maxDelay``. O(1).
    public func delay(before attempt: Int, after error: DataSourceError) -> Duration? {
        guard error.isRetryable, attempt >= 2, attempt <= maxAttempts else { return nil }
        if case .httpStatus(let code, _, _, let header?) = error, code == 429 || code == 503,
           let asked = RetryAfter.delay(header, now: now()) {
            return asked <= maxDelay ? asked : nil
        }
        let growth = pow(multiplier, Double(attempt - 2))
        let bound = min(maxDelay, initialDelay * min(growth, 1e9))
        return bound * min(1, max(0, random()))
    }

    /// Runs `operation` until it succeeds, fails for good, or is cancelled. Before each wait,
    /// `willWait` gets the retry's status and returns whether to go on (`false`: the load is
    /// no longer current; the failure is rethrown). Rethrows the last failure, or
    /// `CancellationError` when cancelled during a wait.
    func run<Result>(
        _ operation: () async throws -> Result,
        willWait: (RetryStatus) -> Bool
    ) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await operation()
            } catch {
                let failure = DataSourceError(error)
                guard !Task.isCancelled, let delay = delay(before: attempt + 1, after: failure) else { throw error }
                attempt += 1
                guard willWait(RetryStatus(attempt: attempt, maxAttempts: maxAttempts, delay: delay, error: failure)) else { throw error }
                try await sleep(delay)
            }
        }
    }
}
