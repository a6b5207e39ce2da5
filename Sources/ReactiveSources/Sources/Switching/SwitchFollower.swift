import Signals

/// The transformer of a node whose parent changes over time: it shows whichever source
/// `current` holds, and remembers which source it follows and which of its versions it last
/// showed. That state is touched only from the node's reducing closure, which runs serially.
final class SwitchFollower<Object: Hashable & Sendable>: NodeTransformer, @unchecked Sendable {
    /// The source shown now.
    let current: Property<any DataSource<Object>>
    /// Whether a switch is one diff by identity (rows both sources show stay) instead of
    /// all sections out and in.
    private let diffsSwitches: Bool
    private var followed: (any DataSource<Object>)?
    private var followedVersion: UInt64 = 0

    init(following current: Property<any DataSource<Object>>, diffsSwitches: Bool = false) {
        self.current = current
        self.diffsSwitches = diffsSwitches
    }

    /// The next own update after `previous`, showing the current source.
    func next(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        next(previous, showing: current.value)
    }

    /// The current source's row at the same path: the node shows its rows as they are.
    func parentRow(ofOwn path: RowPath, own: SnapshotUpdate<Object>) -> ParentRow? {
        ParentRow(parent: current.value, path: path)
    }

    /// The next own update after `previous`, showing `source`'s current update:
    /// - the same source as last time: its change since the version shown, composed from its
    ///   recent change sets (O(size of the changes)); a diff by identity only when the gap
    ///   cannot be bridged (sections changed in a gap of skipped versions, or more than 64 skipped);
    /// - another source: one change set that deletes the old sections and inserts the new ones.
    func next(_ previous: SnapshotUpdate<Object>, showing source: any DataSource<Object>) -> SnapshotUpdate<Object> {
        let update = source.updates.value
        defer {
            followed = source
            followedVersion = update.version
        }
        guard let followed else { return SnapshotUpdate(snapshot: update.snapshot) }
        if followed === source {
            guard update.version != followedVersion else { return previous }
            let changes = update.changes(since: followedVersion) ?? ChangeSet(from: previous.snapshot, to: update.snapshot)
            return previous.next(update.snapshot, changes: changes)
        }
        if diffsSwitches { return previous.next(update.snapshot, changes: ChangeSet(from: previous.snapshot, to: update.snapshot)) }
        var changes = ChangeSet()
        changes.deletedSections = Array(previous.snapshot.sections.indices)
        changes.insertedSections = Array(update.snapshot.sections.indices)
        return previous.next(update.snapshot, changes: changes)
    }
}
