/// Shows `transform(object)` for each parent object, at the same index.
@usableFromInline
final class MapTransform<Base: Hashable & Sendable, Object: Hashable & Sendable>: RowTransform {
    let transform: @Sendable (Base) -> Object
    /// Every row transformed (the first derivation, or a parent's wholesale change), compiled
    /// for both types by the inlinable ``DataSource/map(_:)``.
    let buildAll: @Sendable (RowStorage<Base>) -> RowStorage<Object>

    @usableFromInline
    init(_ transform: @escaping @Sendable (Base) -> Object, buildAll: @escaping @Sendable (RowStorage<Base>) -> RowStorage<Object>) {
        self.transform = transform
        self.buildAll = buildAll
    }

    /// O(n) calls of `transform`.
    func build(_ parent: RowStorage<Base>) -> (objects: RowStorage<Object>, state: Void) {
        (buildAll(parent), ())
    }

    var readsOldRows: Bool { false }

    /// O(k) transforms and O(k) edits of `objects` (plus the storage's cost per edit).
    func follow(
        _ edits: ParentChanges.Edits, old: OldRows<Base>, new: RowStorage<Base>, objects: inout RowStorage<Object>, state: inout Void
    ) -> OwnEdits? {
        var own = OwnEdits()
        for (oldItem, newItem) in edits.updated {
            objects[oldItem] = transform(new[newItem])
            own.updated.append(newItem)
        }
        RowEditing.remove(edits.removed, from: &objects)
        RowEditing.insert(edits.added.map { ($0, transform(new[$0])) }, into: &objects)
        own.removed = edits.removed.map { ($0, $0) }
        own.added = edits.added.map { ($0, $0) }
        return own
    }

    func parentItem(ofOwn item: Int, state: Void) -> Int? { item }
}

/// Batch edits of an object list, in runs, as a table view applies them.
enum RowEditing {
    /// Removes the elements at `items` (ascending, unique), a run at a time with `removeRuns`
    /// (compiled for the element type, see ``CompiledLoops``) when given.
    static func remove<Element>(
        _ items: [Int], from list: inout RowStorage<Element>, using removeRuns: ((Range<Int>, inout RowStorage<Element>) -> Void)? = nil
    ) {
        var end = items.count
        while end > 0 {
            let last = items[end - 1]
            var first = last
            end -= 1
            while end > 0 && items[end - 1] == first - 1 {
                first -= 1
                end -= 1
            }
            if let removeRuns { removeRuns(first..<(last + 1), &list) } else { list.removeSubrange(first..<(last + 1)) }
        }
    }

    /// Edits `list` as a batch update does: removes `removed` (old indexes, any order), then
    /// inserts `inserted` (new indexes, any order), then sets `replaced` (new indexes).
    /// O((k log k) + k log n) for k edits.
    static func apply<Element>(removing removed: [Int], inserting inserted: [(Int, Element)], replacing replaced: [(Int, Element)], to list: inout RowStorage<Element>) {
        remove(removed.sorted(), from: &list)
        insert(inserted.sorted { $0.0 < $1.0 }, into: &list)
        for (item, element) in replaced { list[item] = element }
    }

    /// Inserts `values` at their new indexes (ascending, unique), after the removals.
    static func insert<Element>(_ values: [(Int, Element)], into list: inout RowStorage<Element>) {
        var start = 0
        while start < values.count {
            let first = values[start].0
            var end = start + 1
            while end < values.count && values[end].0 == first + (end - start) { end += 1 }
            let run = values[start..<end].map { $0.1 }
            if first == list.count {
                list.append(contentsOf: run)
            } else {
                list.insert(contentsOf: run, at: first)
            }
            start = end
        }
    }
}
