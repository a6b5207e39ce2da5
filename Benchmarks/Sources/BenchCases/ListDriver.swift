import Foundation
import ReactiveSources
import Signals

/// Drives a Paginated source as a list drives it: an `updates` observer tells the source
/// the last row is displayed each time rows land, which fetches the next page. The drive
/// ends when that observer sees no more pages (nothing else wakes up per page), or when a
/// load fails: then it throws instead of waiting for pages that never come.
enum ListDriver {
    /// Fetches and shows every page of `source`; checks that `total` objects are shown.
    /// `onUpdate` runs first in each `updates` delivery (for timing the source's work).
    /// `holdingSnapshot`: the driver keeps the last snapshot it was given until the next one,
    /// as a list's data source does to answer row queries.
    static func drive<Item: Hashable & Sendable>(
        _ source: PaginatedDataSource<Item>, expecting total: Int, holdingSnapshot: Bool = false, onUpdate: (@Sendable () -> Void)? = nil
    ) async throws {
        let shown = ShownSnapshot<Item>()
        let subscription = SubscriptionBox()
        let failures = SubscriptionBox()
        let pageFailures = SubscriptionBox()
        let failure = FailureBox()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            subscription.set(source.updates.observe(emitsCurrentValue: false) { [weak source] update in
                onUpdate?()
                if holdingSnapshot { shown.set(update.snapshot) }
                guard let source else { return }
                let rows = update.snapshot.numberOfObjects(inSection: 0)
                guard rows > 0 else { return }
                if source.hasMorePages {
                    source.willDisplayRow(at: RowPath(item: rows - 1, section: 0))
                } else if subscription.cancel() {
                    done.resume()
                }
            })
            failures.set(source.loadEvents.observe { event in
                guard case .didFail(let error) = event else { return }
                failure.record("the first page failed: \(error.message)")
                if subscription.cancel() { done.resume() }
            })
            pageFailures.set(source.pagination.observe(emitsCurrentValue: false) { state in
                guard let error = state.nextPageError else { return }
                failure.record("page \(state.loadedPages + 1) failed: \(error.message)")
                if subscription.cancel() { done.resume() }
            })
            source.fetchData()
        }
        _ = failures.cancel()
        _ = pageFailures.cancel()
        if let message = failure.message { throw BenchFailure("paginated (list): \(message)") }
        let count = source.snapshot.numberOfObjects(inSection: 0)
        check(count == total && !source.hasMorePages, "paginated (list): \(count) objects, expected \(total)")
    }
}

/// The snapshot a list shows, kept between updates (``ListDriver``'s `holdingSnapshot`).
final class ShownSnapshot<Item: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var snapshot: Snapshot<Item>?

    func set(_ snapshot: Snapshot<Item>) { lock.withLock { self.snapshot = snapshot } }
}
