/// Groups writes so that derived values and observers run once, at the end, with the
/// final values.
///
/// While any batch is open (on any thread), observer delivery is deferred; writes still take
/// effect immediately and reads see them. Batches nest; delivery happens when the outermost
/// batch on the process ends, on the thread that ends it. Errors thrown by `body`
/// propagate after the batch is closed and its writes delivered.
public func batch<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    let graph = Graph.shared
    graph.beginBatch()
    defer { graph.endBatch() }
    return try body()
}
