/// The loops of a Sectioned source that read rows' keys, built by ``compiled(key:)`` from
/// inlinable code so that they run compiled for the client's `Object` and `Key`: from the
/// library's generic code, each key's hash and lookup cost runtime metadata lookups and
/// witness calls (several times the work of the loop).
@usableFromInline
struct SectionKeyLoops<Object, Key: Hashable>: Sendable {
    /// Which section each of some rows belongs to: for each of `items` (ascending positions
    /// in `rows`, which must hold them), the index of its key in `keyIndex`, or -1 when the
    /// key has no section. O(k log n) reads, or one walk when the items are dense; one lookup each.
    @usableFromInline
    typealias Router = @Sendable (_ rows: RowStorage<Object>, _ items: [Int], _ keyIndex: [Key: Int]) -> [Int]

    /// Groups the rows of parent section `section` by key: appends each object to its key's
    /// group in `objects` and its label (labelled from scratch) to the same group in `labels`;
    /// a key not in `groupOf` gets the next group and is appended to `firstSeen`. O(n) key
    /// reads and lookups.
    @usableFromInline
    typealias Grouping = @Sendable (
        _ rows: RowStorage<Object>, _ section: Int, _ groupOf: inout [Key: Int], _ firstSeen: inout [Key],
        _ objects: inout [RowStorageBuilder<Object>], _ labels: inout [RowStorageBuilder<RowLabel>]
    ) -> Void

    @usableFromInline let sections: Router
    @usableFromInline let group: Grouping

    @inlinable
    init(sections: @escaping Router, group: @escaping Grouping) {
        self.sections = sections
        self.group = group
    }
}

extension SectionKeyLoops where Object: Sendable, Key: Sendable {
    /// The loops for `key`, compiled where this is inlined.
    @inlinable
    static func compiled(key: @escaping @Sendable (Object) -> Key) -> SectionKeyLoops {
        SectionKeyLoops(sections: sectionRouter(key: key), group: { rows, section, groupOf, firstSeen, objects, labels in
            var position = 0
            rows.forEach { object in
                let objectKey = key(object)
                let group: Int
                if let found = groupOf[objectKey] {
                    group = found
                } else {
                    group = objects.count
                    groupOf[objectKey] = group
                    firstSeen.append(objectKey)
                    objects.append(RowStorageBuilder())
                    labels.append(RowStorageBuilder())
                }
                objects[group].append(object)
                labels[group].append(RowLabel(section: section, value: OrderLabels.fromScratch(position)))
                position += 1
            }
        })
    }
}

/// Builds a ``SectionKeyLoops/Router`` for `key`, compiled where this is inlined.
@inlinable
func sectionRouter<Object: Sendable, Key: Hashable & Sendable>(key: @escaping @Sendable (Object) -> Key) -> SectionKeyLoops<Object, Key>.Router {
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
