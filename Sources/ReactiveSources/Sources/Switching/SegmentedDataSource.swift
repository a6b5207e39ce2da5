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
public final class SegmentedDataSource<Object: Hashable & Sendable>: DerivedSourceNode<Object>, DataSource, @unchecked Sendable {
    /// The source's name.
    public let name: String
    /// The children, in segment order.
    public let children: [any DataSource<Object>]
    /// The index of the selected child.
    public let selectedIndex: MutableProperty<Int>
    private let current: Property<any DataSource<Object>>
    /// Whether `fetchData()` was called: from then on a newly selected child is fetched.
    private let isActive: ActiveFlag
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
        let isActive = ActiveFlag()
        self.isActive = isActive
        selection = current.observe(emitsCurrentValue: false) { child in
            if isActive.isSet, child.loadState.value.status == .idle { child.fetchData() }
        }
        super.init(SwitchFollower(following: current), upstream: .following(current))
    }

    /// The child shown now.
    public var selectedChild: any DataSource<Object> { current.value }
    /// Fetches the selected child; from now on a child is fetched when first selected.
    public override func fetchData() {
        isActive.set()
        super.fetchData()
    }
}
