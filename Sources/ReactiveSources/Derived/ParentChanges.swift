/// A parent's change set read the way a derived source that keeps one section per parent
/// section follows it: the section layout, then, for every section that survives, the object
/// rows it lost, gained and changed in place. Placeholder rows are left out (a derived
/// source mirrors its parent's placeholders itself).
///
/// Complexity: O(k log k) for a change set of k entries, independent of the rows unchanged.
struct ParentChanges {
    /// For each new section index: the old index it comes from, or `nil` if inserted.
    var sources: [Int?]
    /// Old indexes of the parent's deleted sections, and of its moved ones.
    var deletedSections: [Int]
    var movedSections: Set<Int>
    /// For each new section index of a surviving section: its row edits.
    var rows: [Int: Edits] = [:]
    /// The parent's row moves (object rows only), old and new paths.
    var moves: [(from: RowPath, to: RowPath)] = []
    /// The new paths of parent rows that were both moved and updated.
    var movedAndUpdated: Set<RowPath> = []

    /// One surviving section's object-row edits, in the parent's indexes.
    struct Edits {
        /// Old items deleted or moved out, ascending.
        var removed: [Int] = []
        /// New items inserted or moved in, ascending.
        var added: [Int] = []
        /// Rows updated in place (not moved): old and new item.
        var updated: [(old: Int, new: Int)] = []
    }

    /// Reads `changes`, which turns `old` into `new`; `nil` when it does not fit them.
    init?<Object>(_ changes: ChangeSet, old: Snapshot<Object>, new: Snapshot<Object>) {
        guard let layout = SectionLayout(
            oldCount: old.sections.count, deleted: changes.deletedSections,
            inserted: changes.insertedSections, moved: changes.movedSections.map { ($0.from, $0.to) }
        ), layout.sources.count == new.sections.count else { return nil }
        sources = layout.sources
        deletedSections = changes.deletedSections
        movedSections = Set(changes.movedSections.map(\.from))
        let oldToNew = layout.oldToNew
        func isObject(_ path: RowPath, in snapshot: Snapshot<Object>) -> Bool {
            snapshot.sections.indices.contains(path.section) && path.item >= 0
                && path.item < snapshot.sections[path.section].objects.count
        }
        func isPlaceholder(_ path: RowPath, in snapshot: Snapshot<Object>) -> Bool {
            snapshot.sections.indices.contains(path.section) && snapshot.sections[path.section].placeholder != nil
                && path.item == snapshot.sections[path.section].objects.count
        }
        for path in changes.deletedRows {
            if isPlaceholder(path, in: old) { continue }
            guard isObject(path, in: old), oldToNew[path.section] >= 0 else { return nil }
            rows[oldToNew[path.section], default: Edits()].removed.append(path.item)
        }
        for path in changes.insertedRows {
            if isPlaceholder(path, in: new) { continue }
            guard isObject(path, in: new), layout.sources[path.section] != nil else { return nil }
            rows[path.section, default: Edits()].added.append(path.item)
        }
        var movedTo = Set<RowPath>()
        for move in changes.movedRows {
            guard isObject(move.from, in: old), isObject(move.to, in: new),
                  oldToNew[move.from.section] >= 0, layout.sources[move.to.section] != nil else { return nil }
            rows[oldToNew[move.from.section], default: Edits()].removed.append(move.from.item)
            rows[move.to.section, default: Edits()].added.append(move.to.item)
            moves.append((move.from, move.to))
            movedTo.insert(move.to)
        }
        for key in rows.keys {
            rows[key]!.removed.sort()
            rows[key]!.added.sort()
        }
        for path in changes.updatedRows {
            if isPlaceholder(path, in: new) { continue }
            guard isObject(path, in: new), let oldSection = layout.sources[path.section] else { return nil }
            if movedTo.contains(path) {
                movedAndUpdated.insert(path)
                continue
            }
            var edits = rows[path.section] ?? Edits()
            let oldItem = GapMapping.oldIndex(ofNew: path.item, removed: edits.removed, added: edits.added)
            guard oldItem < old.sections[oldSection].objects.count else { return nil }
            edits.updated.append((oldItem, path.item))
            rows[path.section] = edits
        }
    }
}
