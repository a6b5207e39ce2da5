/// Groups writes so that derived values and observers run once, at the end, with the
/// final values.
///
/// A batch is per thread: it defers only the deliveries that this thread's writes and sends
/// (inside the batch) make due. Writes still take effect immediately and every thread's
/// reads see them. Other threads are not held up: their writes are delivered as usual, on
/// their own thread, while this batch is open — except to an observer whose delivery this
/// batch already holds: that delivery stays here, and runs at the end of the batch with the
/// latest value (for a property) or after the held events (for a signal, whose events reach
/// an observer in the order sent).
///
/// Batches nest: the deferred observers run when the outermost batch on this thread ends,
/// on this thread, before `batch` returns. A batch opened inside an observer ends with its
/// deliveries still queued: they run after that observer returns. A batch that ends inside
/// a ``MutableProperty/modify(_:)`` body or a derived closure delivers when that outer call
/// returns (observers never run with a lock held). Errors thrown by `body` propagate
/// after the batch is closed and its writes delivered. `observe` called inside a batch calls
/// its observer with the current value at once, before returning; later values wait for the
/// end of the batch like any other delivery.
///
/// A property written inside the batch that holds, when the outermost batch ends, a value
/// equal to the one it held before (`42 → 0 → 42`, for a property with an equality) counts
/// as unchanged: derived properties that had not read the intermediate values do not
/// recompute, and its observers are not called. The comparison is the property's own
/// equality (`==`, or the `equals:` given), made once per property written. A property
/// without one (`equals: nil`, as the data sources' snapshot properties are: comparing two
/// snapshots would cost O(n)) counts every write as a change, a reverted one included.
@inlinable
public func batch<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    // Unretained: the thread keeps its graph state alive (no retain and release per batch).
    let graph = Graph.current
    graph._withUnsafeGuaranteedRef { $0.beginBatch() }
    defer { graph._withUnsafeGuaranteedRef { $0.endBatch() } }
    return try body()
}
