/// Where the current (or last) fetch of a source stands.
public enum FetchStatus: Sendable, Equatable {
    /// No fetch has started yet.
    case idle
    /// A fetch is in flight and has delivered nothing yet.
    case loading
    /// A fetch is in flight and has delivered at least one batch.
    case partiallyLoaded
    /// The last fetch finished.
    case finished
    /// The last fetch ended with an error or was cancelled.
    case failed(DataSourceError)

    /// Whether a fetch is in flight.
    public var isFetching: Bool {
        switch self {
        case .loading, .partiallyLoaded: return true
        case .idle, .finished, .failed: return false
        }
    }
}
