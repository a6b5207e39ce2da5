import Signals

extension DataSource {
    /// Calls `observer` with every new snapshot and a change set that turns the snapshot the
    /// observer saw last into it, starting with the current snapshot (as an insertion of
    /// everything).
    ///
    /// Observers see the latest value, so updates may be coalesced (a `batch`, writes from
    /// several threads); the change sets of the skipped updates are then composed into one
    /// (``SnapshotUpdate/changes(since:)``, O(size of the changes)). Only when that is not
    /// possible (more than 64 updates skipped, or sections added, removed or
    /// moved in between) is the last delivered snapshot diffed against the new one (O(n)).
    /// Either way the change set is valid for the observer's own previous snapshot.
    public func observeChanges(_ observer: @escaping @Sendable (Snapshot<Object>, ChangeSet) -> Void) -> SignalSubscription {
        let continuity = ChangeContinuity<Object>()
        return updates.observe { update in
            observer(update.snapshot, continuity.changes(for: update))
        }
    }
}

/// Remembers the last update handed to one observer and bridges version gaps with a diff.
/// Touched only from one observer, which never runs concurrently with itself.
final class ChangeContinuity<Object: Hashable & Sendable>: @unchecked Sendable {
    private var last: SnapshotUpdate<Object>?

    func changes(for update: SnapshotUpdate<Object>) -> ChangeSet {
        defer { last = update }
        guard let last else {
            return ChangeSet(from: Snapshot(), to: update.snapshot)
        }
        if update.version == last.version { return ChangeSet() }
        return update.changes(since: last.version) ?? ChangeSet(from: last.snapshot, to: update.snapshot)
    }
}
