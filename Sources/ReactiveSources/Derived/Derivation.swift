import Foundation
import Signals

/// Follows a parent source's updates through a ``RowTransform``: the ``NodeTransformer`` of
/// Mapped, Filtered and Sorted sources, which keep their parent's sections. Each derived
/// section mirrors the parent section at the same index (id, title, placeholder, see
/// ``NodePlaceholders``); only its objects are the transform's.
///
/// Each parent update is followed through its change set, composed with those of skipped
/// versions when updates were coalesced: O(k log n) for k changed rows. When the changes
/// cannot be composed (see ``SnapshotUpdate/changes(since:)``), do not fit, or touch more
/// than an eighth of the rows (a parent that filtered or sorted everything again), everything
/// is derived again and diffed (O(n)); transforms that follow large changes in one pass
/// (``RowTransform/followsLargeChanges``: Sorted) are given them instead.
/// Its state changes only in the derived property's closure, which runs serially, under
/// `lock`; ``parentPath(ofOwn:own:parent:)`` reads it under `lock` from any thread.
/// The `Signals` properties the transform's closures read are recorded (``ReadRecord``) and
/// read again on every update, so the node keeps depending on them; when one changed,
/// everything is derived again in one update.
final class Derivation<Transform: RowTransform>: NodeTransformer, @unchecked Sendable {
    typealias Base = Transform.Base
    typealias Object = Transform.Object

    let parent: any DataSource<Base>
    let transform: Transform
    /// The parent update followed last: its version, its sections' ``ParentChanges/shapes(_:)``,
    /// and its snapshot only when the transform ``RowTransform/readsOldRows`` and the parent
    /// does not record before-images (holding it makes the parent copy every path it edits
    /// next; see ``OldRows``).
    private var lastVersion: UInt64?
    private var lastShapes: [Int] = []
    private var lastSnapshot: Snapshot<Base>?
    /// Per section (parallel to the own snapshot's sections); optional so a section's state
    /// can be taken out while it changes (changing it in place in the array would copy it).
    private var states: [Transform.SectionState?] = []
    /// The own and parent versions `states` belong to.
    private var statesVersions: (own: UInt64, parent: UInt64)?
    /// The properties the transform's closures read (a predicate reading a search text),
    /// read again on every update so the node keeps depending on them: when one changes,
    /// everything is derived again.
    private let closureReads = ReadRecord()
    /// Guards the state above against readers on other threads (``parentPath(ofOwn:own:parent:)``).
    private let lock = NSLock()

    init(parent: any DataSource<Base>, transform: Transform) {
        self.parent = parent
        self.transform = transform
        if transform.readsOldRows { (parent as? any BeforeImageSource)?.requestBeforeImages() }
    }

    deinit {
        if transform.readsOldRows { (parent as? any BeforeImageSource)?.endBeforeImages() }
    }

    /// The next own update after `previous`; `previous` itself when nothing visible changed.
    /// Everything is derived again when a property the transform's closures read changed.
    func next(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let update = parent.updates.value
        if closureReads.readAgain() || closureReads.isOverfull { return rederive(previous) }
        return next(previous, parent: update)
    }

    /// As ``next(_:)``, for the parent update `update`.
    func next(_ previous: SnapshotUpdate<Object>, parent update: SnapshotUpdate<Base>) -> SnapshotUpdate<Object> {
        lock.withLock {
            let result = closureReads.recording { nextLocked(previous, parent: update) }
            statesVersions = (result.version, update.version)
            return result
        }
    }

    private func nextLocked(_ previous: SnapshotUpdate<Object>, parent update: SnapshotUpdate<Base>) -> SnapshotUpdate<Object> {
        if lastVersion == update.version { return previous }
        defer { remember(update) }
        if let lastVersion, let composed = update.changes(since: lastVersion),
           transform.followsLargeChanges || !Self.isLarge(composed, in: update.snapshot),
           let parentChanges = ParentChanges(composed, oldShapes: lastShapes, new: update.snapshot),
           let old = oldRows(of: update, since: lastVersion),
           let (snapshot, changes) = follow(parentChanges, to: update.snapshot, own: previous.snapshot, old: old) {
            if changes.isEmpty { return previous }
            return previous.next(snapshot, changes: changes)
        }
        return rebuilt(from: update.snapshot, previous: previous)
    }

    /// Records `update` as the one followed last. O(sections).
    private func remember(_ update: SnapshotUpdate<Base>) {
        lastVersion = update.version
        lastShapes = ParentChanges.shapes(update.snapshot)
        lastSnapshot = transform.readsOldRows && !update.hasBeforeImages ? update.snapshot : nil
    }

    /// Where the transform reads the parent's rows before the change from `version` to
    /// `update` (see ``OldRows/reader(held:sectionCount:update:since:)``); nothing when it
    /// reads none.
    private func oldRows(of update: SnapshotUpdate<Base>, since version: UInt64) -> ((Int) -> OldRows<Base>?)? {
        guard transform.readsOldRows else { return { _ in OldRows.empty } }
        return OldRows.reader(held: lastSnapshot, sectionCount: lastShapes.count, update: update, since: version)
    }

