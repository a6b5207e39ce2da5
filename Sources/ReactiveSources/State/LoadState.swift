/// A source's fetch status and content state, published together as one observable value.
///
/// Changed only by applying ``LoadEvent``s, so the status and the content state never
/// disagree.
public struct LoadState: Sendable, Equatable {
    /// Where the current or last fetch stands.
    public private(set) var status: FetchStatus = .idle
    /// What a view should show.
    public private(set) var content: ContentState = .initial
    /// The retry the fetch in flight waits for or runs (see ``RetryPolicy``), from the failure
    /// until the fetch delivers a batch or ends; `nil` otherwise. Any event clears it.
    public internal(set) var retry: RetryStatus?

    /// The state of a source that never fetched.
    public init() {}

    /// Whether a fetch is in flight.
    public var isFetching: Bool { status.isFetching }

    /// The error of the last fetch, if it failed (cancellations included).
    public var error: DataSourceError? {
        if case .failed(let error) = status { return error }
        return nil
    }

    /// The state after `event`, given whether the snapshot holds objects after it.
    public func applying(_ event: LoadEvent, hasContent: Bool) -> LoadState {
        var next = self
        switch event {
        case .willLoad: next.status = .loading
        case .didPartiallyLoad: next.status = .partiallyLoaded
        case .didFinishLoading: next.status = .finished
        case .didFail(let error): next.status = .failed(error)
        }
        next.content = content.applying(event, hasContent: hasContent)
        next.retry = nil
        return next
    }
}
