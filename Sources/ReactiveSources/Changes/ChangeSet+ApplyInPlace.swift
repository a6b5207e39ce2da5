import Foundation

extension ChangeSet {
    /// Applies this change's rows of `section` to that section's `objects` in place, reading
    /// inserted and updated values from `newObjects` (the section's objects after the change),
    /// and returns whether it did. A row just past the objects is the placeholder row
    /// (`oldPlaceholder` / `newPlaceholder` tell whether there is one) and is skipped: the
    /// caller sets the placeholder.
    ///
    /// Declines, leaving `objects` untouched, when the change touches anything but rows of
    /// `section`, moves rows, has an index out of range or out of ascending order (call
    /// ``normalize()`` first), does not end with `newObjects.count` objects, or would shift
    /// more elements than copying `newObjects` would. Appending k objects costs O(k) when
    /// `objects` is uniquely referenced.
    func applyRows<Object>(
        ofSection section: Int, to objects: inout [Object], valuesFrom newObjects: [Object],
        oldPlaceholder: Bool, newPlaceholder: Bool
    ) -> Bool {
        guard touchesOnlyRows, movedRows.isEmpty else { return false }
        let oldCount = objects.count
        let newCount = newObjects.count
        guard let deleted = Self.objectRowCount(deletedRows, section: section, count: oldCount, placeholder: oldPlaceholder),
              let inserted = Self.objectRowCount(insertedRows, section: section, count: newCount, placeholder: newPlaceholder),
              Self.objectRowCount(updatedRows, section: section, count: newCount, placeholder: newPlaceholder, ascending: false) != nil,
              oldCount - deleted + inserted == newCount else { return false }

        // Elements moved by deleting from the end backwards, then inserting from the front;
        // the object rows are the first `deleted` / `inserted` paths of their lists.
        var shifted = 0
        for rank in 0..<deleted {
            shifted += oldCount - (deleted - 1 - rank) - deletedRows[rank][1] - 1
        }
        let remaining = oldCount - deleted
        for rank in 0..<inserted {
            shifted += remaining + rank - insertedRows[rank][1]
        }
        guard shifted <= newCount else { return false }

        // Runs of consecutive rows go in one call each: in unspecialised code every call on
        // the array costs a runtime metadata lookup, so per-element calls cost far more.
        var end = deleted
        while end > 0 {
            var start = end - 1
            while start > 0 && deletedRows[start - 1][1] == deletedRows[start][1] - 1 { start -= 1 }
            objects.removeSubrange(deletedRows[start][1]...deletedRows[end - 1][1])
            end = start
        }
        var start = 0
        while start < inserted {
            var end = start + 1
            while end < inserted && insertedRows[end][1] == insertedRows[end - 1][1] + 1 { end += 1 }
            let run = insertedRows[start][1]...insertedRows[end - 1][1]
            if run.lowerBound == objects.count {
                objects.append(contentsOf: newObjects[run])
            } else {
                objects.insert(contentsOf: newObjects[run], at: run.lowerBound)
            }
            start = end
        }
        for path in updatedRows where path[1] < newCount {
            objects[path[1]] = newObjects[path[1]]
        }
        return true
    }

    /// How many of `paths` are object rows, when all are rows of `section` below `count`,
    /// or at `count` for the placeholder row when there is one; and, if `ascending`, the
    /// object rows strictly ascending and before the placeholder row. `nil` otherwise.
    private static func objectRowCount(
        _ paths: [IndexPath], section: Int, count: Int, placeholder: Bool, ascending: Bool = true
    ) -> Int? {
        var objectRows = 0
        var previous = -1
        var placeholderSeen = false
        for path in paths {
            guard let (pathSection, item) = path.sectionAndItem, pathSection == section, item >= 0 else { return nil }
            if item < count {
                if ascending && (item <= previous || placeholderSeen) { return nil }
                previous = item
                objectRows += 1
            } else if item == count && placeholder {
                placeholderSeen = true
            } else {
                return nil
            }
        }
        return objectRows
    }
}
