import ReactiveSources

/// Checks change sets against the rules UIKit's `performBatchUpdates` enforces, so tests
/// (the package's and yours) catch a change set a table or collection view would reject.
///
/// The rules: deleted sections and rows, and the sources of moves, are valid indexes of the
/// old snapshot, inserted ones and the destinations of moves valid indexes of the new one;
/// no index is used twice on a side; no row change inside a deleted or inserted section; a
/// moved row is not also deleted or inserted; the section count and every surviving
/// section's row count add up; updated rows and retitled sections are valid indexes of the
/// new snapshot (they are applied after the batch). And the staging rule: no section move in
/// the same batch as row deletes, inserts or moves in a moved section (apply
/// ``ReactiveSources/ChangeSet/stages(from:to:)`` instead).
public enum BatchUpdateValidator {
    /// What `changes`, applied in one batch to `old`, breaks on the way to `new`; empty when
    /// it is valid. Each entry is a sentence naming the index. O(n) in the snapshots' sizes.
    public static func violations<Object>(of changes: ChangeSet, from old: Snapshot<Object>, to new: Snapshot<Object>) -> [String] {
        var problems: [String] = []
        let oldCount = old.numberOfSections
        let newCount = new.numberOfSections
        func unique(_ values: [Int], _ what: String) {
            var seen = Set<Int>()
            for value in values where !seen.insert(value).inserted { problems.append("\(what) \(value) is listed twice") }
        }
        let deleted = Set(changes.deletedSections)
        let inserted = Set(changes.insertedSections)
        let movedFrom = changes.movedSections.map(\.from)
        let movedTo = changes.movedSections.map(\.to)
        for index in changes.deletedSections where !(0..<oldCount).contains(index) { problems.append("deleted section \(index) is not in the old snapshot") }
        for index in changes.insertedSections where !(0..<newCount).contains(index) { problems.append("inserted section \(index) is not in the new snapshot") }
        for move in changes.movedSections {
            if !(0..<oldCount).contains(move.from) { problems.append("section move from \(move.from) is not in the old snapshot") }
            if !(0..<newCount).contains(move.to) { problems.append("section move to \(move.to) is not in the new snapshot") }
            if deleted.contains(move.from) { problems.append("section \(move.from) is both deleted and moved") }
            if inserted.contains(move.to) { problems.append("section \(move.to) is both inserted and a move's destination") }
        }
        unique(changes.deletedSections + movedFrom, "old section")
        unique(changes.insertedSections + movedTo, "new section")
        if oldCount - changes.deletedSections.count + changes.insertedSections.count != newCount {
            problems.append("\(oldCount) sections - \(changes.deletedSections.count) deleted + \(changes.insertedSections.count) inserted is not \(newCount)")
        }
        // Where each section goes: moved as listed, the others in order into the free slots.
        var oldToNew = Array(repeating: -1, count: max(oldCount, 0))
        var taken = Set(changes.insertedSections + movedTo)
        for move in changes.movedSections where oldToNew.indices.contains(move.from) { oldToNew[move.from] = move.to }
        var slot = 0
        for index in 0..<oldCount where !deleted.contains(index) && !movedFrom.contains(index) {
            while taken.contains(slot) { slot += 1 }
            oldToNew[index] = slot
            taken.insert(slot)
        }
        var rowDelta = [Int: Int]()
        var oldRows = Set<RowPath>()
        var newRows = Set<RowPath>()
        func checkOld(_ path: RowPath, _ what: String) {
            if !(0..<oldCount).contains(path.section) || !(0..<old.numberOfRows(inSection: path.section)).contains(path.item) {
                problems.append("\(what) \(path) is not a row of the old snapshot")
            } else if deleted.contains(path.section) {
                problems.append("\(what) \(path) is inside a deleted section")
            } else {
                rowDelta[oldToNew[path.section], default: 0] -= 1
            }
            if !oldRows.insert(path).inserted { problems.append("old row \(path) is used twice") }
        }
        func checkNew(_ path: RowPath, _ what: String) {
            if !(0..<newCount).contains(path.section) || !(0..<new.numberOfRows(inSection: path.section)).contains(path.item) {
                problems.append("\(what) \(path) is not a row of the new snapshot")
            } else if inserted.contains(path.section) {
                problems.append("\(what) \(path) is inside an inserted section")
            } else {
                rowDelta[path.section, default: 0] += 1
            }
            if !newRows.insert(path).inserted { problems.append("new row \(path) is used twice") }
        }
        for path in changes.deletedRows { checkOld(path, "deleted row") }
        for path in changes.insertedRows { checkNew(path, "inserted row") }
        for move in changes.movedRows {
            checkOld(move.from, "moved row")
            checkNew(move.to, "move destination")
        }
        for index in 0..<oldCount where oldToNew[index] >= 0 && oldToNew[index] < newCount && !deleted.contains(index) {
            let expected = old.numberOfRows(inSection: index) + (rowDelta[oldToNew[index]] ?? 0)
            let actual = new.numberOfRows(inSection: oldToNew[index])
            if expected != actual {
                problems.append("section \(index) -> \(oldToNew[index]): \(old.numberOfRows(inSection: index)) rows and the changes give \(expected), the new snapshot has \(actual)")
            }
        }
        var updated = Set<RowPath>()
        for path in changes.updatedRows {
            if !(0..<newCount).contains(path.section) || !(0..<new.numberOfRows(inSection: path.section)).contains(path.item) {
                problems.append("updated row \(path) is not a row of the new snapshot")
            }
            if !updated.insert(path).inserted { problems.append("updated row \(path) is listed twice") }
        }
        for index in changes.retitledSections where !(0..<newCount).contains(index) || inserted.contains(index) {
            problems.append("retitled section \(index) is not a surviving section of the new snapshot")
        }
        if changes.needsStaging { problems.append("section moves share a batch with row changes in moved sections: apply stages(from:to:)") }
        return problems
    }

    /// The violations of each stage of `changes.stages(from: old, to: new)`, prefixed by the
    /// stage's number; empty when every stage is valid.
    public static func stagedViolations<Object>(of changes: ChangeSet, from old: Snapshot<Object>, to new: Snapshot<Object>) -> [String] {
        var previous = old
        var problems: [String] = []
        for (number, stage) in changes.stages(from: old, to: new).enumerated() {
            problems += violations(of: stage.changes, from: previous, to: stage.snapshot).map { "stage \(number + 1): \($0)" }
            previous = stage.snapshot
        }
        return problems
    }
}
