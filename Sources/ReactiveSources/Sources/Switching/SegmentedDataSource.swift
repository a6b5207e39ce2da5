import Signals
import Synchronization

/// Several children, one shown at a time: the one `selectedIndex` selects (as Apple's
/// AdvancedCollectionView's segmented data source).
///
/// - **Switching.** Writing `selectedIndex` publishes one update: the old child's sections
///   out, the new child's in. Load state and load events are the selected child's. An index
///   out of range selects the nearest child (the first or the last).
/// - **Fetching.** `fetchData()` fetches the selected child. Once it has been called, a child
///   selected for the first time that never fetched (status `idle`) is fetched on selection;
///   a child selected again keeps the content it had, and is not refetched.
/// - **Following.** The selected child's own updates are followed with their change sets
///   (see ``SwitchingDataSource``).
///
/// Threading: as every ``DataSource``; `selectedIndex` may be written from any thread (the
/// fetch on selection runs on the writing thread, after the write).
public final class SegmentedDataSource<Object: Hashable & Sendable>: DataSource {
    /// The source's name.
    public let name: String
    /// The children, in segment order.
    public let children: [any DataSource<Object>]
    /// The index of the selected child.
    public let selectedIndex: MutableProperty<Int>
    private let current: Property<any DataSource<Object>>
    private let node: DerivedNode<Object>
    /// Whether `fetchData()` was called: from then on a newly selected child is fetched.
    private let isActive = ActiveFlag()
    private let selection: SignalSubscription

    /// Shows `children[selectedIndex]`. With no children it shows an empty source.
    public init(name: String = "", children: [any DataSource<Object>], selectedIndex: Int = 0) {
        self.name = name
        let shown: [any DataSource<Object>] = children.isEmpty ? [SimpleDataSource<Object>(name: name)] : children
        self.children = children
        let index = MutableProperty(selectedIndex)
        self.selectedIndex = index
        let current = Property<any DataSource<Object>> { shown[min(max(index.value, 0), shown.count - 1)] }
        self.current = current
        node = DerivedNode(SwitchFollower(following: current), upstream: .following(current))
        let isActive = self.isActive
        selection = current.observe(emitsCurrentValue: false) { child in
            if isActive.isSet, child.loadState.value.status == .idle { child.fetchData() }
        }
    }

    /// The child shown now.
    public var selectedChild: any DataSource<Object> { current.value }
    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public var updates: Property<SnapshotUpdate<Object>> { node.updates }
    /// The selected child's load state.
    public var loadState: Property<LoadState> { node.loadState }
    /// The selected child's load events.
    public var loadEvents: Signal<LoadEvent> { node.loadEvents }

    /// Fetches the selected child; from now on a child is fetched when first selected.
    public func fetchData() {
        isActive.set()
        node.fetchData()
    }

    /// Cancels the selected child's fetch.
    public func cancelFetch() { node.cancelFetch() }

    /// Forwards to the selected child.
    public func willDisplayRow(at path: RowPath) { node.willDisplayRow(at: path) }
}
