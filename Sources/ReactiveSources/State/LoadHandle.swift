import Foundation

/// A load a source started, to await its ``LoadOutcome``: `await source.fetchData().outcome`
/// in a service or a test. A view can ignore it (the calls are `@discardableResult`).
///
/// Every load ends (finished, failed, cancelled or superseded), so ``outcome`` always
/// returns once the load is over; waiting does not hold the load or the source, and
/// cancelling the waiting task does not cancel the load (call `cancelFetch()` for that).
/// The outcome is set after the snapshot and state it belongs to are published.
/// Thread-safe.
public final class LoadHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var result: LoadOutcome?
    private var waiters: [CheckedContinuation<LoadOutcome, Never>] = []

    init() {}

    /// A handle whose load is already over.
    init(ended outcome: LoadOutcome) {
        result = outcome
    }

    /// The outcome, once the load has ended; `nil` while it runs.
    public var currentOutcome: LoadOutcome? { lock.withLock { result } }

    /// Waits until the load ends and returns its outcome (at once if it has ended).
    public var outcome: LoadOutcome {
        get async {
            await withCheckedContinuation { continuation in
                let ended: LoadOutcome? = lock.withLock {
                    if let result { return result }
                    waiters.append(continuation)
                    return nil
                }
                if let ended { continuation.resume(returning: ended) }
            }
        }
    }

    /// Ends the load with `outcome`; later calls are ignored. O(waiters).
    func end(_ outcome: LoadOutcome) {
        let waiting: [CheckedContinuation<LoadOutcome, Never>] = lock.withLock {
            guard result == nil else { return [] }
            result = outcome
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: outcome) }
    }
}

/// A source whose `fetchData()` returns the ``LoadHandle`` of the fetch it starts
/// (``RemoteDataSource``, ``PaginatedDataSource``). Through ``DataSource`` (or generic code)
/// the same call returns nothing, as for every source.
public protocol AwaitableFetching: DataSource {
    /// Starts a fetch as ``DataSource/fetchData()`` does and returns its handle.
    @discardableResult func fetchData() -> LoadHandle
}

extension DataSource where Self: AwaitableFetching {
    /// Starts a fetch (see ``AwaitableFetching/fetchData()``), ignoring its handle.
    public func fetchData() {
        let _: LoadHandle = fetchData()
    }
}

/// The handle of a source's load in flight, touched only under the source's engine lock.
final class LoadSlot: @unchecked Sendable {
    var current: LoadHandle?

    /// Removes and returns the handle, for its owner to end outside the lock.
    func take() -> LoadHandle? {
        defer { current = nil }
        return current
    }
}
