/// What a view should show for a source: the content-state machine of PJFDataSource and
/// Apple's AdvancedCollectionView.
///
/// The state has no setter: it changes only through ``applying(_:hasContent:)``, a total
/// function of (state, event), so an invalid transition cannot be expressed. "Content" means
/// at least one object (placeholders do not count).
///
/// | from \ event                    | willLoad, didPartiallyLoad           | didFinishLoading | didFail(.cancelled)                                   | didFail(error) |
/// |---------------------------------|--------------------------------------|------------------|-------------------------------------------------------|----------------|
/// | initial, loaded, empty, error   | refreshing if content, else loading  | loaded / empty   | unchanged                                             | error          |
/// | loading                         | loading                              | loaded / empty   | loaded if content, else the state before the fetch    | error          |
/// | refreshing                      | refreshing                           | loaded / empty   | loaded if content, else the state before the fetch    | error          |
///
/// "Content" is judged after the event: a source that already shows objects (a Simple
/// source, a loaded remote one) goes to `refreshing`, an empty one to `loading`; a fetch
/// keeps its phase until it ends, even when partial loads bring the first objects.
/// `loaded / empty` means `loaded` when the snapshot has objects and `empty` otherwise.
/// An error keeps whatever objects were shown (a failed refresh never erases content).
public struct ContentState: Sendable, Equatable, CustomStringConvertible {
    /// The visible phase.
    public enum Phase: Sendable, Equatable {
        /// Nothing was ever fetched.
        case initial
        /// Loading, with no objects shown when the fetch began (partial loads may add some).
        case loading
        /// Loading while previous content stays visible.
        case refreshing
        /// Showing content.
        case loaded
        /// The last fetch finished with no objects.
        case empty
        /// The last fetch failed; content, if any, is still shown.
        case error(DataSourceError)
    }

    /// The current phase.
    public private(set) var phase: Phase
    /// The phase before the fetch in flight began (what a cancellation returns to).
    private var settled: Phase

    /// The state of a source that never fetched.
    public static let initial = ContentState(phase: .initial, settled: .initial)

    private init(phase: Phase, settled: Phase) {
        self.phase = phase
        self.settled = settled
    }

    /// The state after `event`, given whether the snapshot holds objects after the event.
    public func applying(_ event: LoadEvent, hasContent: Bool) -> ContentState {
        switch event {
        case .willLoad, .didPartiallyLoad:
            switch phase {
            case .loading, .refreshing:
                return self
            case .initial, .loaded, .empty, .error:
                let next: Phase = hasContent ? .refreshing : .loading
                return ContentState(phase: next, settled: phase)
            }
        case .didFinishLoading:
            let next: Phase = hasContent ? .loaded : .empty
            return ContentState(phase: next, settled: next)
        case .didFail(let error) where error.isCancellation:
            switch phase {
            case .loading, .refreshing:
                let next: Phase = hasContent ? .loaded : settled
                return ContentState(phase: next, settled: next)
            case .initial, .loaded, .empty, .error:
                return self
            }
        case .didFail(let error):
            return ContentState(phase: .error(error), settled: .error(error))
        }
    }

    /// Whether a fetch is in flight (loading or refreshing).
    public var isLoading: Bool {
        switch phase {
        case .loading, .refreshing: return true
        default: return false
        }
    }

    /// A short name of the phase: "initial", "loading", "refreshing", "loaded", "empty" or "error".
    public var description: String {
        switch phase {
        case .initial: return "initial"
        case .loading: return "loading"
        case .refreshing: return "refreshing"
        case .loaded: return "loaded"
        case .empty: return "empty"
        case .error: return "error"
        }
    }
}
