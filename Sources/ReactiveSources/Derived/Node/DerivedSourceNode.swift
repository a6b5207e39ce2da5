import Signals

/// The one node kind behind every derived source (``DerivedDataSource``,
/// ``SectionedDataSource``, ``MultiDataSource``, ``SwitchingDataSource``,
/// ``SegmentedDataSource``): a transformer of its parents' updates into its own, plugged
/// into the plumbing they all share. Only the transformer differs between them.
///
/// - **Versions.** ``updates`` is a lazy reducing `Signals` property over the transformer:
///   computed when read or observed; a transformer that finds nothing visible changed
///   publishes nothing. (The Multi's transformer publishes eagerly instead, for the reasons
///   its ``MultiComposer`` gives; the node then shows the property it writes.)
/// - **Load state and events** are the parent's, the current parent's (switching with it),
///   or, over several children, aggregated (see ``MultiDataSource``).
/// - **Fetch, cancel, display** go to the parents the same way; a displayed row goes to the
///   parent row it shows. Invalid paths are ignored.
///
/// Threading: every member may be called from any thread (see ``DataSource``).
/// Not created directly: use the subclasses (which restate `@unchecked Sendable`, as Swift
/// asks of a non-final class's subclasses; they hold only immutable Sendable state).
public class DerivedSourceNode<Object: Hashable & Sendable>: @unchecked Sendable {
    /// Where a node's load state comes from and its fetches go.
    @usableFromInline
    enum Upstream: Sendable {
        /// One parent for good (Mapped, Filtered, Sorted, Sectioned).
        case parent(any DataSource)
        /// Whichever source the property holds (Switching, Segmented).
        case following(Property<any DataSource<Object>>)
        /// Several children, their load states aggregated (Multi).
        case children([any DataSource], MultiLoadAggregator)
    }

    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public let updates: Property<SnapshotUpdate<Object>>
    /// The fetch status and content state (see ``DataSource/loadState``).
    public let loadState: Property<LoadState>
    /// Will load, partially loaded, finished, failed (see ``DataSource/loadEvents``).
    public let loadEvents: Signal<LoadEvent>
    private let upstream: Upstream
    private let parentRow: @Sendable (RowPath, SnapshotUpdate<Object>) -> ParentRow?

    /// A node whose `updates` reduce its parents' through `transformer`.
    init<Transformer: NodeTransformer>(_ transformer: Transformer, upstream: Upstream) where Transformer.Object == Object {
        updates = Property(reducing: SnapshotUpdate(snapshot: Snapshot()), equals: { $0.version == $1.version }, transformer.next)
        self.upstream = upstream
        parentRow = { path, own in transformer.parentRow(ofOwn: path, own: own) }
        (loadState, loadEvents) = Self.load(of: upstream)
    }

    /// A node whose transformer publishes `updates` itself (a Multi's ``MultiComposer``);
    /// `parentRow` is its mapping of a displayed row (see ``NodeTransformer/parentRow(ofOwn:own:)``).
    @usableFromInline
    init(
        published updates: Property<SnapshotUpdate<Object>>, upstream: Upstream,
        parentRow: @escaping @Sendable (RowPath, SnapshotUpdate<Object>) -> ParentRow?
    ) {
        self.updates = updates
        self.upstream = upstream
        self.parentRow = parentRow
        (loadState, loadEvents) = Self.load(of: upstream)
    }

    /// The load state and events a node over `upstream` shows.
    private static func load(of upstream: Upstream) -> (Property<LoadState>, Signal<LoadEvent>) {
        switch upstream {
        case .parent(let parent): (parent.loadState, parent.loadEvents)
        case .following(let current): (Property { current.value.loadState.value }, current.switchLatest { $0.loadEvents })
        case .children(_, let aggregator): (aggregator.loadState, aggregator.loadEvents)
        }
    }

    /// Fetches the parent (the current one, or every child: one composed fetch).
    public func fetchData() { forward({ $0.fetchData() }, composed: { $0.beginFetch() }) }

    /// Cancels the parent's fetch (the current one's, or every child's: the composed fetch
    /// ends with `didFail(.cancelled)`).
    public func cancelFetch() { forward({ $0.cancelFetch() }, composed: { $0.cancelFetch() }) }

    /// Forwards to the parent row shown at `path`, with the parent's own index path (for a
    /// sorted source, the end of the parent's section when its last row is displayed).
    public func willDisplayRow(at path: RowPath) {
        if let row = parentRow(path, updates.value) { row.parent.willDisplayRow(at: row.path) }
    }

    /// Calls `call` on the parent, the current parent, or (after `composed` on the
    /// aggregate, in one batch) every child.
    private func forward(_ call: (any DataSource) -> Void, composed: (MultiLoadAggregator) -> Void) {
        switch upstream {
        case .parent(let parent): call(parent)
        case .following(let current): call(current.value)
        case .children(let children, let aggregator):
            batch {
                composed(aggregator)
                for child in children { call(child) }
            }
        }
    }
}
