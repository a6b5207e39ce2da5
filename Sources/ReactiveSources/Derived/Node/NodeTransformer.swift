/// How a derived node turns its parents' current updates into its own next update: the one
/// thing that differs between the derived sources. ``Derivation`` (Mapped, Filtered, Sorted),
/// ``Grouper`` (Sectioned), ``SwitchFollower`` (Switching, Segmented, Query) and
/// ``MultiComposer`` (Multi, which publishes eagerly and so gives the node its property
/// rather than ``next(_:)``) are the transformers; ``DerivedSourceNode`` does the rest
/// (versions, load state, fetch, cancel, display forwarding) the same way for all of them,
/// and ``NodePlaceholders`` holds the placeholder rules they share.
///
/// Calls of ``next(_:)`` are serial (a derived property's closure never runs concurrently
/// with itself); ``parentRow(ofOwn:own:)`` may be called from any thread.
protocol NodeTransformer<Object>: AnyObject, Sendable {
    associatedtype Object: Hashable & Sendable

    /// The next own update after `previous`, from the parents' current updates (read here,
    /// so the node depends on them); `previous` itself when nothing visible changed.
    func next(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object>

    /// The parent row shown at own `path` of `own` (the node's current update), where a
    /// displayed row is forwarded; `nil` for an invalid path, or when the transformer has
    /// moved past `own` meanwhile.
    func parentRow(ofOwn path: RowPath, own: SnapshotUpdate<Object>) -> ParentRow?
}

/// A row of one of a node's parents: where ``DerivedSourceNode/willDisplayRow(at:)`` forwards.
@usableFromInline
struct ParentRow {
    @usableFromInline var parent: any DataSource
    @usableFromInline var path: RowPath

    @usableFromInline
    init(parent: any DataSource, path: RowPath) {
        self.parent = parent
        self.path = path
    }
}
