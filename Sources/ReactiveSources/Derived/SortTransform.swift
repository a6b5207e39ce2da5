/// Shows the parent objects sorted by `areInIncreasingOrder`, stably: rows that compare
/// equal keep the parent's order, after any history of edits, exactly as sorting the
/// parent's objects from scratch would place them.
///
/// Every parent row carries an order label (see ``OrderLabels``), kept for the parent's
/// rows and for the shown ones, so a row is found and placed by binary search on (value,
/// label): a parent edit of k rows costs O(k log n) comparisons, plus a search through the
/// labels of the rows that compare equal to it; an edit touching more than a sixteenth of
/// the rows is merged in one pass instead (O(n + k log k), see `followInBulk`). About 30 inserts at one place in the
/// middle use up the room between two labels (appends and prepends have room for about
/// 2^30 rows); that, or a row that cannot be found (an order that is not a strict weak
/// ordering, e.g. a NaN key), derives the section again (O(n log n)).
///
/// Touched only from its derived source's closure, which runs serially.
final class SortTransform<Object: Hashable & Sendable>: RowTransform, @unchecked Sendable {
    /// One section's order labels.
    struct SectionState {
        /// The label of each parent row, aligned with the parent section's objects; increasing.
        var parentLabels: RowStorage<UInt64>
        /// The label of each shown row, aligned with the own objects.
        var labels: RowStorage<UInt64>
    }

    let comparator: @Sendable (Object, Object) -> Bool
    /// Sorts and merges rows (compiled for `Object` by the inlinable factories).
    let loops: CompiledLoops<Object>

    init(_ areInIncreasingOrder: @escaping @Sendable (Object, Object) -> Bool, loops: CompiledLoops<Object>) {
        comparator = areInIncreasingOrder
        self.loops = loops
    }

    /// Follows edits of any size: large ones in one merge pass (see ``followInBulk(_:new:objects:state:)``).
    var followsLargeChanges: Bool { true }

    func build(_ parent: RowStorage<Object>) -> (objects: RowStorage<Object>, state: SectionState) {
        let values = ContiguousArray(parent)
        let labels = ContiguousArray(values.indices.lazy.map(OrderLabels.fromScratch))
        // Labels ascend with the positions, so the stable sort breaks ties by label.
        var order = Array(values.indices)
        let sorted = values.withUnsafeBufferPointer { values in loops.sort(comparator, values, &order) }
        return (
            RowStorage(spacedOut: sorted, eighths: 6),
            SectionState(parentLabels: RowStorage(labels), labels: RowStorage(spacedOut: order.lazy.map { labels[$0] }, eighths: 6))
        )
    }

