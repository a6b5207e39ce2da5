/// Shows the parent objects for which `isIncluded` is true, in the parent's order. The
/// section state records which parent rows pass, so a parent edit of k rows costs
/// O(k log n) predicate-free bookkeeping plus k predicate calls.
///
/// Touched only from its derived source's closure, which runs serially.
final class FilterTransform<Object: Hashable & Sendable>: RowTransform, @unchecked Sendable {
    private let isIncluded: @Sendable (Object) -> Bool
    private let loops: CompiledLoops<Object>

    init(_ isIncluded: @escaping @Sendable (Object) -> Bool, loops: CompiledLoops<Object>) {
        self.isIncluded = isIncluded
        self.loops = loops
    }

    func build(_ parent: RowStorage<Object>) -> (objects: RowStorage<Object>, state: RankedBits) {
        let (objects, words) = loops.filter(parent, isIncluded)
        return (objects, RankedBits(words: words, count: parent.count))
    }

    /// The rows whose bit changed: a predicate change over the same parent rows only hides
    /// and shows rows, never reorders them. O(n / 64 + changed rows).
    func rederivedEdits(from old: RankedBits, to new: RankedBits) -> (deleted: [Int], inserted: [Int])? {
        old.differences(to: new)
    }

    var readsOldRows: Bool { false }

    func follow(
        _ edits: ParentChanges.Edits, old: OldRows<Object>, new: RowStorage<Object>, objects: inout RowStorage<Object>, state bits: inout RankedBits
    ) -> OwnEdits? {
        let isIncluded = self.isIncluded
        var own = OwnEdits()
        // Old own indexes of removed rows that were shown, and of updated rows.
        var ownRemoved: [Int] = []
        for item in edits.removed where bits.bit(at: item) {
            let ownItem = bits.rank(item)
            own.removed.append((item, ownItem))
            ownRemoved.append(ownItem)
        }
        var updates: [(wasShown: Int?, shown: Bool, new: Int)] = []
        for (oldItem, newItem) in edits.updated {
            let wasShown = bits.bit(at: oldItem) ? bits.rank(oldItem) : nil
            updates.append((wasShown, isIncluded(new[newItem]), newItem))
        }
        // Hidden-by-update rows leave with the removed ones; then the bits follow the parent.
        for update in updates where update.wasShown != nil && !update.shown {
            own.deleted.append(update.wasShown!)
        }
        // Updated rows are not moved: clear them by old index, set them again by new index.
        for (oldItem, _) in edits.updated { bits.set(false, at: oldItem) }
        for item in edits.removed.reversed() { bits.remove(at: item) }
        for item in edits.added { bits.insert(isIncluded(new[item]), at: item) }
        for update in updates where update.shown { bits.set(true, at: update.new) }
        // New own indexes, now that the bits are final.
        var inserted: [(Int, Object)] = []
        for item in edits.added where bits.bit(at: item) {
            let ownItem = bits.rank(item)
            own.added.append((item, ownItem))
            inserted.append((ownItem, new[item]))
        }
        var replaced: [(Int, Object)] = []
        for update in updates where update.shown {
            let ownItem = bits.rank(update.new)
            if update.wasShown != nil {
                own.updated.append(ownItem)
                replaced.append((ownItem, new[update.new]))
            } else {
                own.inserted.append(ownItem)
                inserted.append((ownItem, new[update.new]))
            }
        }
        RowEditing.apply(removing: ownRemoved + own.deleted, inserting: inserted, replacing: replaced, to: &objects)
        return own
    }

    func parentItem(ofOwn item: Int, state bits: RankedBits) -> Int? {
        item < bits.oneCount ? bits.select(item) : nil
    }
}
