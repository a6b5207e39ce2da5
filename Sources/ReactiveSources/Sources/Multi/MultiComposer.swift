import Foundation
import Signals

/// Builds and publishes a Multi source's snapshot from its children, incrementally: the
/// transformer of a Multi's node (``DerivedSourceNode``), which shows ``published``.
///
/// Eager, unlike the other transformers: the Multi's load state is folded from its children's
/// load events, which only an observer receives, and rows composed by a lazy reducer would
/// reach `updates` observers before that fold (and re-read every child: O(children) a change).
///
/// The composer observes each child (its snapshot update and load state together) and,
/// when one child publishes, replaces only that child's sections in the composed snapshot,
/// in place, with the child's change set translated to the composed section indexes: the
/// work is O(size of the child's change), plus O(children) integer additions to find the
/// offset when child sections are spliced. It never scans the other children.
///
/// Publishing from an observer keeps the snapshot and the aggregated load state consistent when a child changes on one thread
/// at a time: a child that changes its snapshot does so before it sends the load event, so
/// the change reaches the composer before the event reaches the ``MultiLoadAggregator``
/// (whose `hasContent` reads the composed snapshot). An event that comes without a snapshot
/// change (a start, a cancel) may reach the aggregator first; the composer then folds in
/// only the child's new load state (its status placeholder), right after, still before the
/// Multi's own observers, which are queued behind both: whoever observes the Multi sees a
/// snapshot and a load state that belong together. When two threads drive the same child
/// at once, delivery is per thread (see Signals), so one thread may compose the child's
/// final snapshot while the other has not yet told the aggregator; the load state then
/// catches up right after, and its observers are called with the final state.
@usableFromInline
final class MultiComposer<Object: Hashable & Sendable>: @unchecked Sendable {
    /// What the composer last saw of one child.
    @usableFromInline
    struct ChildRecord {
        @usableFromInline var version: UInt64
        @usableFromInline var state: LoadState
        /// How many sections the child had when last composed.
        @usableFromInline var childSectionCount: Int
        /// The placeholder of the child's last section when last composed. (The record keeps
        /// no sections: holding the child's arrays would make its next append copy them.)
        @usableFromInline var childPlaceholder: Placeholder?
        /// How many sections the child contributes to the composed snapshot.
        @usableFromInline var composedCount: Int
        /// The placeholder of the child's last composed section.
        @usableFromInline var composedPlaceholder: Placeholder?

        @usableFromInline
        init(version: UInt64, state: LoadState, childSectionCount: Int, childPlaceholder: Placeholder?, composedCount: Int, composedPlaceholder: Placeholder?) {
            self.version = version
            self.state = state
            self.childSectionCount = childSectionCount
            self.childPlaceholder = childPlaceholder
            self.composedCount = composedCount
            self.composedPlaceholder = composedPlaceholder
        }
    }

    /// The composed snapshot; written only by the composer, under `lock`.
    @usableFromInline let published: MutableProperty<SnapshotUpdate<Object>>
    @usableFromInline let children: [any DataSource<Object>]
    @usableFromInline let names: [String]
    /// The section id of each child (see ``sectionIDs(forNames:given:)``).
    @usableFromInline let ids: [String]
    @usableFromInline let splices: Bool
    @usableFromInline let lock = NSLock()
    @usableFromInline var records: [ChildRecord] = []

    /// Composes the children's current snapshots. Call ``attach(to:)`` next.
    @usableFromInline
    init(children: [any DataSource<Object>], sectionIDs: [String]?, splices: Bool) {
        self.children = children
        names = children.map(\.name)
        ids = Self.sectionIDs(forNames: names, given: sectionIDs ?? [])
        self.splices = splices
        var sections: [SnapshotSection<Object>] = []
        for (index, child) in children.enumerated() {
            let update = child.updates.value
            let state = child.loadState.value
            let composed = Self.compose(update.snapshot, state: state, name: names[index], id: ids[index], splices: splices)
            records.append(ChildRecord(
                version: update.version, state: state, childSectionCount: update.snapshot.sections.count,
                childPlaceholder: Self.lastPlaceholder(of: update.snapshot.sections),
                composedCount: composed.count, composedPlaceholder: composed.last?.placeholder
            ))
            sections.append(contentsOf: composed)
        }
        published = MutableProperty(SnapshotUpdate(snapshot: Snapshot(sections: sections)), equals: nil)
    }

    /// Observes every child; the subscriptions hold the composer, not the Multi.
    @inlinable
    func attach(to children: [any DataSource<Object>]) -> [SignalSubscription] {
        children.enumerated().map { index, child in
            let updates = child.updates
            let loadState = child.loadState
            let latest = Property<ChildValue>(equals: { $0.version == $1.version && $0.state == $1.state }) {
                let update = updates.value
                return ChildValue(version: update.version, state: loadState.value, update: HandOff(update))
            }
            return latest.observe { [self] value in
                // Delivered at most once per value (Signals never repeats a version).
                guard !value.update.isTaken else { return }
                childPublished(index, update: value.update.take(), state: value.state)
            }
        }
    }

