/// One batch update of a staged change: the data a list shows once the batch is done, and
/// the change that batch performs.
public struct ChangeStage<Object: Hashable & Sendable>: Sendable {
    /// The content after this stage.
    public var snapshot: Snapshot<Object>
    /// The change this stage makes (see ``ChangeSet`` for how a list applies it).
    public var changes: ChangeSet
}

extension ChangeSet {
    /// Whether this change moves sections and also deletes, inserts or moves rows in a moved
    /// section: a mix UIKit names no rule for (table views have been seen to crash on it), so
    /// it is applied in two stages (``stages(from:to:)``). O(size of the change).
    public var needsStaging: Bool {
        guard !movedSections.isEmpty else { return false }
        let movedFrom = Set(movedSections.map(\.from))
        let movedTo = Set(movedSections.map(\.to))
        return deletedRows.contains { movedFrom.contains($0.section) }
            || movedRows.contains { movedFrom.contains($0.from.section) || movedTo.contains($0.to.section) }
            || insertedRows.contains { movedTo.contains($0.section) }
    }

    /// This change (which turns `old` into `new`) as batch updates to apply one after the
    /// other, each valid for `performBatchUpdates` on its own, as DifferenceKit stages them:
    /// one stage when ``needsStaging`` is false (the change itself); otherwise first the
    /// sections (deleted, inserted, moved; rows untouched), then the rows (in the sections'
    /// new indexes) with the updated rows and retitled sections.
    ///
    /// A table view applies each stage in turn: set its data to `stage.snapshot` inside
    /// `performBatchUpdates`, delete and insert the sections and rows and perform the moves
    /// the stage lists, then, after the batch, reconfigure (or reload) `updatedRows` and
    /// retitle `retitledSections` (new indexes). A change whose section indexes do not fit
    /// `old` and `new` is returned as one stage, unchanged (check it with
    /// `BatchUpdateValidator`). Complexity: O(sections + size of the change).
    public func stages<Object>(from old: Snapshot<Object>, to new: Snapshot<Object>) -> [ChangeStage<Object>] {
        guard needsStaging, let layout = SectionLayout(
            oldCount: old.sections.count, deleted: deletedSections, inserted: insertedSections,
            moved: movedSections.map { ($0.from, $0.to) }
        ), layout.sources.count == new.sections.count else { return [ChangeStage(snapshot: new, changes: self)] }
        var sections = ChangeSet()
        sections.deletedSections = deletedSections
        sections.insertedSections = insertedSections
        sections.movedSections = movedSections
        let middle = Snapshot(sections: layout.sources.enumerated().map { index, source in
            guard let source else { return new.sections[index] }
            var section = old.sections[source]
            section.id = new.sections[index].id
            return section
        })
        var rows = ChangeSet()
        let oldToNew = layout.oldToNew
        rows.deletedRows = deletedRows.map { RowPath(item: $0.item, section: oldToNew[$0.section]) }
        rows.insertedRows = insertedRows
        rows.movedRows = movedRows.map { RowMove(from: RowPath(item: $0.from.item, section: oldToNew[$0.from.section]), to: $0.to) }
        rows.updatedRows = updatedRows
        rows.retitledSections = retitledSections
        rows.normalize()
        return [ChangeStage(snapshot: middle, changes: sections), ChangeStage(snapshot: new, changes: rows)]
    }
}
