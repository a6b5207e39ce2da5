import Foundation

/// The edit that turns one snapshot into the next, in the index-path terms a table or
/// collection view's batch update expects.
///
/// Apply it in two stages, as DifferenceKit's staged change sets are applied:
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
/// Placeholder rows are rows like any other.
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

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && retitledSections.isEmpty
            && deletedRows.isEmpty && insertedRows.isEmpty && movedRows.isEmpty && updatedRows.isEmpty
    }
}
