/// Sorting row positions by an order, with order labels breaking ties: the one sort a Sorted
/// source runs (its first derivation, and the rows arriving in a large edit). Built by
/// ``compiled()`` from inlinable code, so the loop runs compiled for the client's `Object`;
/// through generic code each element read costs a runtime metadata lookup and a copy.
@usableFromInline
enum PositionSorting<Object> {
    /// Sorts `order` (positions into `values` and `labels`, which must hold them) by `less`,
    /// then by label. O(k log k) calls of `less` for k positions.
    @usableFromInline
    typealias Sorter = @Sendable (
        _ less: (Object, Object) -> Bool, _ values: UnsafeBufferPointer<Object>, _ labels: UnsafeBufferPointer<UInt64>, _ order: inout [Int]
    ) -> Void

    /// The sorter, compiled where this is inlined.
    @inlinable
    static func compiled() -> Sorter {
        { less, values, labels, order in
            order.sort { less(values[$0], values[$1]) || (!less(values[$1], values[$0]) && labels[$0] < labels[$1]) }
        }
    }
}
