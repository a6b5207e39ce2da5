import Foundation

extension ChangeSet {
    /// Applies this change to `old` the way a table view performs a batch update, and returns
    /// the resulting snapshot; `nil` when the change does not fit `old` (an index out of
    /// range, an index used twice, a row change inside an inserted or deleted section, or a
    /// placeholder row that would not end up last in its section).
    ///
    /// The values of inserted and updated rows, inserted sections and new titles are read from
    /// `new` (a change set stores indexes, not values); everything else comes from `old`.
    /// So `changes.applied(to: old, valuesFrom: new) == new` checks that `changes` really turns
    /// `old` into `new`: the tests use it as the oracle for every published change.
    ///
    /// Complexity: O(n log n) in the size of the snapshots and the change.
    public func applied<Object>(to old: Snapshot<Object>, valuesFrom new: Snapshot<Object>) -> Snapshot<Object>? {
        guard let layout = SectionLayout(
            oldCount: old.sections.count,
            deleted: deletedSections,
            inserted: insertedSections,
            moved: movedSections.map { ($0.from, $0.to) }
        ) else { return nil }

        var rowRemovals: [Int: [Int]] = [:]
        for path in deletedRows + movedRows.map(\.from) {
            let (section, item) = (path.section, path.item)
            guard old.sections.indices.contains(section),
                  layout.oldToNew[section] >= 0 else { return nil }
            rowRemovals[section, default: []].append(item)
        }
        var rowInsertions: [Int: [(item: Int, row: Row<Object>)]] = [:]
        for path in insertedRows {
            let (section, item) = (path.section, path.item)
            guard let row = new.row(at: path) else { return nil }
            rowInsertions[section, default: []].append((item, row))
        }
        for move in movedRows {
            let (section, item) = (move.to.section, move.to.item)
            guard let row = old.row(at: move.from) else { return nil }
            rowInsertions[section, default: []].append((item, row))
        }

        var sections: [SnapshotSection<Object>] = []
        sections.reserveCapacity(layout.sources.count)
        for (index, source) in layout.sources.enumerated() {
            guard let oldIndex = source else {
                guard new.sections.indices.contains(index), rowInsertions[index] == nil else { return nil }
                sections.append(new.sections[index])
                continue
            }
            let before = old.sections[oldIndex]
            guard let rows = Self.rebuiltRows(
                before.rows, removing: rowRemovals[oldIndex] ?? [], inserting: rowInsertions[index] ?? []
            ) else { return nil }
            var section = SnapshotSection<Object>(id: before.id, title: before.title)
            guard section.setRows(rows) else { return nil }
            sections.append(section)
        }
        rowInsertions.removeAll()

        for index in retitledSections {
            guard sections.indices.contains(index), layout.sources[index] != nil,
                  new.sections.indices.contains(index) else { return nil }
            sections[index].title = new.sections[index].title
        }
        // Updates grouped by section: each touched section's rows are rebuilt once.
        var updates: [Int: [(item: Int, row: Row<Object>)]] = [:]
        var updated = Set<RowPath>()
        for path in updatedRows {
            guard updated.insert(path).inserted,
                  sections.indices.contains(path.section), layout.sources[path.section] != nil,
                  let value = new.row(at: path) else { return nil }
            updates[path.section, default: []].append((path.item, value))
        }
        for (section, values) in updates {
            var rows = sections[section].rows
            for (item, value) in values {
                guard rows.indices.contains(item) else { return nil }
                rows[item] = value
            }
            guard sections[section].setRows(rows) else { return nil }
        }
        return Snapshot(sections: sections)
    }

    /// `rows` without the rows at `removing`, with `inserting` placed at their new indexes and
    /// the remaining rows filling the gaps in order; `nil` on a bad or repeated index.
    private static func rebuiltRows<Object>(
        _ rows: [Row<Object>], removing: [Int], inserting: [(item: Int, row: Row<Object>)]
    ) -> [Row<Object>]? {
        var removed = Array(repeating: false, count: rows.count)
        for item in removing {
            guard rows.indices.contains(item), !removed[item] else { return nil }
            removed[item] = true
        }
        let kept = rows.indices.filter { !removed[$0] }.map { rows[$0] }
        var result = [Row<Object>?](repeating: nil, count: kept.count + inserting.count)
        for (item, row) in inserting {
            guard result.indices.contains(item), result[item] == nil else { return nil }
            result[item] = row
        }
        var next = kept.makeIterator()
        for index in result.indices where result[index] == nil {
            result[index] = next.next()
        }
        return result.map { $0! }
    }
}

extension SnapshotSection {
    /// Replaces the rows; `false` (and no change) when a placeholder is not the last row.
    mutating func setRows(_ rows: [Row<Object>]) -> Bool {
        var objects: [Object] = []
        objects.reserveCapacity(rows.count)
        var placeholder: Placeholder?
        for row in rows {
            guard placeholder == nil else { return false }
            switch row {
            case .object(let object): objects.append(object)
            case .placeholder(let value): placeholder = value
            }
        }
        self.objects = RowStorage(objects)
        self.placeholder = placeholder
        return true
    }
}
