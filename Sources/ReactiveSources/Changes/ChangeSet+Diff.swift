import Foundation

extension ChangeSet {
    /// The change that turns `old` into `new`.
    ///
    /// Identity: sections are matched by ``SnapshotSection/id``. Objects that are
    /// `Identifiable` are matched by `id`: an object whose id stays and whose content changes
    /// is an update of its row (in `updatedRows`, new path), or a move and an update when its
    /// position changes too. Other objects are matched by equality. Matching is across
    /// sections (an object that changes section is a row move); a section's placeholder row
    /// is matched with the placeholder of the same section (a changed placeholder is an
    /// updated row).
    ///
    /// Duplicates (equal objects, or equal ids) are allowed and never trap: the k-th
    /// occurrence in `old` pairs with the k-th occurrence in `new`; surplus occurrences are
    /// deletes or inserts. Moves are the fewest that explain the new order.
    ///
    /// Complexity: O(n + m) on average to match n old and m new rows (a Heckel-style pass
    /// with one hash table); moves cost O(k log k) for the k matched rows whose order
    /// changed, and O(k) when nothing moved.
    public init<Object>(from old: Snapshot<Object>, to new: Snapshot<Object>) {
        self.init()
        let sectionMatch = Matching(old: old.sections.map(\.id), new: new.sections.map(\.id))
        diffSections(old: old, new: new, match: sectionMatch)
        diffRows(old: old, new: new, sectionMatch: sectionMatch)
        diffPlaceholders(old: old, new: new, sectionMatch: sectionMatch)
        deletedRows.sort()
        insertedRows.sort()
        updatedRows.sort()
    }

    private mutating func diffSections<Object>(old: Snapshot<Object>, new: Snapshot<Object>, match: Matching) {
        for (index, partner) in match.oldToNew.enumerated() where partner < 0 {
            deletedSections.append(index)
        }
        var matchedOld: [Int] = []
        var matchedNew: [Int] = []
        for (index, partner) in match.newToOld.enumerated() {
            guard partner >= 0 else {
                insertedSections.append(index)
                continue
            }
            matchedOld.append(partner)
            matchedNew.append(index)
            if old.sections[partner].title != new.sections[index].title { retitledSections.append(index) }
        }
        let stable = longestIncreasingSubsequenceMask(matchedOld)
        for position in matchedOld.indices where !stable[position] {
            movedSections.append(SectionMove(from: matchedOld[position], to: matchedNew[position]))
        }
    }

    /// Objects of the sections present on both sides, flattened.
    private struct FlatRows<Object> {
        var objects: [Object] = []
        var sections: [Int] = []
        var items: [Int] = []

        init(_ snapshot: Snapshot<Object>, keeping partners: [Int]) where Object: Hashable & Sendable {
            let count = snapshot.sections.indices.reduce(0) { partners[$1] >= 0 ? $0 + snapshot.sections[$1].objects.count : $0 }
            objects.reserveCapacity(count)
            sections.reserveCapacity(count)
            items.reserveCapacity(count)
            for (sectionIndex, section) in snapshot.sections.enumerated() where partners[sectionIndex] >= 0 {
                objects.append(contentsOf: section.objects)
                sections.append(contentsOf: repeatElement(sectionIndex, count: section.objects.count))
                items.append(contentsOf: 0..<section.objects.count)
            }
        }

        func path(_ index: Int) -> RowPath { RowPath(item: items[index], section: sections[index]) }
    }

