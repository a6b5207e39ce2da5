import Signals

/// The one node kind behind every derived source: a ``NodeTransformer`` plugged into the
/// plumbing they all share.
///
/// - **Versions.** ``updates`` is a lazy reducing `Signals` property over the transformer:
///   computed when read or observed, cut off by version (a transformer that returns its
///   previous update publishes nothing).
/// - **Load state and events** come from the node's ``Upstream``: the one parent's, the
///   current parent's (switching with it), or aggregated over several.
/// - **Fetch, cancel, display** go to the parents the same way; a displayed row goes to the
///   parent row the transformer names.
///
/// Threading: every member may be called from any thread (see ``DataSource``).
@usableFromInline
struct DerivedNode<Object: Hashable & Sendable>: Sendable {
    /// Where a node's load state comes from and its fetches go.
    @usableFromInline
    enum Upstream: Sendable {
        /// One parent for good (Mapped, Filtered, Sorted, Sectioned).
        case parent(any DataSource)
        /// Whichever source the property holds (Switching, Segmented, Query).
        case following(Property<any DataSource<Object>>)
        /// Several children, their load states aggregated (Multi).
        case children([any DataSource], MultiLoadAggregator)
    }

    let updates: Property<SnapshotUpdate<Object>>
    let loadState: Property<LoadState>
    let loadEvents: Signal<LoadEvent>
    private let upstream: Upstream
    private let parentRow: @Sendable (RowPath, SnapshotUpdate<Object>) -> ParentRow?

    init<Transformer: NodeTransformer>(_ transformer: Transformer, upstream: Upstream) where Transformer.Object == Object {
        updates = Property(reducing: SnapshotUpdate(snapshot: Snapshot()), equals: { $0.version == $1.version }, transformer.next)
        self.upstream = upstream
        parentRow = { [weak transformer] path, own in transformer?.parentRow(ofOwn: path, own: own) }
        switch upstream {
        case .parent(let parent):
            loadState = parent.loadState
            loadEvents = parent.loadEvents
        case .following(let current):
            loadState = Property { current.value.loadState.value }
            loadEvents = current.switchLatest { $0.loadEvents }
        case .children(_, let aggregator):
            loadState = aggregator.loadState
            loadEvents = aggregator.loadEvents
        }
    }

    /// Fetches the parent, the current parent, or every child (a composed fetch).
    func fetchData() {
        switch upstream {
        case .parent(let parent): parent.fetchData()
        case .following(let current): current.value.fetchData()
        case .children(let children, let aggregator):
            batch {
                aggregator.beginFetch()
                for child in children { child.fetchData() }
            }
        }
    }

    /// Cancels the parent's fetch, the current parent's, or every child's (the composed
    /// fetch ends with `didFail(.cancelled)`).
    func cancelFetch() {
        switch upstream {
        case .parent(let parent): parent.cancelFetch()
        case .following(let current): current.value.cancelFetch()
        case .children(let children, let aggregator):
            batch {
                aggregator.cancelFetch()
                for child in children { child.cancelFetch() }
            }
        }
    }

    /// Forwards to the parent row the transformer names for `path`; invalid paths are ignored.
    func willDisplayRow(at path: RowPath) {
        if let row = parentRow(path, updates.value) { row.parent.willDisplayRow(at: row.path) }
    }
}
