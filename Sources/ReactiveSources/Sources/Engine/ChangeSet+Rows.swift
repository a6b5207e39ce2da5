import Foundation

extension ChangeSet {
    /// Rows `range` of `section` inserted (new indexes).
    @usableFromInline
    static func insertedRows(_ range: Range<Int>, inSection section: Int) -> ChangeSet {
        var changes = ChangeSet()
        changes.insertedRows = range.map { RowPath(item: $0, section: section) }
        return changes
    }

    /// Rows `range` of `section` deleted (old indexes).
    @usableFromInline
    static func deletedRows(_ range: Range<Int>, inSection section: Int) -> ChangeSet {
        var changes = ChangeSet()
        changes.deletedRows = range.map { RowPath(item: $0, section: section) }
        return changes
    }

    /// The row change for `section` going from `old` to `new` when `new` is `old` with
    /// `appended` objects added after the old objects and its placeholder possibly changed.
    /// O(appended), independent of the number of objects already there.
    static func appending(_ appended: Int, toSection section: Int, old: Placeholder?, new: Placeholder?, oldObjectCount: Int) -> ChangeSet {
        var changes = ChangeSet()
        let newObjectCount = oldObjectCount + appended
        if old != nil && (old != new || appended > 0) {
            changes.deletedRows.append(RowPath(item: oldObjectCount, section: section))
        }
        changes.insertedRows.reserveCapacity(appended + 1)
        for item in oldObjectCount..<newObjectCount { changes.insertedRows.append(RowPath(item: item, section: section)) }
        if new != nil && (old != new || appended > 0) {
            changes.insertedRows.append(RowPath(item: newObjectCount, section: section))
        }
        return changes
    }
}

extension Snapshot {
    /// Sets the placeholder of `section` (if it exists) and returns the row change.
    mutating func setPlaceholder(_ placeholder: Placeholder?, inSection section: Int) -> ChangeSet {
        guard sections.indices.contains(section) else { return ChangeSet() }
        let old = sections[section].placeholder
        guard old != placeholder else { return ChangeSet() }
        sections[section].placeholder = placeholder
        return .appending(0, toSection: section, old: old, new: placeholder, oldObjectCount: sections[section].objects.count)
    }
}
