/// Shows `transform(object)` for the parent objects it maps to a value, in the parent's
/// order, skipping those it maps to `nil`. The section state records which parent rows
/// are shown (as ``FilterTransform`` does), so a parent edit of k rows costs k transforms
/// and O(k log n) bookkeeping.
final class CompactMapTransform<Base: Hashable & Sendable, Object: Hashable & Sendable>: RowTransform {
    let transform: @Sendable (Base) -> Object?

    init(_ transform: @escaping @Sendable (Base) -> Object?) {
        self.transform = transform
    }

    func build(_ parent: RowStorage<Base>) -> (objects: RowStorage<Object>, state: RankedBits) {
        var bits: [Bool] = []
        bits.reserveCapacity(parent.count)
        var objects: [Object] = []
        for base in parent {
            let mapped = transform(base)
            bits.append(mapped != nil)
            if let mapped { objects.append(mapped) }
        }
        return (RowStorage(objects), RankedBits(bits))
    }

    var readsOldRows: Bool { false }

    func follow(
        _ edits: ParentChanges.Edits, old: OldRows<Base>, new: RowStorage<Base>, objects: inout RowStorage<Object>, state bits: inout RankedBits
    ) -> OwnEdits? {
        var own = OwnEdits()
        var ownRemoved: [Int] = []
        for item in edits.removed where bits.bit(at: item) {
            let ownItem = bits.rank(item)
            own.removed.append((item, ownItem))
            ownRemoved.append(ownItem)
        }
        var updates: [(wasShown: Int?, mapped: Object?, new: Int)] = []
        for (oldItem, newItem) in edits.updated {
            let wasShown = bits.bit(at: oldItem) ? bits.rank(oldItem) : nil
            updates.append((wasShown, transform(new[newItem]), newItem))
        }
        for update in updates where update.wasShown != nil && update.mapped == nil {
            own.deleted.append(update.wasShown!)
        }
        // Updated rows are not moved: clear them by old index, set them again by new index.
        for (oldItem, _) in edits.updated { bits.set(false, at: oldItem) }
        for item in edits.removed.reversed() { bits.remove(at: item) }
        var addedObjects: [Int: Object] = [:]
        for item in edits.added {
            let mapped = transform(new[item])
            bits.insert(mapped != nil, at: item)
            if let mapped { addedObjects[item] = mapped }
        }
        for update in updates where update.mapped != nil { bits.set(true, at: update.new) }
        var inserted: [(Int, Object)] = []
        for item in edits.added {
            guard let mapped = addedObjects[item] else { continue }
            let ownItem = bits.rank(item)
            own.added.append((item, ownItem))
            inserted.append((ownItem, mapped))
        }
        var replaced: [(Int, Object)] = []
        for update in updates {
            guard let mapped = update.mapped else { continue }
            let ownItem = bits.rank(update.new)
            if update.wasShown != nil {
                own.updated.append(ownItem)
                replaced.append((ownItem, mapped))
            } else {
                own.inserted.append(ownItem)
                inserted.append((ownItem, mapped))
            }
        }
        RowEditing.apply(removing: ownRemoved + own.deleted, inserting: inserted, replacing: replaced, to: &objects)
        return own
    }

    func parentItem(ofOwn item: Int, state bits: RankedBits) -> Int? {
        item < bits.oneCount ? bits.select(item) : nil
    }
}
