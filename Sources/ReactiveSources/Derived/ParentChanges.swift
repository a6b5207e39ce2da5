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

    /// Reads `changes`, which turns `old` into `new`; `nil` when it does not fit them (an
    /// index out of range, a row updated twice, or updated and inserted).
    init?<Object>(_ changes: ChangeSet, old: Snapshot<Object>, new: Snapshot<Object>) {
        self.init(changes, oldShapes: Self.shapes(old), new: new)
    }

    /// Per section of `snapshot`, read once (reading a section per row copies it, and costs a
    /// runtime metadata lookup in this generic code): its object count, times 2, plus 1 if it
    /// ends with a placeholder row. O(sections).
    static func shapes<Object>(_ snapshot: Snapshot<Object>) -> [Int] {
        var shapes: [Int] = []
        shapes.reserveCapacity(snapshot.sections.count)
        for section in snapshot.sections { shapes.append(section.objects.count * 2 + (section.placeholder == nil ? 0 : 1)) }
        return shapes
    }

    /// As ``init(_:old:new:)``, given only the old snapshot's ``shapes(_:)``.
    init?<Object>(_ changes: ChangeSet, oldShapes: [Int], new: Snapshot<Object>) {
        guard let layout = SectionLayout(
            oldCount: oldShapes.count, deleted: changes.deletedSections,
            inserted: changes.insertedSections, moved: changes.movedSections.map { ($0.from, $0.to) }
        ), layout.sources.count == new.sections.count else { return nil }
        sources = layout.sources
        deletedSections = changes.deletedSections
        movedSections = Set(changes.movedSections.map(\.from))
        let oldToNew = layout.oldToNew
        let newShapes = Self.shapes(new)
        func isObject(_ path: RowPath, in shapes: [Int]) -> Bool {
            shapes.indices.contains(path.section) && path.item >= 0 && path.item < shapes[path.section] / 2
        }
        func isPlaceholder(_ path: RowPath, in shapes: [Int]) -> Bool {
            shapes.indices.contains(path.section) && shapes[path.section] & 1 == 1 && path.item == shapes[path.section] / 2
        }
        // Rows come sorted by section (normalised change sets), so each section's run of
        // items is collected in a local array and stored once.
        var section = -1
        var items: [Int] = []
        func flush(removed: Bool, into rows: inout [Int: Edits]) {
            guard section >= 0, !items.isEmpty else { return }
            if removed { rows[section, default: Edits()].removed.append(contentsOf: items) } else { rows[section, default: Edits()].added.append(contentsOf: items) }
            items.removeAll(keepingCapacity: true)
        }
        for path in changes.deletedRows {
            if isPlaceholder(path, in: oldShapes) { continue }
            guard isObject(path, in: oldShapes), oldToNew[path.section] >= 0 else { return nil }
            if oldToNew[path.section] != section {
                flush(removed: true, into: &rows)
                section = oldToNew[path.section]
            }
            items.append(path.item)
        }
        flush(removed: true, into: &rows)
        section = -1
        for path in changes.insertedRows {
            if isPlaceholder(path, in: newShapes) { continue }
            guard isObject(path, in: newShapes), layout.sources[path.section] != nil else { return nil }
            if path.section != section {
                flush(removed: false, into: &rows)
                section = path.section
            }
            items.append(path.item)
        }
        flush(removed: false, into: &rows)
        var movedTo = Set<RowPath>()
        for move in changes.movedRows {
            guard isObject(move.from, in: oldShapes), isObject(move.to, in: newShapes),
                  oldToNew[move.from.section] >= 0, layout.sources[move.to.section] != nil else { return nil }
            rows[oldToNew[move.from.section], default: Edits()].removed.append(move.from.item)
            rows[move.to.section, default: Edits()].added.append(move.to.item)
            moves.append((move.from, move.to))
            movedTo.insert(move.to)
        }
        for key in rows.keys {
            Self.sortIfNeeded(&rows[key]!.removed)
            Self.sortIfNeeded(&rows[key]!.added)
        }
        var updated = Set<RowPath>()
        for path in changes.updatedRows {
            if isPlaceholder(path, in: newShapes) { continue }
            // A row updated twice, or updated and inserted, has no old row to update.
            guard isObject(path, in: newShapes), let oldSection = layout.sources[path.section],
                  updated.insert(path).inserted else { return nil }
            if !movedTo.isEmpty && movedTo.contains(path) {
                movedAndUpdated.insert(path)
                continue
            }
            if let added = rows[path.section]?.added {
                let index = GapMapping.countLess(than: path.item, in: added)
                guard index == added.count || added[index] != path.item else { return nil }
            }
            // Edited in place in the dictionary: a copy taken out would copy `updated` per row.
            let oldItem = rows[path.section].map { GapMapping.oldIndex(ofNew: path.item, removed: $0.removed, added: $0.added) } ?? path.item
            guard oldItem < oldShapes[oldSection] / 2 else { return nil }
            rows[path.section, default: Edits()].updated.append((oldItem, path.item))
        }
    }

    /// Sorts `items` unless they are already ascending (the usual case: one O(n) check).
    private static func sortIfNeeded(_ items: inout [Int]) {
        for index in items.indices.dropFirst() where items[index] < items[index - 1] {
            items.sort()
            return
        }
    }
}
