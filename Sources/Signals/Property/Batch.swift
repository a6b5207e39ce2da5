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
/// returns (observers never run with the graph locked). Errors thrown by `body` propagate
/// after the batch is closed and its writes delivered.
public func batch<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    let graph = Graph.shared
    graph.beginBatch()
    defer { graph.endBatch() }
    return try body()
}