    /// Whether following `changes` row by row (O(k log n)) would cost more than deriving
    /// everything again and diffing (O(n)): more changed rows than an eighth of the rows
    /// (asked only of transforms that do not follow large changes in bulk).
    static func isLarge(_ changes: ChangeSet, in snapshot: Snapshot<Base>) -> Bool {
        changes.rowChangeCount > 64 && changes.rowChangeCount * 8 > snapshot.objectCount
    }

    /// Derives everything again from `parent` and diffs against `previous`.
    func rebuilt(from parent: Snapshot<Base>, previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        var sections: [SnapshotSection<Object>] = []
        sections.reserveCapacity(parent.sections.count)
        states = []
        states.reserveCapacity(parent.sections.count)
        for section in parent.sections {
            let (objects, state) = transform.build(section.objects)
            sections.append(SnapshotSection(id: section.id, title: section.title, objects: objects, placeholder: section.placeholder))
            states.append(state)
        }
        let snapshot = Snapshot(sections: sections)
        let changes = ChangeSet(from: previous.snapshot, to: snapshot)
        if changes.isEmpty && previous.snapshot == snapshot { return previous }
        return previous.next(snapshot, changes: changes)
    }

    /// Re-derives everything (a property the closures read changed): one update diffed against
    /// `previous`, or `previous` when nothing visible changed.
    func rederive(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let update = parent.updates.value
        return lock.withLock {
            defer { remember(update) }
            closureReads.removeAll()
            return closureReads.recording { rederivedLocked(update, previous: previous) }
        }
    }

    private func rederivedLocked(_ update: SnapshotUpdate<Base>, previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        var result: SnapshotUpdate<Object>
        if lastVersion == update.version, let next = rederivedInPlace(from: update.snapshot, previous: previous) {
            result = next
        } else {
            result = rebuilt(from: update.snapshot, previous: previous)
        }
        statesVersions = (result.version, update.version)
        return result
    }

