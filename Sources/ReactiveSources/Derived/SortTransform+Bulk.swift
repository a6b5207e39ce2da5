extension SortTransform {
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
            label < otherLabel ? !less(other, value) : less(value, other)
        }
        var own = OwnEdits()
        // 1. The labels of the parent rows that leave (removed: their parent item) or change
        //    (updated: -1 - their index in `edits.updated`), read in one pass.
        let updatedByOld = edits.updated.indices.sorted { edits.updated[$0].old < edits.updated[$1].old }
        var leaving = LabelTable(capacity: edits.removed.count + edits.updated.count)
        var updatedLabels = [UInt64](repeating: 0, count: edits.updated.count)
        var nextRemoved = 0
        var nextUpdated = 0
        for (item, label) in state.parentLabels.enumerated() {
            if nextRemoved < edits.removed.count && edits.removed[nextRemoved] == item {
                leaving.set(item, for: RowLabel(section: 0, value: label))
                nextRemoved += 1
            } else if nextUpdated < updatedByOld.count && edits.updated[updatedByOld[nextUpdated]].old == item {
                leaving.set(-1 - updatedByOld[nextUpdated], for: RowLabel(section: 0, value: label))
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
            if let tag = leaving.tag(of: RowLabel(section: 0, value: label)) {
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
            arrivalValues.append(contentsOf: loops.gather([new], edits.added.map { RowPath(item: $0, section: 0) }))
            arrivalLabels.append(contentsOf: made)
            arrivalSources.append(contentsOf: edits.added)
        }
        // By label first (they ascend already unless changed rows move), then stably by
        // `less`: the order is (value, label), total since labels are unique.
        var order = Array(arrivalValues.indices)
        if zip(arrivalLabels, arrivalLabels.dropFirst()).contains(where: { $0 >= $1 }) {
            order.sort { arrivalLabels[$0] < arrivalLabels[$1] }
        }
        _ = arrivalValues.withUnsafeBufferPointer { values in loops.sort(less, values, &order) }
        // 4. Merge the rows that stay (in order) with the arriving ones; the rows changed in
        //    place leave and come back at the same position.
        var leavingOnly: [Int] = []
        leavingOnly.reserveCapacity(leavingOwn.count - inPlaceItems.count)
        var nextInPlace = 0
        for item in leavingOwn {
            if nextInPlace < inPlaceItems.count && inPlaceItems[nextInPlace] == item { nextInPlace += 1 } else { leavingOnly.append(item) }
        }
        let merged = loops.mergeSorted(
            objects, state.labels, leavingOnly, inPlaceItems, inPlaceValues,
            arrivalValues, arrivalLabels, order, less
        )
        own.updated = merged.updatedPositions
        for (index, position) in merged.arrivalPositions.enumerated() {
            let source = arrivalSources[order[index]]
            if source >= 0 { own.added.append((source, position)) } else { own.moved.append((-1 - source, position)) }
        }
        objects = merged.objects
        state = SectionState(parentLabels: parentLabels, labels: RowStorage(merged.labels))
        return own
    }
}
