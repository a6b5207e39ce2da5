/// The loops a derived source runs over every row of a section (sorting positions, filtering,
/// merging a large edit), built by ``compiled()`` from inlinable code so that they run
/// compiled for the client's `Object`: run from the library's generic code, each element
/// read or copy costs a runtime metadata lookup (several times the work of the loop).
/// The public factories (`filter`, `sorted`, `sectioned`) are inlinable and pass them in.
@usableFromInline
struct CompiledLoops<Object>: Sendable {
    /// Sorts `order` (positions into `values`, which must hold them) by `less`, stably: given
    /// positions whose labels ascend, it sorts them by `less`, then by label; returns the
    /// values in that order. O(k log k) calls of `less` for k positions.
    @usableFromInline
    typealias Sorter = @Sendable (_ less: (Object, Object) -> Bool, _ values: UnsafeBufferPointer<Object>, _ order: inout [Int]) -> ContiguousArray<Object>

    /// The rows of `rows` for which `isIncluded` is true, and one bit per row (bit `i % 64`
    /// of word `i / 64`). O(n) calls of `isIncluded`.
    @usableFromInline
    typealias Filter = @Sendable (_ rows: RowStorage<Object>, _ isIncluded: (Object) -> Bool) -> (kept: RowStorage<Object>, words: [UInt64])

    /// The objects at `paths` of the sections `sections`, in the order of `paths` (which must
    /// be valid). O(k log n); a dense ascending run in one section is read in one walk.
    @usableFromInline
    typealias Gather = @Sendable (_ sections: [RowStorage<Object>], _ paths: [RowPath]) -> ContiguousArray<Object>

    /// In `rows` sorted by `less`: the first position whose row `value` precedes (`upper`),
    /// or whose row does not precede `value` (lower bound). One descent of the tree: O(log n)
    /// calls of `less`.
    @usableFromInline
    typealias Bound = @Sendable (_ rows: RowStorage<Object>, _ value: Object, _ upper: Bool, _ less: (Object, Object) -> Bool) -> Int

    /// Inserts `value` at `position` (`0...count`) of `rows`. O(chunk + log n).
    @usableFromInline
    typealias Insert = @Sendable (_ value: Object, _ position: Int, _ rows: inout RowStorage<Object>) -> Void

    /// Removes the rows at `range` (within `0..<count`) of `rows`. O(range + chunk + log n).
    @usableFromInline
    typealias Remove = @Sendable (_ range: Range<Int>, _ rows: inout RowStorage<Object>) -> Void

    /// Merges a section's rows with arriving ones (see ``Merged``): the rows at `leaving`
    /// (ascending positions) are dropped, those at `inPlace` (ascending, disjoint from
    /// `leaving`) take `inPlaceValues` (aligned), and `arrivals` (aligned with
    /// `arrivalLabels`), taken in the order of the positions `order` (sorted by `less`, then
    /// label), are placed before the first staying row they precede: by `less` then label,
    /// or by label alone when `less` is `nil`. Labels must be unique. O(n + k) calls of `less`.
    @usableFromInline
    typealias Merger<Label: Comparable & Sendable> = @Sendable (
        _ rows: RowStorage<Object>, _ labels: RowStorage<Label>, _ leaving: [Int], _ inPlace: [Int], _ inPlaceValues: ContiguousArray<Object>,
        _ arrivals: ContiguousArray<Object>, _ arrivalLabels: [Label], _ order: [Int], _ less: ((Object, Object) -> Bool)?
    ) -> Merged<Label>

    /// A section after ``Merger``.
    @usableFromInline
    struct Merged<Label> {
        @usableFromInline var objects: RowStorage<Object>
        @usableFromInline var labels: ContiguousArray<Label>
        /// Per arrival (in `order`), its position in `objects`.
        @usableFromInline var arrivalPositions: [Int]
        /// The positions in `objects` of the rows changed in place, ascending.
        @usableFromInline var updatedPositions: [Int]

        @inlinable
        init(objects: RowStorage<Object>, labels: ContiguousArray<Label>, arrivalPositions: [Int], updatedPositions: [Int]) {
            self.objects = objects
            self.labels = labels
            self.arrivalPositions = arrivalPositions
            self.updatedPositions = updatedPositions
        }
    }

    let sort: Sorter
    let filter: Filter
    let gather: Gather
    let bound: Bound
    let insert: Insert
    let remove: Remove
    /// For a Sorted source's order labels.
    let mergeSorted: Merger<UInt64>
    /// For a Sectioned source's row labels.
    let mergeGrouped: Merger<RowLabel>

    @usableFromInline
    init(
        sort: @escaping Sorter, filter: @escaping Filter, gather: @escaping Gather, bound: @escaping Bound, insert: @escaping Insert,
        remove: @escaping Remove, mergeSorted: @escaping Merger<UInt64>, mergeGrouped: @escaping Merger<RowLabel>
    ) {
        self.sort = sort
        self.filter = filter
        self.gather = gather
        self.bound = bound
        self.insert = insert
        self.remove = remove
        self.mergeSorted = mergeSorted
        self.mergeGrouped = mergeGrouped
    }

