/// A snapshot together with the change that produced it.
///
/// `changes` turns the snapshot of update `version - 1` of the same source into `snapshot`.
/// An update also remembers the change sets of the few updates before it, so a consumer that
/// missed some (observers see the latest value) bridges the gap with
/// ``changes(since:)`` in O(size of the changes) instead of diffing two snapshots;
/// ``DataSource/observeChanges(_:)`` does this for you.
public struct SnapshotUpdate<Object: Hashable & Sendable>: Sendable {
    /// The content after the change.
    public var snapshot: Snapshot<Object>
    /// The edit from the previous version's snapshot to `snapshot` (the newest entry of the
    /// log, not stored twice: a copy of an update retains one reference for it, not the
    /// change set's arrays).
    public var changes: ChangeSet { log.changes }
    /// Increases by one with every update of a source; the first value is 0.
    public private(set) var version: UInt64
    /// The change sets of this and recent versions, newest first.
    private var log: ChangeLog
    /// The reverse lookup of this version's snapshot, kept so that the next version's can
    /// build on it (``Snapshot/path(of:)``) even after `snapshot` is changed in place.
    private var lookupAtVersion: ObjectLookup<Object>

    /// Creates an update. (Its history starts here: ``changes(since:)`` can bridge only
    /// from `version - 1`.)
    public init(snapshot: Snapshot<Object>, changes: ChangeSet = ChangeSet(), version: UInt64 = 0) {
        self.snapshot = snapshot
        self.version = version
        log = ChangeLog(version: version, changes: changes, previous: nil)
        lookupAtVersion = snapshot.lookup
    }

    /// The next update: `snapshot`, produced from this one by `changes`, one version later,
    /// with this update's history. O(1) amortised.
    func next(_ snapshot: Snapshot<Object>, changes: ChangeSet) -> SnapshotUpdate {
        var next = self
        next.snapshot = snapshot
        next.advance(changes)
        return next
    }

    /// Makes this the next update after the snapshot was changed in place by `changes`.
    /// `changes` must turn the previous version's snapshot into `snapshot`: the reverse
    /// lookup (``Snapshot/path(of:)``) of the new snapshot relies on it. O(1) amortised.
    ///
    /// `beforeImages`, when the source knows them: the objects the change deleted, updated
    /// or moved, as they were before it, keyed by their old paths (see
    /// ``beforeImages(since:)``). O(1) amortised.
    @usableFromInline
    mutating func advance(_ changes: ChangeSet, beforeImages: BeforeImages? = nil) {
        version &+= 1
        log = ChangeLog(version: version, changes: changes, beforeImages: beforeImages, previous: log)
        snapshot.linkLookup(to: lookupAtVersion, changes: changes)
        lookupAtVersion = snapshot.lookup
    }

    /// Whether the newest change came with its before-images: the source records them for
    /// its row edits (a Simple source does), so a derived source that reads the old rows of
    /// an edit can take them from here instead of holding the previous snapshot (holding it
    /// makes the source copy every path it edits next).
    var hasBeforeImages: Bool { log.beforeImages != nil }

    /// The objects that the change from version `version` to this one (``changes(since:)``)
    /// deleted, updated or moved, as they were in version `version`, keyed by their paths
    /// there; `nil` when one of the changes in between came without before-images, or
    /// ``changes(since:)`` would be `nil`. O(i · v) for i images over v versions (each
    /// mapped back through the versions before it), plus O(k log k) for a version of k
    /// changed rows.
    func beforeImages(since version: UInt64) -> BeforeImages? {
        guard let ordered = logEntries(since: version) else { return nil }
        if ordered.count == 1 { return ordered[0].beforeImages }
        // Each change's images are at paths before it: mapped back to version `version`
        // through the changes before it, newest first (each map built once, on first use). A
        // row inserted since has no image; a row with an older image keeps it.
        var maps: [((RowPath) -> RowPath?)?] = Array(repeating: nil, count: ordered.count)
        var gathered: [(path: RowPath, rank: Int, object: any Sendable)] = []
        for (index, entry) in ordered.enumerated() {
            guard let own = entry.beforeImages, entry.changes.touchesOnlyRows else { return nil }
            own.forEach { path, object in
                var current: RowPath? = path
                var earlier = index - 1
                while let at = current, earlier >= 0 {
                    if maps[earlier] == nil { maps[earlier] = ordered[earlier].changes.oldPathMap() }
                    current = maps[earlier].unsafelyUnwrapped(at)
                    earlier -= 1
                }
                if let origin = current { gathered.append((origin, gathered.count, object)) }
            }
        }
        return BeforeImages(gathered: gathered)
    }

    /// The change from the snapshot of version `version` to this one: ``changes`` itself for
    /// the version just before (whatever it changed), else composed from the recent change
    /// sets. `nil` when that version is too old (more than 64 updates back) or not older than
    /// this one, or when it is two or more updates back and one of the updates in between
    /// added, removed, moved or retitled sections (those do not compose).
    /// O(size of the changes).
    public func changes(since version: UInt64) -> ChangeSet? {
        guard version < self.version else { return nil }
        if version &+ 1 == self.version { return changes }
        guard let entries = logEntries(since: version) else { return nil }
        var composed = ChangeSet()
        for entry in entries {
            guard let next = composed.followed(by: entry.changes) else { return nil }
            composed = next
        }
        return composed
    }

    /// The log entries after version `version` up to this one, oldest first; `nil` when
    /// that version is not older than this one or the log no longer reaches it. The entries,
    /// not their change sets: collecting a change set copies (and retains) its eight arrays.
    /// O(versions).
    private func logEntries(since version: UInt64) -> [ChangeLog]? {
        guard version < self.version else { return nil }
        var entries: [ChangeLog] = []
        var entry: ChangeLog? = log
        while let current = entry, current.version > version {
            entries.append(current)
            entry = current.previous
        }
        guard entries.count == Int(self.version &- version) else { return nil }
        entries.reverse()
        return entries
    }
}

/// A source's recent change sets, newest first: an immutable list shared by the updates that
/// hold it. It is cut to the newest ``kept`` entries whenever it reaches twice that many.
final class ChangeLog: Sendable {
    /// How many versions back ``SnapshotUpdate/changes(since:)`` reaches at least.
    static let kept = 64

    let version: UInt64
    let changes: ChangeSet
    /// The before-images of ``SnapshotUpdate/advance(_:beforeImages:)``, or `nil`.
    let beforeImages: BeforeImages?
    let previous: ChangeLog?
    let length: Int

    init(version: UInt64, changes: ChangeSet, beforeImages: BeforeImages? = nil, previous: ChangeLog?) {
        self.version = version
        self.changes = changes
        self.beforeImages = beforeImages
        if let previous, previous.length + 1 >= 2 * Self.kept {
            self.previous = previous.prefix(Self.kept - 1)
        } else {
            self.previous = previous
        }
        length = (self.previous?.length ?? 0) + 1
    }

    /// The newest `count` entries as a new list.
    private func prefix(_ count: Int) -> ChangeLog? {
        var entries: [ChangeLog] = []
        var entry: ChangeLog? = self
        while let current = entry, entries.count < count {
            entries.append(current)
            entry = current.previous
        }
        var result: ChangeLog?
        for current in entries.reversed() {
            result = ChangeLog(version: current.version, changes: current.changes, beforeImages: current.beforeImages, previous: result)
        }
        return result
    }
}
