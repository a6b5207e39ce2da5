extension SortTransform {
    /// Whether `edits` touch enough of a section's `count` shown rows that one merge pass
    /// costs less than a binary search per row.
    static func isBulk(_ edits: ParentChanges.Edits, count: Int) -> Bool {
        let touched = edits.removed.count + edits.added.count + edits.updated.count
        return touched * 16 > count
    }

    /// Follows edits that touch many rows without searching for any: the rows that leave are
    /// found by label in one pass, the arriving rows are sorted, and both are merged with the
    /// rows that stay, which keep their order. O(n + k log k) comparisons for k edited rows.
    /// `nil` (nothing changed) when the edits do not fit the labels or a leaving row is not
    /// shown: the derivation then derives everything again and diffs.
    func followInBulk(
        _ edits: ParentChanges.Edits, new: RowStorage<Object>, objects: inout RowStorage<Object>, state: inout SectionState
    ) -> OwnEdits? {
        let less = comparator
        func precedes(_ value: Object, _ label: UInt64, _ other: Object, _ otherLabel: UInt64) -> Bool {
            less(value, other) || (!less(other, value) && label < otherLabel)
        }
        var own = OwnEdits()
        // 1. The labels of the parent rows that leave (removed: their parent item) or change
        //    (updated: -1 - their index in `edits.updated`), read in one pass.
        let updatedByOld = edits.updated.indices.sorted { edits.updated[$0].old < edits.updated[$1].old }
        var leaving: [UInt64: Int] = [:]
        leaving.reserveCapacity(edits.removed.count + edits.updated.count)
        var updatedLabels = [UInt64](repeating: 0, count: edits.updated.count)
        var nextRemoved = 0
        var nextUpdated = 0
        for (item, label) in state.parentLabels.enumerated() {
            if nextRemoved < edits.removed.count && edits.removed[nextRemoved] == item {
                leaving[label] = item
                nextRemoved += 1
            } else if nextUpdated < updatedByOld.count && edits.updated[updatedByOld[nextUpdated]].old == item {
                leaving[label] = -1 - updatedByOld[nextUpdated]
                updatedLabels[updatedByOld[nextUpdated]] = label
                nextUpdated += 1
            }
            if nextRemoved == edits.removed.count && nextUpdated == updatedByOld.count { break }
        }
        guard nextRemoved == edits.removed.count && nextUpdated == updatedByOld.count else { return nil }
        // 2. Where they are shown, in one pass over the shown labels.
        var leavingOwn: [Int] = []
        leavingOwn.reserveCapacity(leaving.count)
        var updatedOwn = [Int](repeating: -1, count: edits.updated.count)
        var ownItem = 0
        for label in state.labels {
            if leavingOwn.count == leaving.count { break }
            if let tag = leaving[label] {
                leavingOwn.append(ownItem)
                if tag >= 0 { own.removed.append((tag, ownItem)) } else { updatedOwn[-1 - tag] = ownItem }
            }
            ownItem += 1
        }
        guard leavingOwn.count == leaving.count else { return nil }
        // 3. A changed row whose untouched neighbours still bracket it stays put; the others
        //    arrive again, as do the parent's added rows (read in one pass).
        func isLeaving(_ item: Int) -> Bool {
            let index = GapMapping.countLess(than: item, in: leavingOwn)
            return index < leavingOwn.count && leavingOwn[index] == item
        }
        // Kept as parallel arrays: tuples holding an `Object` cost a runtime metadata lookup
        // per access in this unspecialised code.
        var inPlaceItems: [Int] = []
        var inPlaceValues = ContiguousArray<Object>()
        var arrivalValues = ContiguousArray<Object>()
        var arrivalLabels: [UInt64] = []
        /// An arriving row's parent item, or -1 - its old own item for a changed row that moves.
        var arrivalSources: [Int] = []
        let arrivalCount = edits.added.count + edits.updated.count
        arrivalValues.reserveCapacity(arrivalCount)
        arrivalLabels.reserveCapacity(arrivalCount)
        arrivalSources.reserveCapacity(arrivalCount)
        for (index, change) in edits.updated.enumerated() {
            let from = updatedOwn[index]
            let value = new[change.new]
            let label = updatedLabels[index]
            let fitsBefore = from == 0
                || (!isLeaving(from - 1) && precedes(objects[from - 1], state.labels[from - 1], value, label))
            let fitsAfter = from == objects.count - 1
                || (!isLeaving(from + 1) && precedes(value, label, objects[from + 1], state.labels[from + 1]))
            if fitsBefore && fitsAfter {
                inPlaceItems.append(from)
                inPlaceValues.append(value)
            } else {
                arrivalValues.append(value)
                arrivalLabels.append(label)
                arrivalSources.append(-1 - from)
            }
        }
        if !inPlaceItems.isEmpty {
            let byItem = inPlaceItems.indices.sorted { inPlaceItems[$0] < inPlaceItems[$1] }
            inPlaceItems = byItem.map { inPlaceItems[$0] }
            inPlaceValues = ContiguousArray(byItem.lazy.map { inPlaceValues[$0] })
        }
        var parentLabels = state.parentLabels
        var made: [UInt64] = []
        if !edits.removed.isEmpty || !edits.added.isEmpty {
            guard let followed = OrderLabels.followInBulk(state.parentLabels, removed: edits.removed, added: edits.added) else { return nil }
            (parentLabels, made) = followed
        }
        if !edits.added.isEmpty {
            var next = 0
            var item = 0
            for value in new {
                if item == edits.added[next] {
                    arrivalValues.append(value)
                    arrivalLabels.append(made[next])
                    arrivalSources.append(item)
                    next += 1
                    if next == edits.added.count { break }
                }
                item += 1
            }
        }
        // Labels are unique, so this order is total.
        var order = Array(arrivalValues.indices)
        arrivalValues.withUnsafeBufferPointer { values in
            arrivalLabels.withUnsafeBufferPointer { labels in sorter(less, values, labels, &order) }
        }
        // 4. Merge the rows that stay (in order) with the arriving ones.
        let count = objects.count - leavingOwn.count + inPlaceItems.count + order.count
        var merged = ContiguousArray<Object>()
        var mergedLabels = ContiguousArray<UInt64>()
        merged.reserveCapacity(count)
        mergedLabels.reserveCapacity(count)
        var staying = StayingRows(objects: objects, labels: state.labels, leaving: leavingOwn, inPlaceItems: inPlaceItems, inPlaceValues: inPlaceValues)
        var stay = staying.next()
        var nextArrival = 0
        while let row = stay {
            guard nextArrival < order.count else { break }
            let arrival = order[nextArrival]
            if precedes(row, staying.label, arrivalValues[arrival], arrivalLabels[arrival]) {
                if staying.changed { own.updated.append(merged.count) }
                merged.append(row)
                mergedLabels.append(staying.label)
                stay = staying.next()
            } else {
                let source = arrivalSources[arrival]
                if source >= 0 { own.added.append((source, merged.count)) } else { own.moved.append((-1 - source, merged.count)) }
                merged.append(arrivalValues[arrival])
                mergedLabels.append(arrivalLabels[arrival])
                nextArrival += 1
            }
        }
        while let row = stay {
            if staying.changed { own.updated.append(merged.count) }
            merged.append(row)
            mergedLabels.append(staying.label)
            stay = staying.next()
        }
        while nextArrival < order.count {
            let arrival = order[nextArrival]
            let source = arrivalSources[arrival]
            if source >= 0 { own.added.append((source, merged.count)) } else { own.moved.append((-1 - source, merged.count)) }
            merged.append(arrivalValues[arrival])
            mergedLabels.append(arrivalLabels[arrival])
            nextArrival += 1
        }
        objects = RowStorage(merged)
        state = SectionState(parentLabels: parentLabels, labels: RowStorage(mergedLabels))
        return own
    }

    /// The shown rows that stay, in order: those not leaving, and the changed rows that keep
    /// their place (with their new value). ``label`` and ``changed`` describe the row last
    /// returned by ``next()``.
    private struct StayingRows {
        var objects: RowStorage<Object>.Iterator
        var labels: RowStorage<UInt64>.Iterator
        let leaving: [Int]
        let inPlaceItems: [Int]
        let inPlaceValues: ContiguousArray<Object>
        var item = 0
        var nextLeaving = 0
        var nextInPlace = 0
        var label: UInt64 = 0
        var changed = false

        init(objects: RowStorage<Object>, labels: RowStorage<UInt64>, leaving: [Int], inPlaceItems: [Int], inPlaceValues: ContiguousArray<Object>) {
            self.objects = objects.makeIterator()
            self.labels = labels.makeIterator()
            self.leaving = leaving
            self.inPlaceItems = inPlaceItems
            self.inPlaceValues = inPlaceValues
        }

        mutating func next() -> Object? {
            while let object = objects.next(), let rowLabel = labels.next() {
                let current = item
                item += 1
                label = rowLabel
                guard nextLeaving < leaving.count && leaving[nextLeaving] == current else {
                    changed = false
                    return object
                }
                nextLeaving += 1
                if nextInPlace < inPlaceItems.count && inPlaceItems[nextInPlace] == current {
                    nextInPlace += 1
                    changed = true
                    return inPlaceValues[nextInPlace - 1]
                }
            }
            return nil
        }
    }
}