    /// The update after a change of what the closures read, over the parent rows already followed, when the
    /// transform can say which rows left and arrived (see ``RowTransform/rederivedEdits(from:to:)``):
    /// derived again (O(n)) but not diffed. `nil` when it cannot tell (nothing is changed then).
    private func rederivedInPlace(from parent: Snapshot<Base>, previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object>? {
        let own = previous.snapshot
        guard states.count == parent.sections.count, own.sections.count == parent.sections.count else { return nil }
        var sections: [SnapshotSection<Object>] = []
        var newStates: [Transform.SectionState?] = []
        var changes = ChangeSet()
        sections.reserveCapacity(parent.sections.count)
        newStates.reserveCapacity(parent.sections.count)
        for (index, parentSection) in parent.sections.enumerated() {
            guard let oldState = states[index] else { return nil }
            let (objects, state) = transform.build(parentSection.objects)
            guard let edits = transform.rederivedEdits(from: oldState, to: state) else { return nil }
            // The placeholder, if any, is unchanged (the parent's is) and stays last.
            var section = own.sections[index]
            changes.deletedRows.append(contentsOf: edits.deleted.lazy.map { RowPath(item: $0, section: index) })
            changes.insertedRows.append(contentsOf: edits.inserted.lazy.map { RowPath(item: $0, section: index) })
            section.objects = objects
            sections.append(section)
            newStates.append(state)
        }
        states = newStates
        if changes.isEmpty { return previous }
        changes.normalize()
        return previous.next(Snapshot(sections: sections), changes: changes)
    }

    /// The own snapshot and change set after the parent's `changes` (from the parent update
    /// followed last to `new`), or `nil` if they cannot be followed.
    private func follow(
        _ changes: ParentChanges, to new: Snapshot<Base>, own: Snapshot<Object>, old: (Int) -> OldRows<Base>?
    ) -> (Snapshot<Object>, ChangeSet)? {
        let oldCount = lastShapes.count
        guard own.sections.count == oldCount, states.count == oldCount else { return nil }
        var result = ChangeSet()
        var sections: [SnapshotSection<Object>] = []
        var newStates: [Transform.SectionState?] = []
        sections.reserveCapacity(new.sections.count)
        newStates.reserveCapacity(new.sections.count)
        // Rows the parent moved are paired up below; the others go straight to the change set.
        let pairsMoves = !changes.moves.isEmpty
        var removedOwn: [RowPath: Int] = [:]
        var addedOwn: [RowPath: Int] = [:]
        for (index, source) in changes.sources.enumerated() {
            let parentSection = new.sections[index]
            guard let source else {
                let (objects, state) = transform.build(parentSection.objects)
                sections.append(SnapshotSection(id: parentSection.id, title: parentSection.title, objects: objects, placeholder: parentSection.placeholder))
                newStates.append(state)
                result.insertedSections.append(index)
                continue
            }
            var section = own.sections[source]
            guard var state = states[source] else { return nil }
            states[source] = nil
            if changes.movedSections.contains(source) { result.movedSections.append(.init(from: source, to: index)) }
            if section.title != parentSection.title { result.retitledSections.append(index) }
            section.id = parentSection.id
            section.title = parentSection.title
            let oldObjectCount = section.objects.count
            if let edits = changes.rows[index] {
                guard let oldRows = old(source), let done = transform.follow(
                    edits, old: oldRows, new: parentSection.objects,
                    objects: &section.objects, state: &state
                ) else { return nil }
                if pairsMoves {
                    for (parentItem, ownItem) in done.removed { removedOwn[RowPath(item: parentItem, section: source)] = ownItem }
                    for (parentItem, ownItem) in done.added { addedOwn[RowPath(item: parentItem, section: index)] = ownItem }
                } else {
                    result.deletedRows.append(contentsOf: done.removed.lazy.map { RowPath(item: $0.own, section: source) })
                    result.insertedRows.append(contentsOf: done.added.lazy.map { RowPath(item: $0.own, section: index) })
                }
                result.deletedRows.append(contentsOf: done.deleted.map { RowPath(item: $0, section: source) })
                result.insertedRows.append(contentsOf: done.inserted.map { RowPath(item: $0, section: index) })
                result.updatedRows.append(contentsOf: done.updated.map { RowPath(item: $0, section: index) })
                for move in done.moved {
                    result.movedRows.append(.init(from: RowPath(item: move.from, section: source), to: RowPath(item: move.to, section: index)))
                    result.updatedRows.append(RowPath(item: move.to, section: index))
                }
            }
            NodePlaceholders.followRow(
                from: section.placeholder, to: parentSection.placeholder, oldCount: oldObjectCount,
                newCount: section.objects.count, oldSection: source, newSection: index, into: &result
            )
            section.placeholder = parentSection.placeholder
            sections.append(section)
            newStates.append(state)
        }
        result.deletedSections = changes.deletedSections
        // Pair the parent's moves; what is left of the removed and added rows are deletes and inserts.
        for move in changes.moves {
            let from = removedOwn.removeValue(forKey: move.from)
            let to = addedOwn.removeValue(forKey: move.to)
            switch (from, to) {
            case let (from?, to?):
                let target = RowPath(item: to, section: move.to.section)
                result.movedRows.append(.init(from: RowPath(item: from, section: move.from.section), to: target))
                if changes.movedAndUpdated.contains(move.to) { result.updatedRows.append(target) }
            case let (from?, nil): result.deletedRows.append(RowPath(item: from, section: move.from.section))
            case let (nil, to?): result.insertedRows.append(RowPath(item: to, section: move.to.section))
            case (nil, nil): break
            }
        }
        for (path, item) in removedOwn { result.deletedRows.append(RowPath(item: item, section: path.section)) }
        for (path, item) in addedOwn { result.insertedRows.append(RowPath(item: item, section: path.section)) }
        result.normalize()
        result.movedRows.sort { $0.to < $1.to }
        states = newStates
        return (Snapshot(sections: sections), result)
    }

    /// The parent row shown at own `path` of `own` (see ``parentPath(ofOwn:own:parent:)``).
    func parentRow(ofOwn path: RowPath, own: SnapshotUpdate<Object>) -> ParentRow? {
        parentPath(ofOwn: path, own: own, parent: parent.updates.value).map { ParentRow(parent: parent, path: $0) }
    }

    /// The parent path of the row shown at own `path` of `ownUpdate`, or `nil` (also when
    /// the derivation has moved past `ownUpdate` or `parentUpdate` meanwhile). Any thread.
    func parentPath(ofOwn path: RowPath, own ownUpdate: SnapshotUpdate<Object>, parent parentUpdate: SnapshotUpdate<Base>) -> RowPath? {
        lock.withLock {
            guard let versions = statesVersions, versions.own == ownUpdate.version, versions.parent == parentUpdate.version else { return nil }
            return parentPathLocked(ofOwn: path, in: ownUpdate.snapshot, parent: parentUpdate.snapshot)
        }
    }

    private func parentPathLocked(ofOwn path: RowPath, in own: Snapshot<Object>, parent: Snapshot<Base>) -> RowPath? {
        guard own.sections.indices.contains(path.section), parent.sections.indices.contains(path.section),
              states.count == own.sections.count, path.item >= 0 else { return nil }
        let section = own.sections[path.section]
        let parentCount = parent.sections[path.section].objects.count
        if path.item >= section.objects.count {
            return path.item == section.objects.count && section.placeholder != nil
                ? RowPath(item: parentCount, section: path.section) : nil
        }
        if let state = states[path.section], let item = transform.parentItem(ofOwn: path.item, state: state), item < parentCount {
            return RowPath(item: item, section: path.section)
        }
        // The last object shown stands for the end of the parent's section (where paging starts).
        return path.item == section.objects.count - 1 && parentCount > 0
            ? RowPath(item: parentCount - 1, section: path.section) : nil
    }
}
