import Foundation
import Signals

/// The selected rows of a source, per section, under a ``SelectionPolicy`` per section id
/// (for a ``MultiDataSource``, a child's name: `["Size": .exactlyOne, "Toppings": .upTo(2)]`).
///
/// - **Follows the rows.** A selected row keeps its selection while it moves within its
///   section, and while its content changes (an update of a row with the same identity: its
///   `id` for `Identifiable` objects, else the object itself). A deleted row, or one that
///   moves to another section, leaves the selection for good (re-adding it later does not
///   reselect it); so do the rows of a deleted section. Each source update is followed
///   through its change set: O(change + selected × log n), not O(n). When the change set
///   cannot be had (more than 64 updates were skipped, or sections changed in between),
///   does not fit, or replaces a selected section (deletes it and inserts one with the same
///   id, as a derived source does after a large change), the selected identities are looked
///   up again in their sections (by section id): O(size of those sections).
/// - **Minimums.** A minimum refuses explicit deselection. With
///   ``SelectionPolicy/Preselection/first`` a section is also topped up to its minimum with
///   its first unselected rows (at creation, when it gains rows, when selected rows are
///   deleted, after ``clear()``); without it, a deleted row can leave a section below its
///   minimum.
/// - **One value.** ``state`` holds the source's update and the selection over it, so one
///   observer gets rows and selection that belong together. Selected objects come back in
///   row order, whatever the order of selection.
///
/// Thread-safe: every member may be called from any thread. The selection observes the
/// source until it is deinitialised (it holds the source; the source does not hold it).
/// `policy` is called once per section id, while the Signals graph is locked: keep it pure
/// (it may read properties; it must not call this selection).
public final class Selection<Object: Hashable & Sendable>: Sendable {
    private let source: any DataSource<Object>
    let core: SelectionCore<Object>
    /// Written after every edit, so ``state`` recomputes.
    private let edits = MutableProperty<UInt64>(0, equals: nil)
    /// The source's current update with the selection over it. Observe it to get rows and
    /// selection in one subscription; it changes when either does.
    public let state: Property<SelectedSnapshot<Object>>
    /// The selected objects per section index, in row order (the ``state``'s
    /// ``SelectedSnapshot/bySection``); changes only when they do.
    public let selection: Property<[Int: [Object]]>
    /// Keeps ``state`` following every update of the source.
    private let following: SignalSubscription

    /// Creates a selection over `source`, with `policy(sectionID)` deciding each section's
    /// rules. Sections whose policy preselects are topped up at once.
    public init(source: any DataSource<Object>, policy: @escaping @Sendable (_ sectionID: String) -> SelectionPolicy) {
        self.source = source
        let core = SelectionCore(update: source.updates.value, policy: policy)
        self.core = core
        let edits = edits
        let updates = source.updates
        let state = Property<SelectedSnapshot<Object>>(equals: { $0.update.version == $1.update.version && $0.revision == $1.revision }) {
            _ = edits.value
            core.follow(updates.value)
            return core.value
        }
        self.state = state
        selection = Property { state.value.bySection }
        following = state.observe(emitsCurrentValue: false) { _ in }
    }

    /// Creates a selection with the same policy in every section.
    public convenience init(source: any DataSource<Object>, policy: SelectionPolicy = .multiple) {
        self.init(source: source, policy: { _ in policy })
    }

    /// Creates a selection with `policies[sectionID]` in the sections named there and
    /// `otherwise` in the others (for a Multi, its children's names are the section ids).
    public convenience init(source: any DataSource<Object>, policies: [String: SelectionPolicy], otherwise: SelectionPolicy = .multiple) {
        self.init(source: source, policy: { policies[$0] ?? otherwise })
    }

    /// Selects the object at `path` (a path of the source's current snapshot). Selecting an
    /// already selected object does nothing. Beyond the section's maximum, the oldest
    /// selection in that section is evicted. O(selected in the section).
    /// Throws ``SelectionError`` for an invalid path, a placeholder row or an unselectable
    /// section; nothing changes then.
    public func select(at path: RowPath) throws(SelectionError) {
        try edit { core throws(SelectionError) in try core.select(at: path) }
    }

    /// Deselects the object at `path`; deselecting an unselected object does nothing.
    /// Throws ``SelectionError/belowMinimum(section:minimum:)`` when that would leave fewer
    /// than the section's minimum selected, or another ``SelectionError`` for a bad path.
    public func deselect(at path: RowPath) throws(SelectionError) {
        try edit { core throws(SelectionError) in try core.deselect(at: path) }
    }

    /// Selects the row if it is not selected, deselects it otherwise (same errors).
    public func toggle(at path: RowPath) throws(SelectionError) {
        try edit { core throws(SelectionError) in
            if core.isSelected(at: path) {
                try core.deselect(at: path)
            } else {
                try core.select(at: path)
            }
        }
    }

    /// Whether the object at `path` is selected; false for invalid paths. O(log selected).
    public func isSelected(at path: RowPath) -> Bool {
        state.value.isSelected(at: path)
    }

    /// The selected objects of `section`, in row order; empty for an invalid section.
    public func selectedObjects(inSection section: Int) -> [Object] {
        state.value.selectedObjects(inSection: section)
    }

    /// The selected objects of the section whose id is `id` (a Multi child's name), in row
    /// order; empty when no section has that id.
    public func selectedObjects(inSection id: String) -> [Object] {
        state.value.selectedObjects(inSection: id)
    }

    /// The selected objects of every section, section by section, each in row order.
    public var selectedObjects: [Object] {
        state.value.selectedObjects
    }

    /// The index paths of the selected objects, ascending.
    public var selectedPaths: [RowPath] {
        state.value.selectedPaths
    }

    /// Clears the selection of every section (minimums do not apply), then tops up the
    /// sections whose policy preselects.
    public func clear() {
        edit { core in core.clear() }
    }

    /// Runs `body` on the core brought up to the source's latest update, with the graph locked
    /// (so it never overlaps ``state``'s computation), and makes ``state`` recompute.
    private func edit<Failure: Error>(_ body: (SelectionCore<Object>) throws(Failure) -> Void) throws(Failure) {
        let updates = source.updates
        let core = core
        let result: Result<Void, Failure> = edits.modify { count in
            core.follow(updates.value)
            do throws(Failure) {
                try body(core)
                count &+= 1
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
