/// Where the rows of a snapshot end up under a change set (batch-update semantics): built
/// once per change set, then asked for a few paths (the selected ones).
///
/// Complexity: O(k log k) to build for a change set of k entries (plus O(sections) when it
/// adds, removes or moves sections), O(log k) per path; independent of the unchanged rows.
struct PathTranslation {
    /// Old section index -> new index (-1 when deleted); `nil` when no section changed.
    private let sectionMap: [Int]?
    /// Per old section: the old items deleted or moved out, ascending.
    private var removed: [Int: [Int]] = [:]
    /// Per new section: the new items inserted or moved in, ascending.
    private var added: [Int: [Int]] = [:]
    /// Row moves, old path -> new path.
    private var moves: [RowPath: RowPath] = [:]
    /// New paths of rows whose content changed in place (or while moving).
    let updated: Set<RowPath>

    /// Reads `changes`, which applies to a snapshot of `oldSectionCount` sections; `nil` when
    /// its section changes do not fit that count or a row index is listed twice.
    init?(_ changes: ChangeSet, oldSectionCount: Int) {
        if changes.deletedSections.isEmpty && changes.insertedSections.isEmpty && changes.movedSections.isEmpty {
            sectionMap = nil
        } else {
            guard let layout = SectionLayout(
                oldCount: oldSectionCount, deleted: changes.deletedSections,
                inserted: changes.insertedSections, moved: changes.movedSections.map { ($0.from, $0.to) }
            ) else { return nil }
            sectionMap = layout.oldToNew
        }
        for path in changes.deletedRows { removed[path.section, default: []].append(path.item) }
        for path in changes.insertedRows { added[path.section, default: []].append(path.item) }
        for move in changes.movedRows {
            removed[move.from.section, default: []].append(move.from.item)
            added[move.to.section, default: []].append(move.to.item)
            guard moves.updateValue(move.to, forKey: move.from) == nil else { return nil }
        }
        for key in removed.keys {
            removed[key]!.sort()
            guard Self.isStrictlyAscending(removed[key]!) else { return nil }
        }
        for key in added.keys {
            added[key]!.sort()
            guard Self.isStrictlyAscending(added[key]!) else { return nil }
        }
        updated = Set(changes.updatedRows)
    }

    /// The new path of the row at old `path`, or `nil` when it (or its section) was deleted.
    func newPath(ofOld path: RowPath) -> RowPath? {
        if let moved = moves[path] { return moved }
        let removedHere = removed[path.section] ?? []
        let rank = GapMapping.countLess(than: path.item, in: removedHere)
        if rank < removedHere.count && removedHere[rank] == path.item { return nil }
        guard let section = newSection(ofOld: path.section) else { return nil }
        let item = GapMapping.position(ofRank: path.item - rank, skipping: added[section] ?? [])
        return RowPath(item: item, section: section)
    }

    /// The new index of old section `section`, or `nil` when it was deleted (or is invalid).
    func newSection(ofOld section: Int) -> Int? {
        guard let sectionMap else { return section }
        guard sectionMap.indices.contains(section), sectionMap[section] >= 0 else { return nil }
        return sectionMap[section]
    }

    /// The new indexes of the sections that were inserted or gained rows (inserted or moved
    /// in): the ones a selection may have to top up to their minimum. O(k).
    static func sectionsGainingRows(_ changes: ChangeSet) -> Set<Int> {
        var sections = Set(changes.insertedSections)
        for path in changes.insertedRows { sections.insert(path.section) }
        for move in changes.movedRows { sections.insert(move.to.section) }
        return sections
    }

    private static func isStrictlyAscending(_ list: [Int]) -> Bool {
        var index = 1
        while index < list.count {
            if list[index - 1] >= list[index] { return false }
            index += 1
        }
        return true
    }
}
