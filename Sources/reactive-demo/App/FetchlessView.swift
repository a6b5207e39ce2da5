import ReactiveSources
import Signals

/// Shows another source without fetching it: the demo's Sectioned view regroups the photos
/// section, which the Multi already fetches, so fetching through the view would restart it.
final class FetchlessView<Object: Hashable & Sendable>: DataSource {
    /// The source shown.
    let base: any DataSource<Object>

    /// Shows `base`.
    init(_ base: any DataSource<Object>) {
        self.base = base
    }

    /// The base source's name.
    var name: String { base.name }
    /// The base source's snapshots.
    var updates: Property<SnapshotUpdate<Object>> { base.updates }
    /// The base source's load state.
    var loadState: Property<LoadState> { base.loadState }
    /// The base source's load events.
    var loadEvents: Signal<LoadEvent> { base.loadEvents }
    /// Does nothing: whoever owns the base source fetches it.
    func fetchData() {}
    /// Does nothing: whoever owns the base source cancels it.
    func cancelFetch() {}
}
