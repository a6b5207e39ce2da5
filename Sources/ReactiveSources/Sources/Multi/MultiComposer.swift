import Foundation
import Signals

/// Builds a Multi source's snapshot from its children, incrementally.
///
/// ``composeIfNeeded(_:)`` is the body of a derived property: it reads every child's update
/// and load state (so it reruns when any of them changes) and rebuilds only the sections of
/// children whose version or state moved since the last run. Its bookkeeping is touched
/// only from that closure, which the graph runs serially.
final class MultiComposer<Object: Hashable & Sendable>: @unchecked Sendable {
    /// What the composer last saw of one child.
    private struct ChildRecord {
        var version: UInt64?
        var state = LoadState()
        /// The child's own sections when last composed.
        var childSections: [Section<Object>] = []
        /// The sections this child contributed to the composed snapshot.
        var composed: [Section<Object>] = []
    }

    private let children: [any DataSource<Object>]
    private let splices: Bool
    private var records: [ChildRecord]

    init(children: [any DataSource<Object>], splices: Bool) {
        self.children = children
        self.splices = splices
        records = Array(repeating: ChildRecord(), count: children.count)
    }

    /// The derived property's closure: returns `previous` when nothing changed.
    func compose(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        var sections = previous.snapshot.sections
        var changes = ChangeSet()
        var changed = false
        var oldOffset = 0
        var newOffset = 0
        for (index, child) in children.enumerated() {
            let update = child.updates.value
            let state = child.loadState.value
            let record = records[index]
            let oldCount = record.composed.count
            if record.version == update.version && record.state == state {
                oldOffset += oldCount
                newOffset += oldCount
                continue
            }
            changed = true
            let composed = compose(update.snapshot, state: state, child: child, index: index)
            let childChanges = translate(update, record: record, composed: composed)
                ?? ChangeSet(from: Snapshot(sections: record.composed), to: Snapshot(sections: composed))
            changes.formUnion(childChanges.translated(oldOffset: oldOffset, newOffset: newOffset))
            sections.replaceSubrange(newOffset..<(newOffset + oldCount), with: composed)
            records[index] = ChildRecord(version: update.version, state: state, childSections: update.snapshot.sections, composed: composed)
            oldOffset += oldCount
            newOffset += composed.count
        }
        guard changed else { return previous }
        changes.normalize()
        return SnapshotUpdate(snapshot: Snapshot(sections: sections), changes: changes, version: previous.version &+ 1)
    }

    /// The sections a child contributes: one flattened section, or its own sections
    /// (at least one) when splicing; with a status placeholder when it has nothing to show.
    private func compose(_ snapshot: Snapshot<Object>, state: LoadState, child: any DataSource<Object>, index: Int) -> [Section<Object>] {
        var sections: [Section<Object>]
        if splices {
            sections = snapshot.sections.map { section in
                var section = section
                section.id = "\(index).\(section.id)"
                return section
            }
            if sections.isEmpty { sections = [Section(id: "\(index)", title: child.name)] }
        } else {
            let childSections = snapshot.sections
            var section = Section<Object>(id: "\(index)", title: child.name)
            if childSections.count == 1 {
                section.objects = childSections[0].objects
            } else {
                section.objects = childSections.flatMap(\.objects)
            }
            section.placeholder = childSections.last?.placeholder
            sections = [section]
        }
        let last = sections.count - 1
        if sections[last].placeholder == nil && snapshot.objectCount == 0 {
            sections[last].placeholder = Self.statusPlaceholder(for: state)
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
        guard let version = record.version, update.version == version &+ 1 else { return nil }
        let old = record.childSections
        let new = update.snapshot.sections
        if splices {
            guard old.count == record.composed.count, new.count == composed.count else { return nil }
            guard old.last?.placeholder == record.composed.last?.placeholder,
                  new.last?.placeholder == composed.last?.placeholder else { return nil }
            return update.changes
        }
        guard old.count == 1, new.count == 1, update.changes.touchesOnlyRows,
              old[0].placeholder == record.composed.first?.placeholder,
              new[0].placeholder == composed.first?.placeholder else { return nil }
        return update.changes
    }
}
