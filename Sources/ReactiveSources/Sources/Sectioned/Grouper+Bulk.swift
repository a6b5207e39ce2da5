extension Grouper {
    /// The arriving rows, as parallel arrays (the objects are gathered by compiled code:
    /// copying them one by one here would cost a runtime metadata lookup each).
    struct Arrivals {
        var objects = ContiguousArray<Object>()
        var labels: [RowLabel] = []
        /// The departure each pairs with (a parent move, or a changed row that may move), or -1.
        var departures: [Int] = []
        /// The arrivals of each keyed section (indexes into the arrays above).
        var bySection: [[Int]]
    }

    /// Follows parent edits that touch many rows without searching for any: the rows that
    /// leave are found by label in one pass over the sections (a merge walk of each section
    /// they leave, or, with an object order, a table of their labels), and each touched section is
    /// merged with its arriving rows (sorted by label, or by the object order then label).
    /// O(n + k log k). `nil` (nothing changed) when a section would appear, empty or move,
    /// a leaving row is not found, or a gap has no room for its labels.
    func followInBulk(
        _ edits: ParentChanges, from old: Snapshot<Object>, to new: Snapshot<Object>, own: Snapshot<Object>
    ) -> (Snapshot<Object>, ChangeSet)? {
        // 1. The parent rows that leave or change, by label: -1 removed, -2 - i changed in
        //    place (`inPlace` i), d >= 0 a departure that pairs with an arrival. Without an
        //    object order a section's rows are in label order, so each leaving row is routed
        //    to its section (by its key) and found by walking that section (step 3); with
        //    one, through a table of the leaving labels.
        let walksSections = objectOrder == nil
        var leaving = LabelTable(capacity: walksSections ? 0 : edits.rows.values.reduce(0) { $0 + $1.removed.count + $1.updated.count })
        var leavingIn = [[(label: RowLabel, tag: Int)]](repeating: [], count: walksSections ? keys.count : 0)
        var leavingCount = 0
        func leave(_ label: RowLabel, tag: Int, section: Int?) -> Bool {
            leavingCount += 1
            guard walksSections else {
                leaving.set(tag, for: label)
                return true
            }
            guard let section, section >= 0 else { return false }
            leavingIn[section].append((label, tag))
            return true
        }
        var departureIsUpdate: [Bool] = []
        var departureOfMove: [RowPath: Int] = [:]
        let movedFrom = Set(edits.moves.map(\.from))
        var inPlace = ContiguousArray<Object>()
        var arrivals = Arrivals(bySection: Array(repeating: [], count: keys.count))
        let sections = edits.rows.keys.sorted()
        for section in sections {
            let sectionEdits = edits.rows[section]!
            let updatedByOld = sectionEdits.updated.sorted { $0.old < $1.old }
            let oldObjects = old.sections[section].objects
            let newObjects = new.sections[section].objects
            let removedSections = walksSections ? keyLoops.sections(oldObjects, sectionEdits.removed, keyIndex) : []
            var nextRemoved = 0
            var nextUpdated = 0
            for (item, value) in parentLabels[section].enumerated() {
                let label = RowLabel(section: section, value: value)
                if nextRemoved < sectionEdits.removed.count && sectionEdits.removed[nextRemoved] == item {
                    let ownSection = walksSections ? removedSections[nextRemoved] : nil
                    nextRemoved += 1
                    let path = RowPath(item: item, section: section)
                    if !movedFrom.isEmpty && movedFrom.contains(path) {
                        departureOfMove[path] = departureIsUpdate.count
                        guard leave(label, tag: departureIsUpdate.count, section: ownSection) else { return nil }
                        departureIsUpdate.append(false)
                    } else {
                        guard leave(label, tag: -1, section: ownSection) else { return nil }
                    }
                } else if nextUpdated < updatedByOld.count && updatedByOld[nextUpdated].old == item {
                    let after = newObjects[updatedByOld[nextUpdated].new]
                    let oldKey = key(oldObjects[item])
                    let newKey = key(after)
                    nextUpdated += 1
                    if walksSections && oldKey == newKey {
                        guard leave(label, tag: -2 - inPlace.count, section: keyIndex[newKey]) else { return nil }
                        inPlace.append(after)
                    } else {
                        // A new key is a layout change, left to the other paths.
                        guard let target = keyIndex[newKey],
                              leave(label, tag: departureIsUpdate.count, section: walksSections ? keyIndex[oldKey] : nil) else { return nil }
                        arrivals.append(after, label, departure: departureIsUpdate.count, section: target)
                        departureIsUpdate.append(true)
                    }
                }
                if nextRemoved == sectionEdits.removed.count && nextUpdated == updatedByOld.count { break }
            }
            guard nextRemoved == sectionEdits.removed.count && nextUpdated == updatedByOld.count else { return nil }
        }
        // 2. The parent's labels follow its edits; the added rows arrive in their sections.
        var arrivalOfMove: [RowPath: RowPath] = [:]
        for move in edits.moves { arrivalOfMove[move.to] = move.from }
        var newParentLabels = parentLabels
        for section in sections {
            let added = edits.rows[section]!.added
            let removed = edits.rows[section]!.removed
            guard !added.isEmpty || !removed.isEmpty else { continue }
            guard let (sectionLabels, made) = OrderLabels.followInBulk(parentLabels[section], removed: removed, added: added) else { return nil }
            newParentLabels[section] = sectionLabels
            guard !added.isEmpty else { continue }
            let first = arrivals.labels.count
            arrivals.objects.append(contentsOf: loops.gather([new.sections[section].objects], added.map { RowPath(item: $0, section: 0) }))
            for (next, item) in added.enumerated() {
                let path = RowPath(item: item, section: section)
                var departure = -1
                if !arrivalOfMove.isEmpty, let from = arrivalOfMove[path], let paired = departureOfMove[from] {
                    departure = paired
                    departureIsUpdate[paired] = edits.movedAndUpdated.contains(path)
                }
                // A new key is a layout change, left to the other paths.
                guard let target = keyIndex[key(arrivals.objects[first + next])] else { return nil }
                arrivals.labels.append(RowLabel(section: section, value: made[next]))
                arrivals.departures.append(departure)
                arrivals.bySection[target].append(first + next)
            }
        }
        // 3. Where the leaving rows are shown: one pass over the sections' labels.
        var leavingPositions = [[Int]](repeating: [], count: keys.count)
        var inPlacePositions = [[(position: Int, index: Int)]](repeating: [], count: keys.count)
        var departurePaths = [RowPath?](repeating: nil, count: departureIsUpdate.count)
        func record(_ tag: Int, at position: Int, section index: Int) {
            if tag <= -2 {
                inPlacePositions[index].append((position, -2 - tag))
            } else {
                leavingPositions[index].append(position)
                if tag >= 0 { departurePaths[tag] = RowPath(item: position, section: index) }
            }
        }
        var found = 0
        for (index, sectionKey) in keys.enumerated() where found < leavingCount {
            if walksSections {
                // The section's labels and its leaving ones both ascend: one merge walk.
                let wanted = leavingIn[index]
                guard !wanted.isEmpty else { continue }
                var next = 0
                var position = 0
                for label in labels[sectionKey]! {
                    if label == wanted[next].label {
                        record(wanted[next].tag, at: position, section: index)
                        next += 1
                        if next == wanted.count { break }
                    }
                    position += 1
                }
                guard next == wanted.count else { return nil }
                found += next
            } else {
                var position = 0
                for label in labels[sectionKey]! {
                    if found == leavingCount { break }
                    if let tag = leaving.tag(of: label) {
                        found += 1
                        record(tag, at: position, section: index)
                    }
                    position += 1
                }
            }
        }
        guard found == leavingCount else { return nil }
        // 4. Merge each touched section's staying rows with its arrivals.
        var result = ChangeSet()
        var sectionsOut = own.sections
        var newLabels = labels
        var newSmallest = smallestLabels
        var arrivalPaths = [RowPath?](repeating: nil, count: departureIsUpdate.count)
        for (index, sectionKey) in keys.enumerated() {
            let sectionArrivals = arrivals.bySection[index]
            guard !sectionArrivals.isEmpty || !leavingPositions[index].isEmpty || !inPlacePositions[index].isEmpty else { continue }
            let order = objectOrder == nil ? arrivals.order(sectionArrivals, by: nil) : arrivals.order(sectionArrivals, by: precedes)
            let changed = inPlacePositions[index].sorted { $0.position < $1.position }
            let merged = loops.mergeGrouped(
                own.sections[index].objects, labels[sectionKey]!, leavingPositions[index], changed.map(\.position),
                ContiguousArray(changed.lazy.map { inPlace[$0.index] }), arrivals.objects, arrivals.labels, order, objectOrder
            )
            guard !merged.objects.isEmpty else { return nil }
            for position in leavingPositions[index] { result.deletedRows.append(RowPath(item: position, section: index)) }
            for (rank, position) in merged.arrivalPositions.enumerated() {
                let departure = arrivals.departures[order[rank]]
                if departure >= 0 { arrivalPaths[departure] = RowPath(item: position, section: index) } else {
                    result.insertedRows.append(RowPath(item: position, section: index))
                }
            }
            result.updatedRows.append(contentsOf: merged.updatedPositions.lazy.map { RowPath(item: $0, section: index) })
            sectionsOut[index].objects = merged.objects
            newLabels[sectionKey] = RowStorage(merged.labels)
            if objectOrder != nil { newSmallest[sectionKey] = merged.labels.min() }
        }
        // A moved row is deleted and inserted above; report it as a move (and an update).
        var movedOut = Set<RowPath>()
        for (departure, from) in departurePaths.enumerated() {
            guard let from, let to = arrivalPaths[departure] else { continue }
            movedOut.insert(from)
            result.movedRows.append(.init(from: from, to: to))
            if departureIsUpdate[departure] { result.updatedRows.append(to) }
        }
        if !movedOut.isEmpty { result.deletedRows.removeAll { movedOut.contains($0) } }
        for (departure, to) in arrivalPaths.enumerated() where to != nil && departurePaths[departure] == nil {
            result.insertedRows.append(to!)
        }
        // 5. Sections keep their places, or this path gives way (nothing is changed then).
        let saved = (labels, smallestLabels)
        labels = newLabels
        smallestLabels = newSmallest
        guard keys.allSatisfy({ keepsItsPlace($0) }) else {
            (labels, smallestLabels) = saved
            return nil
        }
        parentLabels = newParentLabels
        result.normalize()
        result.movedRows.sort { $0.to < $1.to }
        return (Snapshot(sections: sectionsOut), result)
    }
}

extension Grouper.Arrivals {
    mutating func append(_ object: Object, _ label: RowLabel, departure: Int, section: Int) {
        bySection[section].append(labels.count)
        objects.append(object)
        labels.append(label)
        departures.append(departure)
    }

    /// The arrivals `indexes` sorted by `precedes`, or by label alone (reading no object)
    /// when `precedes` is `nil`. O(k) when already in that order, else O(k log k) comparisons.
    func order(_ indexes: [Int], by precedes: ((Object, RowLabel, Object, RowLabel) -> Bool)?) -> [Int] {
        let labels = self.labels
        guard let precedes else {
            if zip(indexes, indexes.dropFirst()).allSatisfy({ labels[$0] < labels[$1] }) { return indexes }
            return indexes.sorted { labels[$0] < labels[$1] }
        }
        return objects.withUnsafeBufferPointer { values in
            func isBefore(_ a: Int, _ b: Int) -> Bool { precedes(values[a], labels[a], values[b], labels[b]) }
            if zip(indexes, indexes.dropFirst()).allSatisfy({ isBefore($0, $1) }) { return indexes }
            return indexes.sorted(by: isBefore)
        }
    }
}
