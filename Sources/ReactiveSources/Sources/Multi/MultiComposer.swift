import Foundation
import Signals

/// Builds and publishes a Multi source's snapshot from its children, incrementally.
///
/// The composer observes each child (its snapshot update and load state together) and,
/// when one child publishes, replaces only that child's sections in the composed snapshot,
/// in place, with the child's change set translated to the composed section indexes: the
/// work is O(size of the child's change), plus O(children) integer additions to find the
/// offset when child sections are spliced. It never scans the other children.
///
/// Publishing from an observer, rather than computing in a derived property, is what keeps
/// the snapshot and the aggregated load state consistent when a child changes on one thread
/// at a time: the child's change reaches the composer before the child's load event reaches
/// the ``MultiLoadAggregator`` (a source publishes its snapshot before it sends the event),
/// and the Multi's own observers are queued behind both, so whoever observes the Multi sees
/// a snapshot and a load state that belong together. When two threads drive the same child
/// at once, delivery is per thread (see Signals), so one thread may compose the child's
/// final snapshot while the other has not yet told the aggregator; the load state then
/// catches up right after, and its observers are called with the final state.
final class MultiComposer<Object: Hashable & Sendable>: @unchecked Sendable {
    /// What the composer last saw of one child.
    private struct ChildRecord {
        var version: UInt64
        var state: LoadState
        /// The child's own sections when last composed.
        var childSections: [Section<Object>]
        /// How many sections the child contributes to the composed snapshot.
        var composedCount: Int
        /// The placeholder of the child's last composed section.
        var composedPlaceholder: Placeholder?
    }

    /// The composed snapshot; written only by the composer, under `lock`.
    let published: MutableProperty<SnapshotUpdate<Object>>
    private let names: [String]
    private let splices: Bool
    private let lock = NSLock()
    private var records: [ChildRecord] = []

    /// Composes the children's current snapshots. Call ``attach(to:)`` next.
    init(children: [any DataSource<Object>], splices: Bool) {
        names = children.map(\.name)
        self.splices = splices
        var sections: [Section<Object>] = []
        for (index, child) in children.enumerated() {
            let update = child.updates.value
            let state = child.loadState.value
            let composed = Self.compose(update.snapshot, state: state, name: names[index], index: index, splices: splices)
            records.append(ChildRecord(
                version: update.version, state: state, childSections: update.snapshot.sections,
                composedCount: composed.count, composedPlaceholder: composed.last?.placeholder
            ))
            sections.append(contentsOf: composed)
        }
        published = MutableProperty(SnapshotUpdate(snapshot: Snapshot(sections: sections)), equals: nil)
    }

    /// Observes every child; the subscriptions hold the composer, not the Multi.
    func attach(to children: [any DataSource<Object>]) -> [Subscription] {
        children.enumerated().map { index, child in
            let updates = child.updates
            let loadState = child.loadState
            let latest = Property<ChildValue>(equals: { $0.update.version == $1.update.version && $0.state == $1.state }) {
                ChildValue(update: updates.value, state: loadState.value)
            }
            return latest.observe { [self] value in
                childPublished(index, update: value.update, state: value.state)
            }
        }
    }

    /// A child's snapshot update and load state, read together.
    private struct ChildValue: Sendable {
        var update: SnapshotUpdate<Object>
        var state: LoadState
    }

    /// Folds child `index`'s latest update and state into the composed snapshot and
    /// publishes it, unless nothing visible changed.
    private func childPublished(_ index: Int, update: SnapshotUpdate<Object>, state: LoadState) {
        lock.lock()
        defer { lock.unlock() }
        let record = records[index]
        if record.version == update.version && record.state == state { return }
        let composed = Self.compose(update.snapshot, state: state, name: names[index], index: index, splices: splices)
        let newPlaceholder = composed.last?.placeholder
        records[index] = ChildRecord(
            version: update.version, state: state, childSections: update.snapshot.sections,
            composedCount: composed.count, composedPlaceholder: newPlaceholder
        )
        // Only the load state moved and the status placeholder did not: nothing to publish.
        if record.version == update.version && record.composedCount == composed.count
            && record.composedPlaceholder == newPlaceholder {
            return
        }
        var offset = index
        if splices {
            offset = 0
            for earlier in records[..<index] { offset += earlier.composedCount }
        }
        let range = offset..<(offset + record.composedCount)
        // The fallback diff runs before `modify` (outside the graph's lock); `published` is
        // written only here, under `lock`, so the sections read now are the ones replaced.
        var changes = translate(update, record: record, composed: composed)
            ?? ChangeSet(from: Snapshot(sections: Array(published.value.snapshot.sections[range])), to: Snapshot(sections: composed))
        changes = changes.translated(oldOffset: offset, newOffset: offset)
        changes.normalize()
        published.modify { current in
            if !splices && composed.count == 1 && record.composedCount == 1 {
                // In place: the section keeps its storage; only the objects and placeholder move.
                current.snapshot.sections[offset].objects = composed[0].objects
                current.snapshot.sections[offset].placeholder = composed[0].placeholder
            } else {
                current.snapshot.sections.replaceSubrange(range, with: composed)
            }
            current.changes = changes
            current.version &+= 1
        }
    }

    /// The sections a child contributes: one flattened section, or its own sections
    /// (at least one) when splicing; with a status placeholder when it has nothing to show.
    private static func compose(_ snapshot: Snapshot<Object>, state: LoadState, name: String, index: Int, splices: Bool) -> [Section<Object>] {
        var sections: [Section<Object>]
        if splices {
            sections = snapshot.sections.map { section in
                var section = section
                section.id = "\(index).\(section.id)"
                return section
            }
            if sections.isEmpty { sections = [Section(id: "\(index)", title: name)] }
        } else {
            let childSections = snapshot.sections
            var section = Section<Object>(id: String(index), title: name)
            if childSections.count == 1 {
                section.objects = childSections[0].objects
            } else {
                section.objects = childSections.flatMap { $0.objects }
            }
            section.placeholder = childSections.last?.placeholder
            sections = [section]
        }
        let last = sections.count - 1
        if sections[last].placeholder == nil && sections.allSatisfy({ $0.objects.isEmpty }) {
            sections[last].placeholder = statusPlaceholder(for: state)
        }
        return sections
    }

    /// The placeholder shown for a child with no objects and no placeholder of its own.
    private static func statusPlaceholder(for state: LoadState) -> Placeholder? {
        switch state.status {
        case .loading, .partiallyLoaded: return .loading
        case .failed(let error) where !error.isCancellation: return .error(message: error.message)
        case .idle, .finished, .failed: return nil
        }
    }

    /// The child's own change set, when it maps one-to-one onto the composed sections:
    /// the update directly follows the one last composed, and the composed rows are the
    /// child's rows (same section layout, no status placeholder added or removed).
    private func translate(_ update: SnapshotUpdate<Object>, record: ChildRecord, composed: [Section<Object>]) -> ChangeSet? {
        guard update.version == record.version &+ 1 else { return nil }
        let old = record.childSections
        let new = update.snapshot.sections
        if splices {
            guard old.count == record.composedCount, new.count == composed.count,
                  old.last?.placeholder == record.composedPlaceholder,
                  new.last?.placeholder == composed.last?.placeholder else { return nil }
            return update.changes
        }
        guard old.count == 1, new.count == 1, update.changes.touchesOnlyRows,
              old[0].placeholder == record.composedPlaceholder,
              new[0].placeholder == composed.first?.placeholder else { return nil }
        return update.changes
    }
}
