/// A snapshot together with the change that produced it.
///
/// `changes` turns the snapshot of update `version - 1` of the same source into `snapshot`.
/// A consumer that missed an update (observers see the latest value) detects it by the
/// version gap and diffs instead; ``DataSource/observeChanges(_:)`` does this for you.
public struct SnapshotUpdate<Object: Hashable & Sendable>: Sendable {
    /// The content after the change.
    public var snapshot: Snapshot<Object>
    /// The edit from the previous version's snapshot to `snapshot`.
    public var changes: ChangeSet
    /// Increases by one with every update of a source; the first value is 0.
    public var version: UInt64

    /// Creates an update.
    public init(snapshot: Snapshot<Object>, changes: ChangeSet = ChangeSet(), version: UInt64 = 0) {
        self.snapshot = snapshot
        self.changes = changes
        self.version = version
    }
}