    /// A child's snapshot update and load state, read together. The update is handed over
    /// rather than stored, so this value, which the derived property keeps, does not share
    /// the child's storage once composed.
    @usableFromInline
    struct ChildValue: Sendable {
        @usableFromInline var version: UInt64
        @usableFromInline var state: LoadState
        @usableFromInline var update: HandOff<SnapshotUpdate<Object>>

        @usableFromInline
        init(version: UInt64, state: LoadState, update: HandOff<SnapshotUpdate<Object>>) {
            self.version = version
            self.state = state
            self.update = update
        }
    }

    /// Folds child `index`'s latest update and state into the composed snapshot and
    /// publishes it, unless nothing visible changed.
    @inlinable
    func childPublished(_ index: Int, update: SnapshotUpdate<Object>, state: LoadState) {
        lock.lock()
        defer { lock.unlock() }
        let record = records[index]
        if record.version == update.version && record.state == state { return }
        let childSections = update.snapshot.sections
        let childPlaceholder = Self.lastPlaceholder(of: childSections)
        // Splicing needs the composed sections up front; a flattened child needs only its
        // placeholder until the objects are replaced rather than changed in place.
        let spliced = splices ? Self.compose(update.snapshot, state: state, name: names[index], id: ids[index], splices: true) : nil
        let newCount = spliced?.count ?? 1
        let newPlaceholder = spliced.map { $0.last?.placeholder } ?? Self.flattenedPlaceholder(of: childSections, last: childPlaceholder, state: state)
        records[index] = ChildRecord(
            version: update.version, state: state, childSectionCount: childSections.count,
            childPlaceholder: childPlaceholder,
            composedCount: newCount, composedPlaceholder: newPlaceholder
        )
        // Only the load state moved and the status placeholder did not: nothing to publish.
        if record.version == update.version && record.composedCount == newCount
            && record.composedPlaceholder == newPlaceholder {
            return
        }
        var offset = index
        if splices {
            offset = 0
            for earlier in records[..<index] { offset += earlier.composedCount }
        }
        let range = offset..<(offset + record.composedCount)
        // The child's change since the version composed last (skipped versions composed).
        let childChanges = update.changes(since: record.version)
        let translatable = childChanges.map {
            isTranslatable(update, changes: $0, childPlaceholder: childPlaceholder, record: record, newCount: newCount, newPlaceholder: newPlaceholder)
        } ?? false
        // The fallback diff runs before `modify` (outside the graph's lock); `published` is
        // written only here, under `lock`, so the sections read now are the ones replaced.
        var changes = translatable
            ? childChanges!
            : ChangeSet(
                from: Snapshot(sections: Array(published.value.snapshot.sections[range])),
                to: Snapshot(sections: spliced ?? [Self.flattened(childSections, placeholder: newPlaceholder, name: names[index], id: ids[index])])
            )
        changes = changes.translated(oldOffset: offset, newOffset: offset)
        changes.normalize()
        published.modify { current in
            if let spliced {
                current.snapshot.sections.replaceSubrange(range, with: spliced)
            } else {
                Self.update(
                    &current.snapshot.sections[offset], to: childSections, placeholder: newPlaceholder,
                    objectsChanged: record.version != update.version
                )
            }
            current.advance(changes)
        }
    }

    /// Brings a flattened child's composed section up to date: it shares the child's row
    /// storage (O(1); neither side copies rows on the next edit), or, for a child with
    /// several sections, holds their objects concatenated (O(that child's size)).
    @inlinable
    static func update(
        _ section: inout SnapshotSection<Object>, to childSections: [SnapshotSection<Object>], placeholder: Placeholder?,
        objectsChanged: Bool
    ) {
        section.placeholder = placeholder
        if objectsChanged { section.objects = flattenedObjects(childSections) }
    }

    /// The objects of `childSections`, one after the other.
    @inlinable
    static func flattenedObjects(_ childSections: [SnapshotSection<Object>]) -> RowStorage<Object> {
        childSections.count == 1 ? childSections[0].objects : RowStorage(childSections.lazy.flatMap(\.objects))
    }

    /// The section id of each child: the id given for it (`given[index]`, when present and
    /// not empty), else its name; an empty or repeated one gets `"#<index>"` appended (`"#2"`
    /// for an unnamed third child), so ids never collide. O(children).
    @usableFromInline
    static func sectionIDs(forNames names: [String], given: [String]) -> [String] {
        var taken = Set<String>()
        return names.enumerated().map { index, name in
            let wanted = index < given.count && !given[index].isEmpty ? given[index] : name
            var id = wanted.isEmpty ? "#\(index)" : wanted
            while !taken.insert(id).inserted { id += "#\(index)" }
            return id
        }
    }

