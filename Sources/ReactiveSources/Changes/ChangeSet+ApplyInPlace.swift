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
    @inlinable
    func applyRows<Object>(
        ofSection section: Int, to objects: inout [Object], valuesFrom newObjects: [Object],
        oldPlaceholder: Bool, newPlaceholder: Bool
    ) -> Bool {
        guard touchesOnlyRows, movedRows.isEmpty else { return false }
        let oldCount = objects.count
        let newCount = newObjects.count
        guard let deleted = Self.objectRows(deletedRows, section: section, count: oldCount, placeholder: oldPlaceholder),
              let inserted = Self.objectRows(insertedRows, section: section, count: newCount, placeholder: newPlaceholder),
              Self.objectRows(updatedRows, section: section, count: newCount, placeholder: newPlaceholder, ascending: false) != nil,
              oldCount - deleted.count + inserted.count == newCount else { return false }

        // Elements moved by deleting from the end backwards (the one at rank r of d deletions
        // shifts oldCount - d + r - item), then inserting from the front (remaining + r - item).
        let remaining = oldCount - deleted.count
        let shifted = deleted.count * remaining + deleted.count * (deleted.count - 1) / 2 - deleted.itemSum
            + inserted.count * remaining + inserted.count * (inserted.count - 1) / 2 - inserted.itemSum
        guard shifted <= newCount else { return false }

        // The object rows are the first paths of each list. Runs of consecutive rows go in one
        // call each: in unspecialised code every call on the array costs a runtime metadata
        // lookup, so per-element calls cost far more.
        var end = deleted.count
        while end > 0 {
            let last = deletedRows[end - 1].item
            var first = last
            end -= 1
            while end > 0 && deletedRows[end - 1].item == first - 1 {
                first -= 1
                end -= 1
            }
            objects.removeSubrange(first..<(last + 1))
        }
        var start = 0
        while start < inserted.count {
            let first = insertedRows[start].item
            var last = first
            start += 1
            while start < inserted.count && insertedRows[start].item == last + 1 {
                last += 1
                start += 1
            }
            if first == objects.count {
                objects.append(contentsOf: newObjects[first..<(last + 1)])
            } else {
                objects.insert(contentsOf: newObjects[first..<(last + 1)], at: first)
            }
        }
        for path in updatedRows where path.item < newCount {
            objects[path.item] = newObjects[path.item]
        }
        return true
    }

    /// How many of `paths` are object rows, and the sum of their items, when all are rows
    /// of `section` below `count`, or at `count` for the placeholder row when there is one;
    /// and, if `ascending`, the object rows strictly ascending and before the placeholder
    /// row. `nil` otherwise.
    @usableFromInline
    static func objectRows(
        _ paths: [RowPath], section: Int, count: Int, placeholder: Bool, ascending: Bool = true
    ) -> (count: Int, itemSum: Int)? {
        var objectRows = 0
        var itemSum = 0
        var previous = -1
        var placeholderSeen = false
        for path in paths {
            let (pathSection, item) = (path.section, path.item)
            guard pathSection == section, item >= 0 else { return nil }
            if item < count {
                if ascending && (item <= previous || placeholderSeen) { return nil }
                previous = item
                objectRows += 1
                itemSum += item
            } else if item == count && placeholder {
                placeholderSeen = true
            } else {
                return nil
            }
        }
        return (objectRows, itemSum)
    }
}
