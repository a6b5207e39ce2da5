import ReactiveSources
import Signals

/// Shows another source without fetching it: the demo's Sectioned view regroups the photos
/// section, which the Multi already fetches, so fetching through the view would restart it.
final class FetchlessView<Object: Hashable & Sendable>: DataSource {
    let base: any DataSource<Object>

    init(_ base: any DataSource<Object>) {
        self.base = base
    }

    var name: String { base.name }
    var updates: Property<SnapshotUpdate<Object>> { base.updates }
    var loadState: Property<LoadState> { base.loadState }
    var loadEvents: Signal<LoadEvent> { base.loadEvents }
    func fetchData() {}
    func cancelFetch() {}
}