    /// The sections a child contributes: one flattened section, or its own sections
    /// (at least one) when splicing; with a status placeholder when it has nothing to show.
    @usableFromInline
    static func compose(_ snapshot: Snapshot<Object>, state: LoadState, name: String, id: String, splices: Bool) -> [SnapshotSection<Object>] {
        var sections: [SnapshotSection<Object>]
        if splices {
            sections = snapshot.sections.map { section in
                var section = section
                section.id = "\(id).\(section.id)"
                return section
            }
            if sections.isEmpty { sections = [SnapshotSection(id: id, title: name)] }
            let last = sections.count - 1
            sections[last].placeholder = NodePlaceholders.childPlaceholder(
                own: sections[last].placeholder, hasObjects: hasObjects(sections), state: state
            )
            return sections
        }
        let childSections = snapshot.sections
        let placeholder = flattenedPlaceholder(of: childSections, last: lastPlaceholder(of: childSections), state: state)
        return [flattened(childSections, placeholder: placeholder, name: name, id: id)]
    }

    /// The one section of a flattened child: its objects, then `placeholder`.
    @usableFromInline
    static func flattened(_ childSections: [SnapshotSection<Object>], placeholder: Placeholder?, name: String, id: String) -> SnapshotSection<Object> {
        SnapshotSection(
            id: id, title: name,
            objects: flattenedObjects(childSections),
            placeholder: placeholder
        )
    }

    /// The placeholder of a flattened child's section (see ``NodePlaceholders/childPlaceholder(own:hasObjects:state:)``):
    /// `last` is the child's own.
    @inlinable
    static func flattenedPlaceholder(of childSections: [SnapshotSection<Object>], last: Placeholder?, state: LoadState) -> Placeholder? {
        NodePlaceholders.childPlaceholder(own: last, hasObjects: hasObjects(childSections), state: state)
    }

    /// Whether any of `sections` has objects.
    @inlinable
    static func hasObjects(_ sections: [SnapshotSection<Object>]) -> Bool {
        for index in 0..<sections.count where sections[index].objects.count > 0 { return true }
        return false
    }

    /// The placeholder of the last of `sections`, if any. (Indexing, not `last`: the generic
    /// `last` costs a few hundred instructions in unspecialised code.)
    @inlinable
    static func lastPlaceholder(of sections: [SnapshotSection<Object>]) -> Placeholder? {
        let count = sections.count
        return count == 0 ? nil : sections[count - 1].placeholder
    }

    // MARK: The node's row mapping

    /// The child row shown at `path`: a spliced section is the child's own; a flattened
    /// child's item counts through its sections, and the row after them is its placeholder.
    @usableFromInline
    func parentRow(ofOwn path: RowPath, own: SnapshotUpdate<Object>) -> ParentRow? {
        let (section, item) = (path.section, path.item)
        guard section >= 0, item >= 0 else { return nil }
        if splices {
            var offset = 0
            for child in children {
                let count = max(child.numberOfSections, 1)
                if section < offset + count { return ParentRow(parent: child, path: RowPath(item: item, section: section - offset)) }
                offset += count
            }
            return nil
        }
        guard section < children.count else { return nil }
        let child = children[section]
        let snapshot = child.snapshot
        var remaining = item
        for (index, childSection) in snapshot.sections.enumerated() {
            if remaining < childSection.objects.count { return ParentRow(parent: child, path: RowPath(item: remaining, section: index)) }
            remaining -= childSection.objects.count
        }
        guard remaining == 0, let last = snapshot.sections.indices.last else { return nil }
        return ParentRow(parent: child, path: RowPath(item: snapshot.sections[last].objects.count, section: last))
    }

    /// Whether the child's change since the version last composed (`changes`) maps one-to-one
    /// onto the composed sections: the composed rows are the child's rows (same section
    /// layout, no status placeholder added or removed). `childPlaceholder` is the placeholder
    /// of the update's last section.
    @inlinable
    func isTranslatable(
        _ update: SnapshotUpdate<Object>, changes: ChangeSet, childPlaceholder: Placeholder?, record: ChildRecord, newCount: Int, newPlaceholder: Placeholder?
    ) -> Bool {
        guard record.childPlaceholder == record.composedPlaceholder,
              childPlaceholder == newPlaceholder else { return false }
        let new = update.snapshot.sections
        if splices {
            return record.childSectionCount == record.composedCount && new.count == newCount
        }
        return record.childSectionCount == 1 && new.count == 1 && changes.touchesOnlyRows
    }
}
