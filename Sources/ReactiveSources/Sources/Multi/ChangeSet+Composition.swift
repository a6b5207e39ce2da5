import Foundation

extension ChangeSet {
    /// This change set with old-side section indexes shifted by `oldOffset` and new-side
    /// ones by `newOffset`: how a child's change looks inside a composed source whose
    /// sections for that child start at those offsets. O(size of the change set).
    @usableFromInline
    func translated(oldOffset: Int, newOffset: Int) -> ChangeSet {
        if oldOffset == 0 && newOffset == 0 { return self }
        var result = self
        Self.shift(&result.deletedSections, by: oldOffset)
        Self.shift(&result.insertedSections, by: newOffset)
        for index in result.movedSections.indices {
            result.movedSections[index].from += oldOffset
            result.movedSections[index].to += newOffset
        }
        Self.shift(&result.retitledSections, by: newOffset)
        Self.shift(&result.deletedRows, by: oldOffset)
        Self.shift(&result.insertedRows, by: newOffset)
        for index in result.movedRows.indices {
            result.movedRows[index].from.section += oldOffset
            result.movedRows[index].to.section += newOffset
        }
        Self.shift(&result.updatedRows, by: newOffset)
        return result
    }

    private static func shift(_ sections: inout [Int], by offset: Int) {
        for index in sections.indices { sections[index] += offset }
    }

    /// Shifts the section index of every path; the paths are changed in place, not rebuilt.
    private static func shift(_ paths: inout [RowPath], by offset: Int) {
        for index in paths.indices { paths[index].section += offset }
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
    @usableFromInline
    mutating func normalize() {
        deletedSections.sortIfNeeded()
        insertedSections.sortIfNeeded()
        retitledSections.sortIfNeeded()
        deletedRows.sortIfNeeded()
        insertedRows.sortIfNeeded()
        updatedRows.sortIfNeeded()
    }

    /// Whether the change only touches rows (no section inserted, deleted, moved or retitled).
    @usableFromInline
    var touchesOnlyRows: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && retitledSections.isEmpty
    }
}