    /// The loops, compiled where this is inlined.
    @inlinable
    static func compiled() -> CompiledLoops {
        CompiledLoops(
            sort: { less, values, order in
                // Sorted as (value, position) pairs, so the sort reads its values in sequence
                // rather than through positions (a cache miss each with a million rows).
                // `sort` is stable (SE-0372).
                var pairs = ContiguousArray<(value: Object, position: Int)>()
                pairs.reserveCapacity(order.count)
                for position in order { pairs.append((values[position], position)) }
                pairs.sort { less($0.value, $1.value) }
                var sorted = ContiguousArray<Object>()
                sorted.reserveCapacity(pairs.count)
                for index in pairs.indices {
                    order[index] = pairs[index].position
                    sorted.append(pairs[index].value)
                }
                return sorted
            },
            filter: { rows, isIncluded in
                var kept = ContiguousArray<Object>()
                var words: [UInt64] = []
                words.reserveCapacity(rows.count / 64 + 1)
                var word: UInt64 = 0
                var bit: UInt64 = 0
                for object in rows {
                    if isIncluded(object) {
                        kept.append(object)
                        word |= 1 << bit
                    }
                    bit += 1
                    if bit == 64 {
                        words.append(word)
                        word = 0
                        bit = 0
                    }
                }
                if bit > 0 { words.append(word) }
                return (RowStorage(spacedOut: kept, eighths: 7), words)
            },
            gather: { sections, paths in
                var objects = ContiguousArray<Object>()
                objects.reserveCapacity(paths.count)
                var start = 0
                while start < paths.count {
                    // A run of ascending paths in one section: walked in one pass when dense,
                    // else read one by one (O(log n) each).
                    let section = paths[start].section
                    var end = start + 1
                    while end < paths.count && paths[end].section == section && paths[end].item > paths[end - 1].item { end += 1 }
                    let rows = sections[section]
                    if (end - start) * 8 >= paths[end - 1].item - paths[start].item {
                        var next = start
                        var item = paths[start].item
                        var iterator = rows.makeIterator(from: item)
                        while let object = iterator.next() {
                            if item == paths[next].item {
                                objects.append(object)
                                next += 1
                                if next == end { break }
                            }
                            item += 1
                        }
                    } else {
                        for index in start..<end { objects.append(rows[paths[index].item]) }
                    }
                    start = end
                }
                return objects
            },
            bound: { rows, value, upper, less in
                upper ? rows.partitioningIndex { less(value, $0) } : rows.partitioningIndex { !less($0, value) }
            },
            insert: { value, position, rows in rows.insert(value, at: position) },
            remove: { range, rows in rows.removeSubrange(range) },
            mergeSorted: merger(),
            mergeGrouped: merger()
        )
    }

    /// The merge loop for one label type, compiled where this is inlined.
    @inlinable
    static func merger<Label: Comparable & Sendable>() -> Merger<Label> {
        { rows, labels, leaving, inPlace, inPlaceValues, arrivals, arrivalLabels, order, less in
            var objects = ContiguousArray<Object>()
            var merged = ContiguousArray<Label>()
            let count = rows.count - leaving.count + arrivals.count
            objects.reserveCapacity(count)
            merged.reserveCapacity(count)
            // The arrivals in merge order, gathered first: read through `order` inside the
            // merge loop, each arrival is a cache miss the loop waits for (a million rows).
            var sortedArrivals = ContiguousArray<Object>()
            var sortedLabels = ContiguousArray<Label>()
            sortedArrivals.reserveCapacity(order.count)
            sortedLabels.reserveCapacity(order.count)
            for index in order {
                sortedArrivals.append(arrivals[index])
                sortedLabels.append(arrivalLabels[index])
            }
            var arrivalPositions: [Int] = []
            arrivalPositions.reserveCapacity(arrivals.count)
            var updatedPositions: [Int] = []
            updatedPositions.reserveCapacity(inPlace.count)
            var nextLeaving = 0
            var nextInPlace = 0
            var nextArrival = 0
            var position = -1
            var rowLabels = labels.makeIterator()
            for row in rows {
                let label = rowLabels.next().unsafelyUnwrapped
                position += 1
                if nextLeaving < leaving.count && leaving[nextLeaving] == position {
                    nextLeaving += 1
                    continue
                }
                var value = row
                let changed = nextInPlace < inPlace.count && inPlace[nextInPlace] == position
                if changed {
                    value = inPlaceValues[nextInPlace]
                    nextInPlace += 1
                }
                while nextArrival < order.count {
                    let arrival = sortedArrivals[nextArrival]
                    let arrivalLabel = sortedLabels[nextArrival]
                    // By `less`, then label: one call of `less` either way.
                    let arrivalFirst = if let less {
                        arrivalLabel < label ? !less(value, arrival) : less(arrival, value)
                    } else {
                        arrivalLabel < label
                    }
                    guard arrivalFirst else { break }
                    arrivalPositions.append(objects.count)
                    objects.append(arrival)
                    merged.append(arrivalLabel)
                    nextArrival += 1
                }
                if changed { updatedPositions.append(objects.count) }
                objects.append(value)
                merged.append(label)
            }
            while nextArrival < order.count {
                arrivalPositions.append(objects.count)
                objects.append(sortedArrivals[nextArrival])
                merged.append(sortedLabels[nextArrival])
                nextArrival += 1
            }
            return Merged(objects: RowStorage(objects), labels: merged, arrivalPositions: arrivalPositions, updatedPositions: updatedPositions)
        }
    }
}
