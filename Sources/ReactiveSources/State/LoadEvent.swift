/// What a source tells its observers about a fetch.
///
/// The lifecycle contract, for every source in the package: each `fetchData()` produces
/// exactly one ``willLoad``, then zero or more ``didPartiallyLoad``, then exactly one
/// finisher, ``didFinishLoading`` or ``didFail(_:)``. `cancelFetch()`, and a `fetchData()`
/// that supersedes a fetch in flight, end that fetch with `didFail(.cancelled)` before
/// anything else is sent.
public enum LoadEvent: Sendable, Equatable {
    /// A fetch started.
    case willLoad
    /// A batch arrived and the snapshot now includes it.
    case didPartiallyLoad
    /// The fetch finished successfully.
    case didFinishLoading
    /// The fetch ended without finishing: cancelled, superseded or failed.
    case didFail(DataSourceError)

    /// Whether this event ends a fetch.
    public var isFinisher: Bool {
        switch self {
        case .didFinishLoading, .didFail: return true
        case .willLoad, .didPartiallyLoad: return false
        }
    }
}
