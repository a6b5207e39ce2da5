import Signals

extension DataSource {
    /// Waits until no fetch is in flight and returns the load state at that moment: at once
    /// when the source is idle, otherwise when the fetch in flight ends (finished, failed or
    /// cancelled). A fetch started before that one ends is waited for too, and so may be one
    /// started just after it ends, before the waiting task resumes.
    ///
    /// Start the fetch first (`fetchData()`, then `await settled()`): the state is read when
    /// the wait begins, and a fetch that has not started yet is not waited for. The returned
    /// state was published after the snapshot it belongs to, so the snapshot read next shows
    /// the fetch's result. A paginated source's next-page loads are not fetches: wait for
    /// those on its `pagination`.
    ///
    /// For a remote or paginated source, awaiting the handle the call returns (`await
    /// source.fetchData().outcome`) says how that very load ended; `settled()` serves every
    /// source, derived and composed ones included.
    ///
    /// Cancelling the calling task ends the wait early: it then returns the current state,
    /// which may still be fetching. The fetch itself is not cancelled.
    @discardableResult
    public func settled() async -> LoadState {
        for await state in loadState.values where !state.isFetching {
            return state
        }
        return loadState.value
    }
}
