extension ChangeSet {
    /// The change that does `self` and then `next` in one batch update: `self` turns A into
    /// B, `next` turns B into C, the result turns A into C (values of inserted and updated
    /// rows read from C). `nil` when either touches sections (inserted, deleted, moved or
    /// retitled), which callers handle by diffing.
    ///
    /// Rows that either change leaves alone are left alone; a row both changes touch becomes
    /// one delete, insert, move or update. Complexity: O(k log k) for k rows in the two
    /// change sets, whatever the size of the snapshots.
    func followed(by next: ChangeSet) -> ChangeSet? {
        guard touchesOnlyRows, next.touchesOnlyRows else { return nil }
        if isEmpty { return next }
        if next.isEmpty { return self }
        if updatesOnlyRows && next.updatesOnlyRows { return mergingUpdates(of: next) }
        let first = RowSides(self)
        let second = RowSides(next)
        let inserted1 = Set(insertedRows)
        let deleted2 = Set(next.deletedRows)
        var result = ChangeSet()
        result.deletedRows = deletedRows

        /// Where a row of B came from in A (`nil`: inserted by `self`).
        func origin(_ path: RowPath) -> RowPath? {
            if let from = first.movedTo[path] { return from }
            if inserted1.contains(path) { return nil }
            let (removed, added) = first.lists(path.section)
            return RowPath(item: GapMapping.oldIndex(ofNew: path.item, removed: removed, added: added), section: path.section)
        }
        /// Where a row of B ends up in C (`nil`: deleted by `next`).
        func destination(_ path: RowPath) -> RowPath? {
            if let to = second.movedFrom[path] { return to }
            if deleted2.contains(path) { return nil }
            let (removed, added) = second.lists(path.section)
            return RowPath(item: GapMapping.newIndex(ofOld: path.item, removed: removed, added: added), section: path.section)
        }

        var touched = Set(insertedRows)
        touched.formUnion(movedRows.map(\.to))
        touched.formUnion(next.deletedRows)
        touched.formUnion(next.movedRows.map(\.from))
        for path in touched {
            switch (origin(path), destination(path)) {
            case (nil, nil): break
            case let (nil, to?): result.insertedRows.append(to)
            case let (from?, nil): result.deletedRows.append(from)
            case let (from?, to?): result.movedRows.append(RowMove(from: from, to: to))
            }
        }
        let movedIn2 = Set(next.movedRows.map(\.to))
        result.insertedRows += next.insertedRows.filter { !movedIn2.contains($0) }
        let insertedNow = Set(result.insertedRows)
        var updated = Set(next.updatedRows)
        for path in updatedRows {
            if let to = destination(path) { updated.insert(to) }
        }
        result.updatedRows = updated.filter { !insertedNow.contains($0) }
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
    /// in order. (The general composition builds maps and sets for the moves; a batch of
    /// edits composes one of these per skipped version.) O(k log k) for k updated rows.
    private func mergingUpdates(of next: ChangeSet) -> ChangeSet {
        var rows = updatedRows
        rows.append(contentsOf: next.updatedRows)
        rows.sort()
        var kept = 0
        for index in rows.indices where kept == 0 || rows[index] != rows[kept - 1] {
            rows[kept] = rows[index]
            kept += 1
        }
        rows.removeLast(rows.count - kept)
        var result = ChangeSet()
        result.updatedRows = rows
        return result
    }
}

/// The rows a change set removes (old paths) and adds (new paths), per section, sorted.
private struct RowSides {
    var removed: [Int: [Int]] = [:]
    var added: [Int: [Int]] = [:]
    /// New path of a moved row -> its old path.
    var movedTo: [RowPath: RowPath] = [:]
    /// Old path of a moved row -> its new path.
    var movedFrom: [RowPath: RowPath] = [:]

    init(_ changes: ChangeSet) {
        for path in changes.deletedRows { removed[path.section, default: []].append(path.item) }
        for path in changes.insertedRows { added[path.section, default: []].append(path.item) }
        for move in changes.movedRows {
            removed[move.from.section, default: []].append(move.from.item)
            added[move.to.section, default: []].append(move.to.item)
            movedTo[move.to] = move.from
            movedFrom[move.from] = move.to
        }
        for key in removed.keys { removed[key]!.sort() }
        for key in added.keys { added[key]!.sort() }
    }

    func lists(_ section: Int) -> (removed: [Int], added: [Int]) {
        (removed[section] ?? [], added[section] ?? [])
    }
}
