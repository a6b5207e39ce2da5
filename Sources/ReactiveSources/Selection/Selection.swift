import Foundation
import Signals

/// The selected objects of a source, per section, under a ``SelectionPolicy`` per section.
///
/// - Selections are remembered by object and section identity (``SnapshotSection/id``), so they
///   survive snapshot updates while the selected objects are still in their section;
///   objects that disappear from a published snapshot are dropped from the selection for
///   good (re-adding them later does not reselect them). A section can fall below its
///   minimum this way: minimums only refuse explicit deselection.
/// - Selected objects come back in row order, whatever the order of selection.
/// - For a ``MultiDataSource``, ``selectedObjects`` lists the selections of every section.
///
/// Thread-safe. ``selection`` is an observable, derived property: it updates when the
/// selection changes and when the source publishes a snapshot that drops selected objects.
public final class Selection<Object: Hashable & Sendable>: Sendable {
    /// Per section id: the selected objects, oldest selection first.
    private let chosen = MutableProperty<[String: [Object]]>([:])
    private let source: any DataSource<Object>
    private let policy: @Sendable (_ sectionID: String) -> SelectionPolicy
    /// The selected objects per section (section index -> objects in row order), for the
    /// current snapshot.
    public let selection: Property<[Int: [Object]]>
    /// Forgets chosen objects that a published snapshot no longer holds in their section.
    private let pruning: SignalSubscription

    /// Creates a selection over `source`, with `policy(sectionID)` deciding each section's rules.
    public init(source: any DataSource<Object>, policy: @escaping @Sendable (_ sectionID: String) -> SelectionPolicy) {
        self.source = source
        self.policy = policy
        let chosen = self.chosen
        let snapshots = source.updates
        selection = Property {
            Self.visible(chosen.value, in: snapshots.value.snapshot)
        }
        pruning = snapshots.observe(emitsCurrentValue: false) { update in
            chosen.modify { Self.prune(&$0, to: update.snapshot) }
        }
    }

    /// Creates a selection with the same policy in every section.
    public convenience init(source: any DataSource<Object>, policy: SelectionPolicy = .multiple) {
        self.init(source: source, policy: { _ in policy })
    }

    /// Selects the object at `path`. Selecting an already selected object does nothing.
    /// Beyond the section's maximum, the oldest selection in that section is evicted.
    /// Throws ``SelectionError`` for an invalid path, a placeholder row or an unselectable section.
    public func select(at path: RowPath) throws(SelectionError) {
        let snapshot = source.snapshot
        let (section, object) = try resolve(path, in: snapshot)
        let sectionID = snapshot.sections[section].id
        let rules = policy(sectionID)
        if rules.maximum == 0 { throw .notSelectable(section: section) }
        chosen.modify { chosen in
            var selected = Self.present(chosen[sectionID] ?? [], in: snapshot.sections[section])
            guard !selected.contains(object) else { return }
            selected.append(object)
            if let maximum = rules.maximum, selected.count > maximum {
                selected.removeFirst(selected.count - maximum)
            }
            chosen[sectionID] = selected
        }
    }

    /// Deselects the object at `path`; deselecting an unselected object does nothing.
    /// Throws ``SelectionError/belowMinimum(section:minimum:)`` when that would leave fewer
    /// than the section's minimum selected, or another ``SelectionError`` for a bad path.
    public func deselect(at path: RowPath) throws(SelectionError) {
        let snapshot = source.snapshot
        let (section, object) = try resolve(path, in: snapshot)
        let sectionID = snapshot.sections[section].id
        let rules = policy(sectionID)
        var refused = false
        chosen.modify { chosen in
            var selected = Self.present(chosen[sectionID] ?? [], in: snapshot.sections[section])
            guard let position = selected.firstIndex(of: object) else { return }
            guard selected.count > rules.minimum else {
                refused = true
                return
            }
            selected.remove(at: position)
            chosen[sectionID] = selected
        }
        if refused { throw .belowMinimum(section: section, minimum: rules.minimum) }
    }

    /// Selects the row if it is not selected, deselects it otherwise (same errors).
    public func toggle(at path: RowPath) throws(SelectionError) {
        if isSelected(at: path) {
            try deselect(at: path)
        } else {
            try select(at: path)
        }
    }

    /// Whether the object at `path` is selected; false for invalid paths.
    public func isSelected(at path: RowPath) -> Bool {
        let (section, _) = (path.section, path.item)
        guard let object = source.snapshot.object(at: path) else { return false }
        return selection.value[section]?.contains(object) ?? false
    }

    /// The selected objects of `section`, in row order; empty for an invalid section.
    public func selectedObjects(inSection section: Int) -> [Object] {
        selection.value[section] ?? []
    }

    /// The selected objects of every section, section by section, each in row order.
    public var selectedObjects: [Object] {
        selection.value.sorted { $0.key < $1.key }.flatMap(\.value)
    }

    /// The index paths of the selected objects, in order.
    public var selectedPaths: [RowPath] {
        let snapshot = source.snapshot
        return Self.visible(chosen.value, in: snapshot).sorted { $0.key < $1.key }.flatMap { section, objects in
            objects.compactMap { object in
                snapshot.sections[section].objects.firstIndex(of: object).map { RowPath(item: $0, section: section) }
            }
        }
    }

    /// Clears the selection of every section (minimums do not apply).
    public func clear() {
        chosen.value = [:]
    }

    private func resolve(_ path: RowPath, in snapshot: Snapshot<Object>) throws(SelectionError) -> (Int, Object) {
        let (section, _) = (path.section, path.item)
        guard let row = snapshot.row(at: path) else {
            throw .invalidPath(path)
        }
        guard let object = row.object else { throw .placeholderRow(path) }
        return (section, object)
    }

    /// The chosen objects still present in `section`, in selection order.
    private static func present(_ objects: [Object], in section: SnapshotSection<Object>) -> [Object] {
        guard !objects.isEmpty else { return [] }
        let members = Set(section.objects)
        return objects.filter(members.contains)
    }

    /// Drops chosen objects (and sections) that `snapshot` no longer holds, so an object that
    /// is removed and later re-added comes back unselected.
    private static func prune(_ chosen: inout [String: [Object]], to snapshot: Snapshot<Object>) {
        guard !chosen.isEmpty else { return }
        var sectionsByID: [String: SnapshotSection<Object>] = [:]
        for section in snapshot.sections where chosen[section.id] != nil {
            sectionsByID[section.id] = section
        }
        for (sectionID, objects) in chosen {
            let kept = sectionsByID[sectionID].map { present(objects, in: $0) } ?? []
            if kept.count != objects.count { chosen[sectionID] = kept.isEmpty ? nil : kept }
        }
    }

    /// Per section index, the chosen objects still present, in row order.
    private static func visible(_ chosen: [String: [Object]], in snapshot: Snapshot<Object>) -> [Int: [Object]] {
        var result: [Int: [Object]] = [:]
        for (index, section) in snapshot.sections.enumerated() {
            guard let objects = chosen[section.id], !objects.isEmpty else { continue }
            let wanted = Set(objects)
            let inRowOrder = Array(section.objects.filter(wanted.contains))
            if !inRowOrder.isEmpty { result[index] = inRowOrder }
        }
        return result
    }
}