    func follow(
        _ edits: ParentChanges.Edits, old: OldRows<Object>, new: RowStorage<Object>, objects: inout RowStorage<Object>, state: inout SectionState
    ) -> OwnEdits? {
        if OrderLabels.isBulk(touched: edits.removed.count + edits.added.count + edits.updated.count, count: objects.count) {
            return followInBulk(edits, new: new, objects: &objects, state: &state)
        }
        let less = comparator
        func precedes(_ value: Object, _ label: UInt64, _ other: Object, _ otherLabel: UInt64) -> Bool {
            label < otherLabel ? !less(other, value) : less(value, other)
        }
        // 1. Where the rows that leave or change are shown (before any own edit).
        var own = OwnEdits()
        var taken = Set<Int>()
        for item in edits.removed {
            // Not found: the order is not a strict weak ordering; derive the section again.
            guard let value = old[item],
                  let ownItem = Self.position(of: value, label: state.parentLabels[item], in: objects, labels: state.labels, less, bound: loops.bound) else { return nil }
            taken.insert(ownItem)
            own.removed.append((item, ownItem))
        }
        var changed: [(from: Int, value: Object, label: UInt64)] = []
        for (oldItem, newItem) in edits.updated {
            let label = state.parentLabels[oldItem]
            guard let value = old[oldItem],
                  let ownItem = Self.position(of: value, label: label, in: objects, labels: state.labels, less, bound: loops.bound) else { return nil }
            taken.insert(ownItem)
            changed.append((ownItem, new[newItem], label))
        }
        // 2. The parent's labels follow its edits; arriving rows take labels between neighbours.
        guard let addedLabels = OrderLabels.follow(&state.parentLabels, removed: edits.removed, added: edits.added) else { return nil }
        // 3. A changed row whose untouched neighbours still bracket it stays put.
        var inPlace: [(item: Int, value: Object)] = []
        var moving: [(from: Int, value: Object, label: UInt64)] = []
        for change in changed {
            let item = change.from
            let fitsBefore = item == 0
                || (!taken.contains(item - 1) && precedes(objects[item - 1], state.labels[item - 1], change.value, change.label))
            let fitsAfter = item == objects.count - 1
                || (!taken.contains(item + 1) && precedes(change.value, change.label, objects[item + 1], state.labels[item + 1]))
            if fitsBefore && fitsAfter { inPlace.append((item, change.value)) } else { moving.append(change) }
        }
        for change in inPlace { objects[change.item] = change.value }
        let removed = (own.removed.map(\.own) + moving.map { $0.from }).sorted()
        RowEditing.remove(removed, from: &objects, using: loops.remove)
        RowEditing.remove(removed, from: &state.labels)
        // 4. Insert in ascending order: each lands after the ones before it. Kept as parallel
        //    arrays: tuples holding an `Object` cost a runtime metadata lookup per access here.
        var values = ContiguousArray<Object>()
        var labels: [UInt64] = []
        /// An arriving row's parent item, or -1 - its old own item for a changed row that moves.
        var sources: [Int] = []
        let arrivalCount = edits.added.count + moving.count
        values.reserveCapacity(arrivalCount)
        labels.reserveCapacity(arrivalCount)
        sources.reserveCapacity(arrivalCount)
        for (index, item) in edits.added.enumerated() {
            values.append(new[item])
            labels.append(addedLabels[index])
            sources.append(item)
        }
        for change in moving {
            values.append(change.value)
            labels.append(change.label)
            sources.append(-1 - change.from)
        }
        if arrivalCount > 1 {
            var order = Array(0..<arrivalCount)
            order.sort { precedes(values[$0], labels[$0], values[$1], labels[$1]) }
            values = ContiguousArray(order.lazy.map { values[$0] })
            labels = order.map { labels[$0] }
            sources = order.map { sources[$0] }
        }
        // Where each goes among the rows that stay (arrival i then lands at `points[i] + i`,
        // after the i before it). The labels' paths to them are loaded together when the
        // labels outgrow the cache (half a megabyte), so their misses overlap.
        var points: [Int] = []
        points.reserveCapacity(arrivalCount)
        for index in 0..<arrivalCount {
            points.append(Self.insertionPoint(of: values[index], label: labels[index], in: objects, labels: state.labels, less, bound: loops.bound))
        }
        if arrivalCount > 1 && state.labels.count >= 1 << 16 { state.labels.touchPaths(to: points) }
        var added: [Int] = []
        added.reserveCapacity(arrivalCount)
        for index in 0..<arrivalCount {
            let item = points[index] + index
            loops.insert(values[index], item, &objects)
            state.labels.insert(labels[index], at: item)
            added.append(item)
            let source = sources[index]
            if source >= 0 { own.added.append((source, item)) } else { own.moved.append((-1 - source, item)) }
        }
        added.sort()
        for change in inPlace {
            own.updated.append(GapMapping.newIndex(ofOld: change.item, removed: removed, added: added))
        }
        return own
    }

    /// Not told: a sorted row's parent position says nothing about paging, so the derived
    /// source forwards the end of the parent's section when its last row is displayed.
    func parentItem(ofOwn item: Int, state: SectionState) -> Int? { nil }

    /// Where the row (`value`, `label`) goes: after every row it does not precede. O(log n)
    /// comparisons, plus O(log ties) label reads among the rows equal to `value`.
    static func insertionPoint(
        of value: Object, label: UInt64, in objects: RowStorage<Object>, labels: RowStorage<UInt64>, _ less: (Object, Object) -> Bool,
        bound: @escaping CompiledLoops<Object>.Bound
    ) -> Int {
        let low = bound(objects, value, false, less)
        // Rows equal to `value` start at `low`: usually none, which one read tells.
        guard low < objects.count, !less(value, objects[low]) else { return low }
        return tiePoint(of: value, label: label, from: low, in: objects, labels: labels, less, bound: bound)
    }

    /// The position of the shown row (`value`, `label`), or `nil` if it is not where the
    /// order says. Same cost as ``insertionPoint(of:label:in:labels:_:)``.
    static func position(
        of value: Object, label: UInt64, in objects: RowStorage<Object>, labels: RowStorage<UInt64>, _ less: (Object, Object) -> Bool,
        bound: @escaping CompiledLoops<Object>.Bound
    ) -> Int? {
        let low = bound(objects, value, false, less)
        guard low < labels.count else { return nil }
        // The first row equal to `value` is usually the one (labels are unique).
        let item = labels[low] == label ? low : tiePoint(of: value, label: label, from: low, in: objects, labels: labels, less, bound: bound)
        return item < labels.count && labels[item] == label && objects[item] == value ? item : nil
    }

    /// Among the rows equal to `value`, which start at `low`, where label `label` goes.
    private static func tiePoint(
        of value: Object, label: UInt64, from low: Int, in objects: RowStorage<Object>, labels: RowStorage<UInt64>, _ less: (Object, Object) -> Bool,
        bound: @escaping CompiledLoops<Object>.Bound
    ) -> Int {
        var low = low
        var high = bound(objects, value, true, less)
        while low < high {
            let middle = (low + high) / 2
            if labels[middle] < label { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
