import Foundation

/// A reserved next-page load: the page's token and the load's sequence number (a result is
/// applied only while the sequence is current).
typealias NextPageLoad = (token: PageToken, sequence: UInt64)

/// The paginated source's bookkeeping, touched only under its engine's lock.
final class PageBook<Object: Sendable & Equatable>: @unchecked Sendable {
    var next: PageToken?
    /// The objects of the last page applied, as received (to see a page repeated); empty
    /// once paging has ended.
    var lastPage: [Object] = []
    var pageCounts: [Int] = [] {
        didSet { objectCount = pageCounts.reduce(0, +) }
    }
    /// The objects shown: the pages' counts added up (pages are the only way objects land).
    /// Kept up to date when a page lands, since `willDisplayRow` reads it for every row.
    private(set) var objectCount = 0
    /// The placeholder row the section shows (the source is its only writer).
    var placeholder: Placeholder?
    /// The thread that last applied a next page, until that page's delivery ends, and the
    /// loader whose task applied it.
    var applying: (thread: pthread_t, loader: PageLoader)?
    /// Identifies the current next-page load; bumped to make older ones obsolete.
    var sequence: UInt64 = 0
    /// The task loading the current next page, if any.
    var loader: PageLoader?
    /// The handle of the current next-page load, if any.
    var nextLoad: LoadHandle?
}

/// A task that loads next pages (one, or several in a row: see
/// ``PaginatedDataSource/fetchNextPage()``), cancellable before its `Task` is recorded.
/// Touched only under the source's engine lock.
final class PageLoader: @unchecked Sendable {
    private var task: Task<Void, Never>?
    private(set) var isCancelled = false
    /// The next page an observer asked for while this loader's page was delivered on its
    /// thread: the loader's task fetches it when the delivery ends.
    var continuation: NextPageLoad?

    /// Records the loader's task, cancelling it if the loader was cancelled meanwhile.
    func started(_ task: Task<Void, Never>) {
        self.task = task
        if isCancelled { task.cancel() }
    }

    /// Cancels the loader's task, now or as soon as it is recorded.
    func cancel() {
        isCancelled = true
        task?.cancel()
    }
}
