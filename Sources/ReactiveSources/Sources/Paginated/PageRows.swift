/// A ``PaginatedDataSource``'s edit of its shown objects when a next page lands: drop the
/// oldest, append the new.
///
/// A closure built by the inlinable factory below, which the source's public initialisers
/// call, so the row storage's (inlinable) append is compiled for the client's `Object`;
/// from the source's generic code it would pay runtime generic-metadata lookups per call.
@usableFromInline
struct PageRows<Object: Hashable & Sendable>: Sendable {
    /// Removes the first `dropped` objects of `rows` (traps if there are fewer), then appends
    /// `objects`. O(objects + dropped + chunk * log n).
    let dropAndAppend: @Sendable (_ rows: inout RowStorage<Object>, _ dropped: Int, _ objects: [Object]) -> Void

    @usableFromInline
    init(dropAndAppend: @escaping @Sendable (_ rows: inout RowStorage<Object>, _ dropped: Int, _ objects: [Object]) -> Void) {
        self.dropAndAppend = dropAndAppend
    }

    /// The edit, compiled where this is called.
    @inlinable
    static func compiled() -> PageRows {
        PageRows { rows, dropped, objects in
            if dropped > 0 { rows.removeFirst(dropped) }
            rows.append(contentsOf: objects)
        }
    }
}