    private mutating func diffRows<Object>(old: Snapshot<Object>, new: Snapshot<Object>, sectionMatch: Matching) {
        let oldRows = FlatRows(old, keeping: sectionMatch.oldToNew)
        let newRows = FlatRows(new, keeping: sectionMatch.newToOld)
        let (match, byIdentity) = Self.matchRows(old: oldRows.objects, new: newRows.objects)
        if byIdentity {
            for (index, partner) in match.newToOld.enumerated() where partner >= 0 && oldRows.objects[partner] != newRows.objects[index] {
                updatedRows.append(newRows.path(index))
            }
        }
        for (index, partner) in match.oldToNew.enumerated() where partner < 0 {
            deletedRows.append(oldRows.path(index))
        }
        // Matched rows that stay in their (matched) section: keep the longest in-order run.
        var runOldItems: [Int] = []
        var runNew: [Int] = []
        var runOld: [Int] = []
        func flushRun(_ changes: inout ChangeSet) {
            let stable = longestIncreasingSubsequenceMask(runOldItems)
            for position in runOldItems.indices where !stable[position] {
                changes.movedRows.append(RowMove(from: oldRows.path(runOld[position]), to: newRows.path(runNew[position])))
            }
            runOldItems.removeAll(keepingCapacity: true)
            runNew.removeAll(keepingCapacity: true)
            runOld.removeAll(keepingCapacity: true)
        }
        var runSection = -1
        for (index, partner) in match.newToOld.enumerated() {
            let newSection = newRows.sections[index]
            if newSection != runSection {
                flushRun(&self)
                runSection = newSection
            }
            guard partner >= 0 else {
                insertedRows.append(newRows.path(index))
                continue
            }
            if sectionMatch.oldToNew[oldRows.sections[partner]] == newSection {
                runOldItems.append(oldRows.items[partner])
                runOld.append(partner)
                runNew.append(index)
            } else {
                movedRows.append(RowMove(from: oldRows.path(partner), to: newRows.path(index)))
            }
        }
        flushRun(&self)
    }

    /// Pairs old and new objects: by `id` when `Object` is `Identifiable` (then `true`),
    /// else by equality.
    private static func matchRows<Object: Hashable>(old: [Object], new: [Object]) -> (Matching, Bool) {
        guard let identifiable = Object.self as? any Identifiable.Type else { return (Matching(old: old, new: new), false) }
        return (matchByID(identifiable, old: old, new: new), true)
    }

    /// `Matching` over the ids of `old` and `new`, whose element type is `Identified`.
    private static func matchByID<Identified: Identifiable, Object>(_: Identified.Type, old: [Object], new: [Object]) -> Matching {
        precondition(Object.self == Identified.self)
        let old = unsafeBitCast(old, to: [Identified].self)
        let new = unsafeBitCast(new, to: [Identified].self)
        let oldIDs = old.map { $0.id }
        let newIDs = new.map { $0.id }
        // This code is not specialised for the client's types: a hash table of generic keys
        // pays a runtime metadata lookup per operation. Common id types get a specialised one.
        if Identified.ID.self == Int.self {
            return Matching(old: unsafeBitCast(oldIDs, to: [Int].self), new: unsafeBitCast(newIDs, to: [Int].self))
        }
        if Identified.ID.self == String.self {
            return Matching(old: unsafeBitCast(oldIDs, to: [String].self), new: unsafeBitCast(newIDs, to: [String].self))
        }
        if Identified.ID.self == UUID.self {
            return Matching(old: unsafeBitCast(oldIDs, to: [UUID].self), new: unsafeBitCast(newIDs, to: [UUID].self))
        }
        return Matching(old: oldIDs, new: newIDs)
    }

    private mutating func diffPlaceholders<Object>(old: Snapshot<Object>, new: Snapshot<Object>, sectionMatch: Matching) {
        for (newIndex, oldIndex) in sectionMatch.newToOld.enumerated() where oldIndex >= 0 {
            let before = old.sections[oldIndex]
            let after = new.sections[newIndex]
            switch (before.placeholder, after.placeholder) {
            case (nil, nil):
                break
            case (.some, nil):
                deletedRows.append(RowPath(item: before.objects.count, section: oldIndex))
            case (nil, .some):
                insertedRows.append(RowPath(item: after.objects.count, section: newIndex))
            case (.some(let was), .some(let now)):
                if was != now { updatedRows.append(RowPath(item: after.objects.count, section: newIndex)) }
            }
        }
    }
}
