import Foundation

extension ChangeSet {
    /// This change set with old-side section indexes shifted by `oldOffset` and new-side
    /// ones by `newOffset`: how a child's change looks inside a composed source whose
    /// sections for that child start at those offsets. O(size of the change set).
    func translated(oldOffset: Int, newOffset: Int) -> ChangeSet {
        if oldOffset == 0 && newOffset == 0 { return self }
        func old(_ path: IndexPath) -> IndexPath { IndexPath(indexes: [path[0] + oldOffset, path[1]]) }
        func new(_ path: IndexPath) -> IndexPath { IndexPath(indexes: [path[0] + newOffset, path[1]]) }
        var result = ChangeSet()
        result.deletedSections = deletedSections.map { $0 + oldOffset }
        result.insertedSections = insertedSections.map { $0 + newOffset }
        result.movedSections = movedSections.map { SectionMove(from: $0.from + oldOffset, to: $0.to + newOffset) }
        result.retitledSections = retitledSections.map { $0 + newOffset }
        result.deletedRows = deletedRows.map(old)
        result.insertedRows = insertedRows.map(new)
        result.movedRows = movedRows.map { RowMove(from: old($0.from), to: new($0.to)) }
        result.updatedRows = updatedRows.map(new)
        return result
    }

    /// Adds the changes of `other`, which must touch sections disjoint from this one's.
    mutating func formUnion(_ other: ChangeSet) {
        deletedSections.append(contentsOf: other.deletedSections)
        insertedSections.append(contentsOf: other.insertedSections)
        movedSections.append(contentsOf: other.movedSections)
        retitledSections.append(contentsOf: other.retitledSections)
        deletedRows.append(contentsOf: other.deletedRows)
        insertedRows.append(contentsOf: other.insertedRows)
        movedRows.append(contentsOf: other.movedRows)
        updatedRows.append(contentsOf: other.updatedRows)
    }

    /// Sorts the index lists into ascending order.
    mutating func normalize() {
        deletedSections.sort()
        insertedSections.sort()
        retitledSections.sort()
        deletedRows.sort()
        insertedRows.sort()
        updatedRows.sort()
    }

    /// Whether the change only touches rows (no section inserted, deleted, moved or retitled).
    var touchesOnlyRows: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && retitledSections.isEmpty
    }
}
