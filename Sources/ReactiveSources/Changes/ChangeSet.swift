import Foundation

/// The edit that turns one snapshot into the next, in the index-path terms a table or
/// collection view's batch update expects.
///
/// One change set is one logical edit. A list applies it through
/// ``stages(from:to:)``: one batch update, or two when sections move while rows change in
/// the moved sections (``needsStaging``). Each stage is applied in two steps:
/// 1. **Structure**, in one batch update (`performBatchUpdates` semantics): delete
///    `deletedSections` / `deletedRows` and the `from` side of moves, which use indexes of
///    the **old** snapshot; insert `insertedSections` / `insertedRows` and the `to` side of
///    moves, which use indexes of the **new** snapshot.
/// 2. **Content**, after the batch: reload or reconfigure `updatedRows` and retitle
///    `retitledSections`, both in indexes of the **new** snapshot. (UIKit's reloads inside a
///    batch expect old indexes; do not pass these to it in stage 1.)
///
/// - rows inside inserted or deleted sections are not listed individually;
/// - a section that keeps its identity but changes its title is listed in
///   `retitledSections` (its rows are diffed as usual).
/// Placeholder rows are rows like any other. When most rows change, reloading is cheaper than
/// animating: see ``prefersReload(of:)``.
public struct ChangeSet: Hashable, Sendable {
    /// A move of a section from an old index to a new index.
    public struct SectionMove: Hashable, Sendable {
        /// Index in the old snapshot.
        public var from: Int
        /// Index in the new snapshot.
        public var to: Int
        /// Creates a section move.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// A move of a row from an old index path to a new index path.
    public struct RowMove: Hashable, Sendable {
        /// Path in the old snapshot.
        public var from: RowPath
        /// Path in the new snapshot.
        public var to: RowPath
        /// Creates a row move.
        public init(from: RowPath, to: RowPath) {
            self.from = from
            self.to = to
        }
    }

    /// Old indexes of removed sections, ascending.
    public var deletedSections: [Int] = []
    /// New indexes of added sections, ascending.
    public var insertedSections: [Int] = []
    /// Sections that kept their identity but moved.
    public var movedSections: [SectionMove] = []
    /// New indexes of sections whose title changed.
    public var retitledSections: [Int] = []
    /// Old index paths of removed rows.
    public var deletedRows: [RowPath] = []
    /// New index paths of added rows.
    public var insertedRows: [RowPath] = []
    /// Rows that kept their identity but moved.
    public var movedRows: [RowMove] = []
    /// New index paths of rows whose content changed in place.
    public var updatedRows: [RowPath] = []

    /// An empty change set.
    public init() {}

    /// Whether a list showing `old` would do better to reload everything than to animate
    /// this change: more rows change (deleted, inserted, moved, updated) than half of `old`'s
    /// rows, or sections are deleted or inserted for more than half of its sections.
    /// O(sections).
    public func prefersReload<Object>(of old: Snapshot<Object>) -> Bool {
        let rows = old.sections.reduce(0) { $0 + $1.rowCount }
        let changedRows = deletedRows.count + insertedRows.count + movedRows.count + updatedRows.count
        let changedSections = deletedSections.count + insertedSections.count + movedSections.count
        return changedRows * 2 > max(rows, 1) || changedSections * 2 > max(old.sections.count, 1)
    }

    /// Number of row entries (deleted, inserted, moved, updated): the work of following this
    /// change row by row.
    public var rowChangeCount: Int {
        deletedRows.count + insertedRows.count + movedRows.count + updatedRows.count
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && retitledSections.isEmpty
            && deletedRows.isEmpty && insertedRows.isEmpty && movedRows.isEmpty && updatedRows.isEmpty
    }
}
