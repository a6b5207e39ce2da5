extension ChangeSet {
    /// The change that does `self` and then `next` in one batch update: `self` turns A into
    /// B, `next` turns B into C, the result turns A into C (values of inserted and updated
    /// rows read from C). `nil` when either touches sections (inserted, deleted, moved or
    /// retitled), which callers handle by diffing.
    ///
    /// Rows that either change leaves alone are left alone; a row both changes touch becomes
    /// one delete, insert, move or update. Complexity: O(k log k) for k rows in the two
    /// change sets, whatever the size of the snapshots. (Sorted arrays and binary searches,
    /// no hashing: a batch composes one of these per skipped version, and sets and
    /// dictionaries made it most of a small batch's cost.)
    func followed(by next: ChangeSet) -> ChangeSet? {
        guard touchesOnlyRows, next.touchesOnlyRows else { return nil }
        if isEmpty { return next }
        if next.isEmpty { return self }
        if updatesOnlyRows && next.updatesOnlyRows { return mergingUpdates(of: next) }
        let first = RowSides(self)
        let second = RowSides(next)
        let inserted1 = insertedRows.sortedUnique()
        let deleted2 = next.deletedRows.sortedUnique()
        var result = ChangeSet()
        result.deletedRows = deletedRows

        /// Where a row of B came from in A (`nil`: inserted by `self`).
        func origin(_ path: RowPath) -> RowPath? {
            if let from = first.source(ofNew: path) { return from }
            if inserted1.sortedContains(path) { return nil }
            return first.oldPath(ofNew: path)
        }
        /// Where a row of B ends up in C (`nil`: deleted by `next`).
        func destination(_ path: RowPath) -> RowPath? {
            if let to = second.target(ofOld: path) { return to }
            if deleted2.sortedContains(path) { return nil }
            return second.newPath(ofOld: path)
        }

        var touched = insertedRows
        touched.append(contentsOf: movedRows.lazy.map(\.to))
        touched.append(contentsOf: next.deletedRows)
        touched.append(contentsOf: next.movedRows.lazy.map(\.from))
        for path in touched.sortedUnique() {
            switch (origin(path), destination(path)) {
            case (nil, nil): break
            case let (nil, to?): result.insertedRows.append(to)
            case let (from?, nil): result.deletedRows.append(from)
            case let (from?, to?): result.movedRows.append(RowMove(from: from, to: to))
            }
        }
        let movedIn2 = next.movedRows.map(\.to).sortedUnique()
        result.insertedRows += next.insertedRows.filter { !movedIn2.sortedContains($0) }
        let insertedNow = result.insertedRows.sortedUnique()
        var updated = next.updatedRows
        for path in updatedRows {
            if let to = destination(path) { updated.append(to) }
        }
        result.updatedRows = updated.sortedUnique().filter { !insertedNow.sortedContains($0) }
        result.normalize()
        result.movedRows.sort { $0.to < $1.to }
        return result
    }
}

extension ChangeSet {
    /// Whether this change only updates rows in place (nothing inserted, deleted or moved).
    var updatesOnlyRows: Bool {
        touchesOnlyRows && deletedRows.isEmpty && insertedRows.isEmpty && movedRows.isEmpty
    }

    /// `followed(by:)` of two changes that only update rows: every row either updates, once,
    /// in order. O(k log k) for k updated rows.
    private func mergingUpdates(of next: ChangeSet) -> ChangeSet {
        var rows = updatedRows
        rows.append(contentsOf: next.updatedRows)
        var result = ChangeSet()
        result.updatedRows = rows.sortedUnique()
        return result
    }
}

/// The rows a change set removes (old paths) and adds (new paths), per section, sorted, and
/// its moves sorted both ways, for binary searches.
private struct RowSides {
    /// Sections with removed or added rows, ascending.
    var sections: [Int] = []
    /// Per entry of `sections`: removed items (old indexes), ascending.
    var removed: [[Int]] = []
    /// Per entry of `sections`: added items (new indexes), ascending.
    var added: [[Int]] = []
    /// Moves by their new path.
    var movesByTarget: [ChangeSet.RowMove]
    /// Moves by their old path.
    var movesBySource: [ChangeSet.RowMove]

    init(_ changes: ChangeSet) {
        var removedPaths = changes.deletedRows
        removedPaths.append(contentsOf: changes.movedRows.lazy.map(\.from))
        var addedPaths = changes.insertedRows
        addedPaths.append(contentsOf: changes.movedRows.lazy.map(\.to))
        removedPaths.sort()
        addedPaths.sort()
        var sections = removedPaths.map(\.section)
        sections.append(contentsOf: addedPaths.lazy.map(\.section))
        self.sections = sections.sortedUnique()
        removed = Array(repeating: [], count: self.sections.count)
        added = Array(repeating: [], count: self.sections.count)
        var slot = 0
        for path in removedPaths {
            while self.sections[slot] < path.section { slot += 1 }
            removed[slot].append(path.item)
        }
        slot = 0
        for path in addedPaths {
            while self.sections[slot] < path.section { slot += 1 }
            added[slot].append(path.item)
        }
        movesByTarget = changes.movedRows.sorted { $0.to < $1.to }
        movesBySource = changes.movedRows.sorted { $0.from < $1.from }
    }

    /// The old path of the row moved to `path`, if one was.
    func source(ofNew path: RowPath) -> RowPath? {
        let index = movesByTarget.partitionIndex { $0.to < path }
        return index < movesByTarget.count && movesByTarget[index].to == path ? movesByTarget[index].from : nil
    }

    /// The new path of the row moved from `path`, if one was.
    func target(ofOld path: RowPath) -> RowPath? {
        let index = movesBySource.partitionIndex { $0.from < path }
        return index < movesBySource.count && movesBySource[index].from == path ? movesBySource[index].to : nil
    }

    /// The old path of the row at new path `path`, which this change neither inserted nor moved.
    func oldPath(ofNew path: RowPath) -> RowPath {
        guard let slot = slot(path.section) else { return path }
        return RowPath(item: GapMapping.oldIndex(ofNew: path.item, removed: removed[slot], added: added[slot]), section: path.section)
    }

    /// The new path of the row at old path `path`, which this change neither removed nor moved.
    func newPath(ofOld path: RowPath) -> RowPath {
        guard let slot = slot(path.section) else { return path }
        return RowPath(item: GapMapping.newIndex(ofOld: path.item, removed: removed[slot], added: added[slot]), section: path.section)
    }

    private func slot(_ section: Int) -> Int? {
        let index = sections.partitionIndex { $0 < section }
        return index < sections.count && sections[index] == section ? index : nil
    }
}

fileprivate extension Array where Element: Comparable {
    /// The elements sorted, each once. O(n log n).
    func sortedUnique() -> [Element] {
        var rows = sorted()
        var kept = 0
        for index in rows.indices where kept == 0 || rows[index] != rows[kept - 1] {
            rows[kept] = rows[index]
            kept += 1
        }
        rows.removeLast(rows.count - kept)
        return rows
    }

    /// Whether this ascending array holds `element`. O(log n).
    func sortedContains(_ element: Element) -> Bool {
        let index = partitionIndex { $0 < element }
        return index < count && self[index] == element
    }
}

fileprivate extension Array {
    /// The first index whose element is not `isBefore` (the elements that are come first).
    /// O(log n).
    func partitionIndex(_ isBefore: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
