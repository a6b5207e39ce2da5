/// Shows the parent objects sorted by `areInIncreasingOrder`. A parent edit of k rows costs
/// O(k log n) comparisons: removed rows are found by binary search, added ones inserted at
/// the position binary search gives. Rows that compare equal keep no defined order among
/// themselves (a new row goes after the equal ones already shown); a full derivation sorts
/// stably, in the parent's order.
///
/// Touched only from its derived source's closure, which runs serially.
final class SortTransform<Object: Hashable & Sendable>: RowTransform, @unchecked Sendable {
    private var comparator: @Sendable (Object, Object) -> Bool

    init(_ areInIncreasingOrder: @escaping @Sendable (Object, Object) -> Bool) {
        comparator = areInIncreasingOrder
    }

    /// Replaces the order; the caller derives everything again.
    func setComparator(_ areInIncreasingOrder: @escaping @Sendable (Object, Object) -> Bool) {
        comparator = areInIncreasingOrder
    }

    func build(_ parent: RowStorage<Object>) -> (objects: RowStorage<Object>, state: Void) {
        let less = comparator
        let sorted = parent.enumerated().sorted { lhs, rhs in
            less(lhs.element, rhs.element) || (!less(rhs.element, lhs.element) && lhs.offset < rhs.offset)
        }
        return (RowStorage(sorted.lazy.map { $0.element }), ())
    }

    func follow(
        _ edits: ParentChanges.Edits, old: RowStorage<Object>, new: RowStorage<Object>, objects: inout RowStorage<Object>, state: inout Void
    ) -> OwnEdits? {
        let less = comparator
        var own = OwnEdits()
        var taken = Set<Int>()
        func position(of value: Object) -> Int? {
            var item = Self.lowerBound(of: value, in: objects, less)
            while item < objects.count && !less(value, objects[item]) {
                if objects[item] == value && !taken.contains(item) { return item }
                item += 1
            }
            return nil
        }
        // Old positions of the rows that leave or change.
        // A row not found means the order is not a strict weak ordering (a NaN key, say):
        // give up following, so the section is derived again and shows the parent's rows.
        for item in edits.removed {
            guard let ownItem = position(of: old[item]) else { return nil }
            taken.insert(ownItem)
            own.removed[item] = ownItem
        }
        var changed: [(from: Int, value: Object)] = []
        for (oldItem, newItem) in edits.updated {
            guard let ownItem = position(of: old[oldItem]) else { return nil }
            taken.insert(ownItem)
            changed.append((ownItem, new[newItem]))
        }
        // A changed row whose untouched neighbours still bracket its new value stays put.
        var inPlace: [(item: Int, value: Object)] = []
        var moving: [(from: Int, value: Object)] = []
        for change in changed {
            let item = change.from
            let fitsBefore = item == 0 || (!taken.contains(item - 1) && !less(change.value, objects[item - 1]))
            let fitsAfter = item == objects.count - 1 || (!taken.contains(item + 1) && !less(objects[item + 1], change.value))
            if fitsBefore && fitsAfter { inPlace.append((item, change.value)) } else { moving.append(change) }
        }
        for change in inPlace { objects[change.item] = change.value }
        let removed = (Array(own.removed.values) + moving.map(\.from)).sorted()
        RowEditing.remove(removed, from: &objects)
        // Insert in ascending order: each lands after the previous one, so positions are final.
        var arriving: [(parent: Int?, from: Int?, value: Object)] = edits.added.map { ($0, nil, new[$0]) }
        arriving += moving.map { (nil, $0.from, $0.value) }
        arriving.sort { less($0.value, $1.value) }
        var added: [Int] = []
        for arrival in arriving {
            let item = Self.upperBound(of: arrival.value, in: objects, less)
            objects.insert(arrival.value, at: item)
            added.append(item)
            if let parent = arrival.parent { own.added[parent] = item }
            if let from = arrival.from { own.moved.append((from, item)) }
        }
        added.sort()
        for change in inPlace {
            own.updated.append(GapMapping.newIndex(ofOld: change.item, removed: removed, added: added))
        }
        return own
    }

    func parentItem(ofOwn item: Int, state: Void) -> Int? { nil }

    /// The first position whose row does not go before `value`. O(log n), one tree descent.
    static func lowerBound(of value: Object, in objects: RowStorage<Object>, _ less: (Object, Object) -> Bool) -> Int {
        objects.partitioningIndex { !less($0, value) }
    }

    /// The first position whose row goes after `value`. O(log n), one tree descent.
    static func upperBound(of value: Object, in objects: RowStorage<Object>, _ less: (Object, Object) -> Bool) -> Int {
        objects.partitioningIndex { less(value, $0) }
    }
}
