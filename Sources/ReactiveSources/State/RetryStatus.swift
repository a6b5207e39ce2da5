/// A load waiting to try again after a failure (see ``RetryPolicy``): which attempt comes
/// next, out of how many, after what wait, and the failure that caused it. Shown by
/// ``LoadState/retry`` and ``PaginationState/retry`` from the failure until the load
/// delivers or ends.
public struct RetryStatus: Sendable, Equatable, CustomStringConvertible {
    /// The attempt that comes next (2 for the first retry).
    public var attempt: Int
    /// The most attempts the policy allows.
    public var maxAttempts: Int
    /// The wait before the attempt.
    public var delay: Duration
    /// The failure of the previous attempt.
    public var error: DataSourceError

    /// Creates a status.
    public init(attempt: Int, maxAttempts: Int, delay: Duration, error: DataSourceError) {
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.error = error
    }

    /// "retrying 2 of 4 in 1.6 s", for a status line.
    public var description: String {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        return "retrying \(attempt) of \(maxAttempts) in \((seconds * 10).rounded() / 10) s"
    }
}
