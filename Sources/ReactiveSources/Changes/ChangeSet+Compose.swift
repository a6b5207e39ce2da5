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
    /// Maps paths after this change (which touches only rows) to paths before it: the old
    /// path of the row at each new path, `nil` for a row this change inserted. Building it
    /// costs O(k log k) for k rows in the change set, each call O(log k); for a change of
    /// at most one inserted, deleted or moved row (a source's single edit), O(1) and nothing
    /// allocated.
    func oldPathMap() -> (RowPath) -> RowPath? {
        let structural = insertedRows.count + deletedRows.count + movedRows.count
        if structural == 0 { return { $0 } }
        if structural == 1 {
            let move = movedRows.first
            let inserted = insertedRows.first
            let added = inserted ?? move?.to
            let removed = deletedRows.first ?? move?.from
            return { path in
                if let move, path == move.to { return move.from }
                if let inserted, path == inserted { return nil }
                var item = path.item
                if let added, added.section == path.section, added.item < path.item { item -= 1 }
                if let removed, removed.section == path.section, removed.item <= item { item += 1 }
                return RowPath(item: item, section: path.section)
            }
        }
        let sides = RowSides(self)
        let inserted = insertedRows.sortedUnique()
        return { path in
            if let from = sides.source(ofNew: path) { return from }
            if inserted.sortedContains(path) { return nil }
            return sides.oldPath(ofNew: path)
        }
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

/// The rows a change set removes (old paths) and adds (new paths), sorted, and its moves
/// sorted both ways, for binary searches.
private struct RowSides {
    /// Old paths of the rows deleted or moved away, ascending.
    var removed: [RowPath]
    /// New paths of the rows inserted or moved here, ascending.
    var added: [RowPath]
    /// Moves by their new path.
    var movesByTarget: [ChangeSet.RowMove] = []
    /// Moves by their old path.
    var movesBySource: [ChangeSet.RowMove] = []

    init(_ changes: ChangeSet) {
        removed = changes.deletedRows
        added = changes.insertedRows
        if !changes.movedRows.isEmpty {
            removed.reserveCapacity(removed.count + changes.movedRows.count)
            added.reserveCapacity(added.count + changes.movedRows.count)
            for move in changes.movedRows {
                removed.append(move.from)
                added.append(move.to)
            }
            movesByTarget = changes.movedRows.sorted { $0.to < $1.to }
            movesBySource = changes.movedRows.sorted { $0.from < $1.from }
        }
        removed.sortIfNeeded()
        added.sortIfNeeded()
    }

    /// The old path of the row moved to `path`, if one was.
    func source(ofNew path: RowPath) -> RowPath? {
        let index = movesByTarget.partitioningIndex { $0.to >= path }
        return index < movesByTarget.count && movesByTarget[index].to == path ? movesByTarget[index].from : nil
    }

    /// The new path of the row moved from `path`, if one was.
    func target(ofOld path: RowPath) -> RowPath? {
        let index = movesBySource.partitioningIndex { $0.from >= path }
        return index < movesBySource.count && movesBySource[index].from == path ? movesBySource[index].to : nil
    }

    /// The old path of the row at new path `path`, which this change neither inserted nor moved.
    func oldPath(ofNew path: RowPath) -> RowPath {
        let rank = path.item - Self.countBefore(path, in: added)
        return RowPath(item: Self.position(ofRank: rank, in: path.section, skipping: removed), section: path.section)
    }

    /// The new path of the row at old path `path`, which this change neither removed nor moved.
    func newPath(ofOld path: RowPath) -> RowPath {
        let rank = path.item - Self.countBefore(path, in: removed)
        return RowPath(item: Self.position(ofRank: rank, in: path.section, skipping: added), section: path.section)
    }

    /// How many paths of the ascending `list` are in `path`'s section before it.
    private static func countBefore(_ path: RowPath, in list: [RowPath]) -> Int {
        list.partitioningIndex { $0 >= path } - list.partitioningIndex { $0.section >= path.section }
    }

    /// The `rank`-th (0-based) item of `section` not taken by the ascending `taken`
    /// (`GapMapping.position(ofRank:skipping:)` on the section's part of the list).
    private static func position(ofRank rank: Int, in section: Int, skipping taken: [RowPath]) -> Int {
        let first = taken.partitioningIndex { $0.section >= section }
        let end = taken.partitioningIndex { $0.section > section }
        // taken[first + i].item - i does not decrease: count the taken items before the answer.
        return rank + (0..<(end - first)).partitioningIndex { taken[first + $0].item - $0 > rank }
    }
}
