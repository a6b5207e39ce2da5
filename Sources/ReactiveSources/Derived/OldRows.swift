/// The rows of one parent section before a followed change, as a transform that reads them
/// (``RowTransform/readsOldRows``: Sorted) is given them: the parent's previous rows when
/// the derivation holds them, else the change's before-images (the objects it deleted,
/// updated or moved, see ``SnapshotUpdate/beforeImages(since:)``), which spare the parent
/// the path copies that holding its previous rows would cost it.
struct OldRows<Base: Hashable & Sendable> {
    private let rows: RowStorage<Base>?
    private let images: BeforeImages?
    private let section: Int

    /// The previous rows of the section.
    init(_ rows: RowStorage<Base>) {
        self.rows = rows
        images = nil
        section = 0
    }

    /// The before-images of a change, read for parent section `section` (its old index).
    init(images: BeforeImages, section: Int) {
        rows = nil
        self.images = images
        self.section = section
    }

    /// Nothing: for transforms that do not read old rows.
    static var empty: OldRows { OldRows(RowStorage()) }

    /// The object at old `item`, or `nil` when it is out of range or, for before-images, the
    /// change did not delete, update or move it. O(log n), or O(log k) for k before-images.
    subscript(item: Int) -> Base? {
        if let rows { return item >= 0 && item < rows.count ? rows[item] : nil }
        return images?.object(at: RowPath(item: item, section: section), as: Base.self)
    }

    /// Where a follower reads the parent's rows before the change from `version` to
    /// `update`, by old section index: in `held` (the parent's previous snapshot, when the
    /// follower holds it; `sectionCount` sections expected), else in the change's
    /// before-images (composed on first use); `nil` when neither is at hand (a change in
    /// between came without before-images: the follower derives everything again).
    static func reader(
        held: Snapshot<Base>?, sectionCount: Int, update: SnapshotUpdate<Base>, since version: UInt64
    ) -> ((Int) -> OldRows<Base>?)? {
        if let held {
            guard held.sections.count == sectionCount else { return nil }
            return { section in OldRows(held.sections[section].objects) }
        }
        guard update.hasBeforeImages else { return nil }
        var images: BeforeImages??
        return { section in
            if images == nil { images = update.beforeImages(since: version) }
            return images!.map { OldRows(images: $0, section: section) }
        }
    }
}
