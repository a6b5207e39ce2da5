/// Which section each of some rows belongs to, read in code compiled for the client's
/// `Object` and `Key` (from the library's generic code, each key's hash and lookup cost
/// runtime metadata lookups and witness calls): for each of `items` (ascending positions in
/// `rows`, which must hold them), the index of its key in `keyIndex`, or -1 when the key has
/// no section. O(k log n) reads, or one walk when the items are dense; one lookup each.
@usableFromInline
typealias SectionRouter<Object, Key: Hashable> = @Sendable (_ rows: RowStorage<Object>, _ items: [Int], _ keyIndex: [Key: Int]) -> [Int]

/// Builds a ``SectionRouter`` for `key`, compiled where this is inlined.
@inlinable
func sectionRouter<Object: Sendable, Key: Hashable & Sendable>(key: @escaping @Sendable (Object) -> Key) -> SectionRouter<Object, Key> {
    { rows, items, keyIndex in
        var sections: [Int] = []
        sections.reserveCapacity(items.count)
        guard let first = items.first, let last = items.last else { return sections }
        if items.count * 8 >= last - first {
            var next = 0
            var item = first
            var iterator = rows.makeIterator(from: first)
            while let object = iterator.next() {
                if item == items[next] {
                    sections.append(keyIndex[key(object)] ?? -1)
                    next += 1
                    if next == items.count { break }
                }
                item += 1
            }
        } else {
            for item in items { sections.append(keyIndex[key(rows[item])] ?? -1) }
        }
        return sections
    }
}
