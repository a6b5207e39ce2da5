import Foundation
import Signals

extension DataSource {
    /// Calls `observer` on the main actor with the current snapshot (as an insertion of
    /// everything), then with every new snapshot and the change from the snapshot it was
    /// last given: what a table view's batch updates need.
    ///
    /// Calls come in order. Updates that arrive faster than the main actor runs are merged:
    /// the change sets of all of them are composed into one (a diff only when they cannot be:
    /// sections changed, or updates were coalesced further than 64 versions), so no change is
    /// ever lost. After `cancel()` returns, no call starts. O(size of the changes) per call.
    public func observeChangesOnMainActor(
        _ observer: @escaping @MainActor (Snapshot<Object>, ChangeSet) -> Void
    ) -> SignalSubscription {
        let delivery = MainActorDelivery<Object>(observer: observer)
        let subscription = updates.observe { delivery.enqueue($0) }
        return SignalSubscription {
            delivery.cancel()
            subscription.cancel()
        }
    }
}

/// The updates waiting for one main-actor observer, and what it was last given.
final class MainActorDelivery<Object: Hashable & Sendable>: @unchecked Sendable {
    private let observer: @MainActor (Snapshot<Object>, ChangeSet) -> Void
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var pending: [SnapshotUpdate<Object>] = []
    private var scheduled = false
    private var cancelled = false
    /// The update last handed to the observer; touched only on the main actor.
    private var delivered: SnapshotUpdate<Object>?

    init(observer: @escaping @MainActor (Snapshot<Object>, ChangeSet) -> Void) {
        self.observer = observer
    }

    /// Queues `update` and schedules a delivery unless one is already scheduled.
    func enqueue(_ update: SnapshotUpdate<Object>) {
        let schedule = lock.withLock { () -> Bool in
            guard !cancelled else { return false }
            pending.append(update)
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { Task { @MainActor in self.deliver() } }
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            pending = []
        }
    }

    @MainActor
    private func deliver() {
        let updates = lock.withLock { () -> [SnapshotUpdate<Object>] in
            defer {
                pending = []
                scheduled = false
            }
            return cancelled ? [] : pending
        }
        guard let newest = updates.last else { return }
        let changes = delivered.map { Self.changes(from: $0, through: updates) } ?? ChangeSet(from: Snapshot(), to: newest.snapshot)
        delivered = newest
        observer(newest.snapshot, changes)
    }

    /// The change from `last` to the newest of `updates`, composed step by step.
    static func changes(from last: SnapshotUpdate<Object>, through updates: [SnapshotUpdate<Object>]) -> ChangeSet {
        var composed = ChangeSet()
        var version = last.version
        for update in updates where update.version != version {
            let step = update.changes(since: version)
            guard let step, let next = composed.followed(by: step) else {
                return ChangeSet(from: last.snapshot, to: updates[updates.count - 1].snapshot)
            }
            composed = next
            version = update.version
        }
        return composed
    }
}
