import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// A page fetcher driven by the test: each request waits until the test answers it. Wakes
/// waits when a request is recorded.
final class ScriptedPageFetcher: PageFetcher, Wakes, @unchecked Sendable {
    final class Request: @unchecked Sendable {
        let token: PageToken
        let answer: AsyncStream<Result<Page<Int>, any Error>>
        private let continuation: AsyncStream<Result<Page<Int>, any Error>>.Continuation
        init(token: PageToken) {
            self.token = token
            (answer, continuation) = AsyncStream.makeStream()
        }
        func respond(_ objects: [Int], next: PageToken?, info: PageInfo = PageInfo()) {
            continuation.yield(.success(Page(objects: objects, info: info, next: next)))
        }
        func fail(_ error: any Error) { continuation.yield(.failure(error)) }
    }

    private let lock = NSLock()
    private var storage: [Request] = []
    private var requestObserver: (@Sendable (Int) -> Void)?
    private let pulse = Pulse()
    var requests: [Request] { lock.withLock { storage } }
    var tokens: [PageToken] { requests.map(\.token) }

    /// Calls `observer` with the number of requests so far, after each request is recorded.
    func onRequest(_ observer: @escaping @Sendable (Int) -> Void) { lock.withLock { requestObserver = observer } }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { pulse.onChange(wake) }

    func fetchPage(_ token: PageToken) async throws -> Page<Int> {
        let request = Request(token: token)
        let (count, observer) = lock.withLock {
            storage.append(request)
            return (storage.count, requestObserver)
        }
        observer?(count)
        pulse.poke()
        for await result in request.answer { return try result.get() }
        throw CancellationError()
    }
}

/// Wraps a ``ScriptedPageFetcher`` and tells which requests are still open (not yet
/// answered, failed or cancelled). Wakes waits when a request opens or closes, and when
/// the inner fetcher records one.
final class OpenCountingFetcher: PageFetcher, Wakes, @unchecked Sendable {
    let inner = ScriptedPageFetcher()
    private let lock = NSLock()
    private var openTokens: [PageToken] = []
    private let pulse = Pulse()
    var open: [PageToken] { lock.withLock { openTokens } }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { Wakers([pulse, inner]).onChange(wake) }

    func fetchPage(_ token: PageToken) async throws -> Page<Int> {
        lock.withLock { openTokens.append(token) }
        pulse.poke()
        defer {
            lock.withLock { _ = openTokens.remove(at: openTokens.firstIndex(of: token)!) }
            pulse.poke()
        }
        return try await inner.fetchPage(token)
    }
}

/// The page number `token` names: 1 for the first page, 0 for a token without a number.
func pageNumber(_ token: PageToken) -> Int {
    if token == .first { return 1 }
    if case .number(let number) = token { return number }
    return 0
}

/// Observes `source` as a list does: each update displays the row of its last object, which
/// asks for the next page. `before` and `after` run around that call.
func observeAsAList(
    _ source: PaginatedDataSource<Int>, before: @escaping @Sendable () -> Void = {}, after: @escaping @Sendable () -> Void = {}
) -> SignalSubscription {
    source.updates.observe(emitsCurrentValue: false) { [weak source] update in
        before()
        defer { after() }
        let rows = update.snapshot.numberOfObjects(inSection: 0)
        if rows > 0 { source?.willDisplayRow(at: RowPath(item: rows - 1, section: 0)) }
    }
}

@Suite("Paginated data source")
struct PaginatedDataSourceTests {
    /// A source whose first page (1, 2) has been loaded, with page 2 next.
    func loaded(_ fetcher: ScriptedPageFetcher, placeholders: PlaceholderOptions = .default, maxPages: Int? = nil) async -> (PaginatedDataSource<Int>, EventLog) {
        let source = PaginatedDataSource(name: "feed", fetcher: fetcher, placeholders: placeholders, maxPages: maxPages)
        let log = EventLog(source)
        source.fetchData()
        await eventually("first request", until: fetcher) { fetcher.requests.count == 1 }
        fetcher.requests[0].respond([1, 2], next: .number(2), info: PageInfo(page: 1, pageSize: 2, numberOfPages: 3, totalCount: 6))
        await log.waitForFinishers(1)
        return (source, log)
    }

    @Test func firstPageThenNextPagesAppended() async {
        let fetcher = ScriptedPageFetcher()
        let (source, log) = await loaded(fetcher)
        #expect(log.values == [.willLoad, .didFinishLoading])
        #expect(source.snapshot.sections[0].rows == [.object(1), .object(2), .placeholder(.loadingMore)])
        #expect(source.pagination.value.info == PageInfo(page: 1, pageSize: 2, numberOfPages: 3, totalCount: 6))
        #expect(source.hasMorePages)

        source.fetchNextPage()
        #expect(source.pagination.value.isLoadingNextPage)
        await eventually("page 2 requested", until: fetcher) { fetcher.requests.count == 2 }
        #expect(fetcher.tokens == [.first, .number(2)])
        fetcher.requests[1].respond([3, 4], next: .number(3), info: PageInfo(page: 2, numberOfPages: 3))
        // The snapshot changes before the paging state is published: wait for the state.
        await eventually("page 2", until: source) { source.pagination.value.loadedPages == 2 }
        #expect(source.allObjects == [1, 2, 3, 4])
        source.fetchNextPage()
        await eventually("page 3 requested", until: fetcher) { fetcher.requests.count == 3 }
        fetcher.requests[2].respond([5, 6], next: .number(4), info: PageInfo(page: 3, numberOfPages: 3))
        await eventually("page 3", until: source) { source.pagination.value.loadedPages == 3 }
        #expect(source.allObjects == [1, 2, 3, 4, 5, 6])
        #expect(!source.hasMorePages, "page 3 of 3 is the last")
        #expect(source.snapshot.sections[0].placeholder == nil)
        // Past the last page the call ends at once, without starting a load.
        #expect(source.fetchNextPage().currentOutcome == .noMorePages)
        #expect(!source.pagination.value.isLoadingNextPage)
        #expect(fetcher.requests.count == 3)
    }

    @Test func emptyPageEndsPagination() async {
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher)
        source.fetchNextPage()
        await eventually("request", until: fetcher) { fetcher.requests.count == 2 }
        fetcher.requests[1].respond([], next: .number(3))
        await eventually("ended", until: source) { !source.hasMorePages }
        #expect(source.allObjects == [1, 2])
    }

    @Test func nextPageCallsAreCoalesced() async {
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher)
        let handles = (0..<10).map { _ in source.fetchNextPage() }
        source.willDisplayRow(at: RowPath(item: 1, section: 0))
        let afterDisplay = source.fetchNextPage()
        #expect((handles + [afterDisplay]).allSatisfy { $0 === handles[0] }, "every call joins the one load of page 2")
        await eventually("request", until: fetcher) { fetcher.requests.count == 2 }
        fetcher.requests[1].respond([3, 4], next: .number(3))
        // The load's outcome is set after its page is applied: a second request for page 2
        // (from a call that was not coalesced) would have been made before.
        #expect(await handles[0].outcome == .loaded(objects: 2))
        #expect(fetcher.tokens == [.first, .number(2)], "one request for page 2")
    }

    @Test func failedPageIsRetriedNotSkipped() async {
        let fetcher = ScriptedPageFetcher()
        let (source, log) = await loaded(fetcher, placeholders: .all)
        source.fetchNextPage()
        await eventually("request", until: fetcher) { fetcher.requests.count == 2 }
        fetcher.requests[1].fail(TestFailure("page 2 exploded"))
        await eventually("failed", until: source) { source.pagination.value.nextPageError != nil }
        #expect(source.pagination.value.nextPageError == .other(TestFailure("page 2 exploded")))
        #expect(source.loadState.value.content.phase == .loaded, "the first-load state is unaffected")
        #expect(source.snapshot.sections[0].placeholder == .error(message: "page 2 exploded"))
        #expect(source.allObjects == [1, 2], "prior content kept")
        #expect(log.values == [.willLoad, .didFinishLoading])
        source.willDisplayRow(at: RowPath(item: 1, section: 0))
        // A load would be reserved (state `.loading`) before willDisplayRow returns.
        #expect(source.pagination.value.nextPageError != nil && !source.pagination.value.isLoadingNextPage,
                "display does not hammer a failed page")
        #expect(fetcher.requests.count == 2, "display does not hammer a failed page")
        source.fetchNextPage()
        await eventually("retry", until: fetcher) { fetcher.requests.count == 3 }
        #expect(fetcher.tokens == [.first, .number(2), .number(2)])
        fetcher.requests[2].respond([3], next: nil)
        await eventually("retried", until: source) { source.pagination.value.loadedPages == 2 }
        #expect(source.allObjects == [1, 2, 3])
        #expect(source.pagination.value.nextPage == .idle)
    }

    @Test func prefetchTriggersNearTheEnd() async {
        let fetcher = ScriptedPageFetcher()
        let source = PaginatedDataSource(name: "feed", fetcher: fetcher, prefetchDistance: 1)
        let log = EventLog(source)
        source.fetchData()
        await eventually("first request", until: fetcher) { fetcher.requests.count == 1 }
        fetcher.requests[0].respond([1, 2, 3, 4], next: .number(2))
        await log.waitForFinishers(1)
        // A next-page load is reserved (state `.loading`) before willDisplayRow returns.
        source.willDisplayRow(at: RowPath(item: 1, section: 0))
        #expect(!source.pagination.value.isLoadingNextPage, "row 1 of 4 is not near the end")
        source.willDisplayRow(at: RowPath(item: 9, section: 0))
        source.willDisplayRow(at: RowPath(item: 0, section: 3))
        #expect(!source.pagination.value.isLoadingNextPage, "invalid paths are ignored")
        #expect(fetcher.requests.count == 1)
        source.willDisplayRow(at: RowPath(item: 2, section: 0))
        #expect(source.pagination.value.isLoadingNextPage)
        await eventually("prefetch", until: fetcher) { fetcher.requests.count == 2 }
        #expect(fetcher.tokens == [.first, .number(2)], "one request, from the last call")
    }

    @Test func refreshReplacesContentAtomicallyAndIgnoresOldPages() async {
        let fetcher = ScriptedPageFetcher()
        let (source, log) = await loaded(fetcher)
        let shown = Recorder<[Int]>()
        let subscription = source.updates.observe(emitsCurrentValue: false) { shown.append($0.snapshot.allObjects) }
        defer { subscription.cancel() }
        let page2 = source.fetchNextPage()
        await eventually("page 2 requested", until: fetcher) { fetcher.requests.count == 2 }
        source.fetchData()
        #expect(page2.currentOutcome == .cancelled, "the refresh ends the next-page load at once")
        #expect(source.allObjects == [1, 2], "old pages stay visible during a refresh")
        #expect(source.loadState.value.content.phase == .refreshing)
        await eventually("refresh requested", until: fetcher) { fetcher.requests.count == 3 }
        fetcher.requests[1].respond([3, 4], next: .number(3))
        fetcher.requests[2].respond([9, 8], next: .number(2))
        await log.waitForFinishers(2)
        #expect(!shown.values.contains { $0.contains(3) || $0.contains(4) }, "a page of the previous generation never lands: \(shown.values)")
        #expect(source.allObjects == [9, 8])
        #expect(source.pagination.value.loadedPages == 1)
    }

    @Test func duplicatesAcrossPagesAreDropped() async {
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher)
        source.fetchNextPage()
        await eventually("request", until: fetcher) { fetcher.requests.count == 2 }
        fetcher.requests[1].respond([2, 3, 3], next: .number(3))
        await eventually("page 2", until: source) { source.pagination.value.loadedPages == 2 }
        #expect(source.allObjects == [1, 2, 3])
    }

    @Test func identifiableObjectsAreDeduplicatedByID() async {
        struct Post: Identifiable, Hashable, Sendable {
            let id: Int
            let likes: Int
        }
        let fetcher = ClosurePageFetcher<Post> { token in
            switch token {
            case .first: Page(objects: [Post(id: 1, likes: 0), Post(id: 2, likes: 0)], next: .number(2))
            default: Page(objects: [Post(id: 2, likes: 5), Post(id: 3, likes: 0)], next: nil)
            }
        }
        let source = PaginatedDataSource(name: "posts", fetcher: fetcher)
        source.fetchData()
        await eventually("first page", until: source) { source.pagination.value.loadedPages == 1 }
        source.fetchNextPage()
        await eventually("second page", until: source) { source.pagination.value.loadedPages == 2 }
        #expect(source.allObjects.map(\.id) == [1, 2, 3], "post 2 shifted to page 2 with new likes: still one row")
        #expect(source.allObjects[1].likes == 0, "the first occurrence wins")
    }

    @Test func objectsWithCollidingHashesAreToldApartAndForgottenWithTheirPage() async {
        /// Every value hashes alike, so only `==` tells them apart.
        struct Colliding: Hashable, Sendable {
            let id: Int
            func hash(into hasher: inout Hasher) { hasher.combine(0) }
        }
        let pages: [[Int]] = [[1, 2], [3], [1, 3, 4], [1, 3, 4, 2]]
        let fetcher = ClosurePageFetcher<Colliding> { token in
            let page = pageNumber(token)
            return Page(objects: pages[page - 1].map(Colliding.init), next: page < pages.count ? .number(page + 1) : nil)
        }
        let source = PaginatedDataSource(name: "colliding", fetcher: fetcher, maxPages: 1)
        source.fetchData()
        await eventually("first page", until: source) { source.pagination.value.loadedPages == 1 }
        #expect(source.allObjects.map(\.id) == [1, 2])
        source.fetchNextPage()
        await eventually("page 2", until: source) { source.pagination.value.loadedPages == 2 }
        #expect(source.allObjects.map(\.id) == [3], "page 1 dropped: 1 and 2 forgotten")
        source.fetchNextPage()
        await eventually("page 3", until: source) { source.pagination.value.loadedPages == 3 }
        #expect(source.allObjects.map(\.id) == [1, 3, 4], "page 2 is dropped before page 3 is checked: 3 comes back")
        source.fetchNextPage()
        await eventually("page 4", until: source) { source.pagination.value.loadedPages == 4 }
        #expect(source.allObjects.map(\.id) == [1, 3, 4, 2], "page 3 is dropped first; 2 was forgotten with page 1")
    }

    /// A repeated hash value is checked against the shown object that has it, read from the
    /// snapshot while the dropped page is still in it (the positions are offset by it).
    @Test func aRepeatedHashValueIsCheckedAgainstTheRightShownObjectWhenAPageIsDropped() async {
        /// Odd and even values hash alike.
        struct Parity: Hashable, Sendable {
            let id: Int
            func hash(into hasher: inout Hasher) { hasher.combine(id % 2) }
        }
        let pages: [[Int]] = [[1, 2], [3, 4], [2, 5, 6, 4, 3]]
        let fetcher = ClosurePageFetcher<Parity> { token in
            let page = pageNumber(token)
            return Page(objects: pages[page - 1].map(Parity.init), next: page < pages.count ? .number(page + 1) : nil)
        }
        let source = PaginatedDataSource(name: "parity", fetcher: fetcher, maxPages: 2)
        source.fetchData()
        await eventually("first page", until: source) { source.pagination.value.loadedPages == 1 }
        for page in 2...3 {
            source.fetchNextPage()
            await eventually("page \(page)", until: source) { source.pagination.value.loadedPages == page }
        }
        #expect(source.allObjects.map(\.id) == [3, 4, 2, 5, 6], "page 1 dropped first: 2 comes back, 4 and 3 are shown")
    }

    @Test func aFetchStartedInABatchThatNeverSuspendsPublishesEveryEventInOrder() async {
        let fetcher = ClosurePageFetcher<Int> { _ in Page(objects: [1, 2], next: nil) }
        let source = PaginatedDataSource(name: "instant", fetcher: fetcher)
        let log = EventLog(source)
        batch { _ = source.fetchData() }
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didFinishLoading], "every event, in order")
        #expect(source.allObjects == [1, 2])
    }

    @Test func aWillLoadObserverThatCancelsKeepsTheFetcherFromStarting() async throws {
        let calls = Counter()
        let fetcher = ClosurePageFetcher<Int> { _ in
            calls.increment()
            return Page(objects: [1], next: nil)
        }
        let source = PaginatedDataSource(name: "cancelled at once", fetcher: fetcher)
        let log = EventLog(source)
        let canceller = source.loadEvents.observe { [weak source] event in
            if event == .willLoad { source?.cancelFetch() }
        }
        defer { canceller.cancel() }
        #expect(await source.fetchData().outcome == .cancelled)
        #expect(log.values == [.willLoad, .didFail(.cancelled)])
        // Barrier: a second fetch, not cancelled, calls the fetcher once and lands; the
        // cancelled fetch's task, started first, would have called it before.
        canceller.cancel()
        #expect(await source.fetchData().outcome == .loaded(objects: 1))
        #expect(calls.value == 1, "the cancelled fetch ended before its fetcher was started")
        #expect(log.values == [.willLoad, .didFail(.cancelled), .willLoad, .didFinishLoading])
    }

    @Test func nextPageIsRequestedAfterFetchNextPageReturns() async {
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher)
        source.fetchNextPage()
        await eventually("page 2 requested", until: fetcher) { fetcher.requests.count == 2 }
        #expect(fetcher.tokens == [.first, .number(2)])
    }

    @Test func aFetchCancelledBeforeItsTaskIsRegisteredEndsOnceAndLandsNothing() async {
        // The fetcher cancels the fetch that is running it before it first suspends, that is
        // while the source is still starting its task, then returns a page at once.
        final class SourceBox: @unchecked Sendable { weak var source: PaginatedDataSource<Int>? }
        let box = SourceBox()
        let calls = Recorder<PageToken>()
        let fetcher = ClosurePageFetcher<Int> { token in
            calls.append(token)
            if calls.count == 2 || calls.count == 4 { box.source?.cancelFetch() }
            return token == .first ? Page(objects: [1, 2], next: .number(2)) : Page(objects: [3], next: nil)
        }
        let source = PaginatedDataSource(name: "self-cancelling", fetcher: fetcher)
        box.source = source
        let log = EventLog(source)
        source.fetchData()
        await log.waitForFinishers(1)
        #expect(source.allObjects == [1, 2])
        let shown = Recorder<[Int]>()
        let subscription = source.updates.observe(emitsCurrentValue: false) { shown.append($0.snapshot.allObjects) }
        defer { subscription.cancel() }

        #expect(await source.fetchNextPage().outcome == .cancelled)  // call 2 cancels it
        #expect(source.allObjects == [1, 2], "the cancelled page never lands")
        #expect(source.pagination.value.nextPage == .idle && source.pagination.value.loadedPages == 1)

        #expect(await source.fetchData().outcome == .loaded(objects: 2))  // call 3 completes the refresh
        #expect(await source.fetchData().outcome == .cancelled)  // call 4 cancels it
        #expect(source.allObjects == [1, 2])
        let beforeCall5 = shown.count

        // call 5: the page is fetched again and lands; the fetches cancelled before (calls 2
        // and 4, whose fetchers returned at once) would have published anything before it.
        #expect(await source.fetchNextPage().outcome == .loaded(objects: 1))
        #expect(log.values == [.willLoad, .didFinishLoading, .willLoad, .didFinishLoading, .willLoad, .didFail(.cancelled)],
                "exactly one finisher per fetch")
        #expect(!shown.values.prefix(beforeCall5).contains { $0.contains(3) }, "the cancelled page never lands: \(shown.values)")
        #expect(source.pagination.value.loadedPages == 2)
        #expect(source.allObjects == [1, 2, 3])
        #expect(calls.values == [.first, .number(2), .first, .first, .number(2)])
    }

    @Test func pagesThatArriveWithoutSuspendingAllLoadWhenAnObserverAsksForEach() async {
        // Each page lands on the thread that asked for it, and an observer asks for the next
        // one at once, as a list does: the nested deliveries queue up instead of nesting, so
        // thousands of pages load without growing the stack or losing a page.
        let pageCount = 3_000
        let fetcher = ClosurePageFetcher<Int> { token in
            let page = pageNumber(token)
            return Page(objects: [page], next: page < pageCount ? .number(page + 1) : nil)
        }
        let source = PaginatedDataSource(name: "instant", fetcher: fetcher)
        let subscription = observeAsAList(source)
        defer { subscription.cancel() }
        source.fetchData()
        await eventually("every page", until: source) { source.pagination.value.loadedPages == pageCount }
        #expect(source.allObjects == Array(1...pageCount))
        #expect(!source.hasMorePages)
    }

    @Test func pagesAListObserverAsksForAreFetchedByOneTaskAfterEachDeliveryEnds() async {
        // A list asks for the next page from the update that shows the last one: the task
        // that applied a page fetches the next one itself, once that update's observers
        // have returned (no new task per page).
        let pageCount = 6
        let delivering = Recorder<Bool>()
        let requests = Recorder<(page: Int, task: Int, duringDelivery: Bool)>()
        let fetcher = ClosurePageFetcher<Int> { token in
            let page = pageNumber(token)
            let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
            requests.append((page, task, delivering.values.last ?? false))
            await Task.yield()
            return Page(objects: [page], next: page < pageCount ? .number(page + 1) : nil)
        }
        let source = PaginatedDataSource(name: "list", fetcher: fetcher)
        let subscription = observeAsAList(source, before: { delivering.append(true) }, after: { delivering.append(false) })
        defer { subscription.cancel() }
        source.fetchData()
        await eventually("every page", until: source) { source.pagination.value.loadedPages == pageCount }
        #expect(source.allObjects == Array(1...pageCount))
        let seen = requests.values
        #expect(seen.map(\.page) == Array(1...pageCount))
        #expect(Set(seen.dropFirst(2).map(\.task)) == [seen[1].task], "pages 3 and on are fetched by page 2's task")
        #expect(!seen.dropFirst(2).contains { $0.duringDelivery }, "each of them after the delivery that asked for it ended")
    }

    @Test func aNextPageAskedForAgainAfterACancelInTheSameDeliveryIsFetchedOnce() async {
        // The cancel stops the task that applied page 2 (it was to fetch page 3): the second
        // request for page 3 must not be left to that cancelled task.
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher)
        let asked = Recorder<Int>()
        let subscription = source.updates.observe(emitsCurrentValue: false) { [weak source] update in
            guard let source, update.snapshot.numberOfObjects(inSection: 0) == 4, asked.count == 0 else { return }
            asked.append(4)
            source.fetchNextPage()
            source.cancelFetch()
            source.fetchNextPage()
        }
        defer { subscription.cancel() }
        source.fetchNextPage()
        await eventually("page 2 requested", until: fetcher) { fetcher.requests.count == 2 }
        fetcher.requests[1].respond([3, 4], next: .number(3), info: PageInfo(page: 2, numberOfPages: 3))
        await eventually("page 3 requested", until: fetcher) { fetcher.requests.count == 3 }
        #expect(fetcher.tokens == [.first, .number(2), .number(3)])
        #expect(source.pagination.value.isLoadingNextPage)
        fetcher.requests[2].respond([5, 6], next: nil, info: PageInfo(page: 3, numberOfPages: 3))
        await eventually("page 3", until: source) { source.pagination.value.loadedPages == 3 }
        #expect(source.allObjects == [1, 2, 3, 4, 5, 6])
    }

    @Test func aNextPageAskedForAndThenCancelledOrRefreshedInTheSameDeliveryIsNotFetched() async {
        for refreshes in [false, true] {
            let fetcher = ScriptedPageFetcher()
            let (source, log) = await loaded(fetcher)
            let subscription = source.updates.observe(emitsCurrentValue: false) { [weak source] update in
                guard let source, update.snapshot.numberOfObjects(inSection: 0) == 4 else { return }
                source.fetchNextPage()
                if refreshes { source.fetchData() } else { source.cancelFetch() }
            }
            source.fetchNextPage()
            await eventually("page 2 requested", until: fetcher) { fetcher.requests.count == 2 }
            fetcher.requests[1].respond([3, 4], next: .number(3), info: PageInfo(page: 2, numberOfPages: 3))
            await eventually("page 2", until: source) { source.pagination.value.loadedPages == 2 }
            subscription.cancel()
            if refreshes {
                await eventually("the refresh's request", until: fetcher) { fetcher.requests.count == 3 }
                #expect(fetcher.tokens == [.first, .number(2), .first], "no page 3 request")
                fetcher.requests[2].respond([7], next: nil)
                await log.waitForFinishers(2)
                #expect(source.allObjects == [7])
            } else {
                #expect(source.pagination.value.nextPage == .idle && source.hasMorePages)
                // Barrier: page 3 asked for now is a new load (not one left running) and is
                // requested once; a request left to page 2's task would have come first.
                let page3 = source.fetchNextPage()
                #expect(page3.currentOutcome == nil)
                await eventually("page 3 requested", until: fetcher) { fetcher.requests.count == 3 }
                fetcher.requests[2].respond([5, 6], next: nil)
                #expect(await page3.outcome == .loaded(objects: 2))
                #expect(fetcher.tokens == [.first, .number(2), .number(3)], "no page 3 request before")
                #expect(source.allObjects == [1, 2, 3, 4, 5, 6])
            }
        }
    }

    /// Task A applies page 2 and an observer holds its delivery on A's thread. Meanwhile
    /// page 3 is asked for from another thread (task B), lands, and an observer of B's
    /// delivery asks for page 4. B must fetch page 4, not A: then cancelling cancels the
    /// request, and asking again does not request page 4 twice at once.
    ///
    /// Runs in a process of its own (an exit test): holding A's delivery blocks a thread of
    /// the cooperative pool until B, a task that needs another pool thread, has delivered.
    /// Beside the whole suite on a 2-core machine that left the pool one thread for 40-80 s
    /// (B, and every fetch task of the other suites, queued behind the sync tests it ran).
    @Test func aPageAskedForInOneTasksDeliveryIsNotTakenByAnotherTaskWhoseDeliveryWasSlow() async {
        await #expect(processExitsWith: .success) {
            await PaginatedDataSourceTests.aPageAskedForInOneTasksDeliveryIsNotTakenByASlowTask()
        }
    }

    static func aPageAskedForInOneTasksDeliveryIsNotTakenByASlowTask() async {
        let fetcher = OpenCountingFetcher()
        let source = PaginatedDataSource(name: "feed", fetcher: fetcher)
        source.fetchData()
        await eventually("first request", until: fetcher) { fetcher.inner.requests.count == 1 }
        fetcher.inner.requests[0].respond([1, 2], next: .number(2), info: PageInfo(page: 1, numberOfPages: 9))
        await eventually("page 1", until: source) { source.pagination.value.loadedPages == 1 }

        let release = DispatchSemaphore(value: 0)
        // Signalled when page 4 is requested, or when page 2's task (A) has ended: after that
        // A can no longer take page 4 (see below).
        let settled = DispatchSemaphore(value: 0)
        let taskA = Releases()
        let taskAEnded = taskA.onChange { if taskA.pending.isEmpty { settled.signal() } }
        let carried = Recorder<Bool>()
        fetcher.inner.onRequest { count in
            if count == 2 { carried.append(SlowTaskMarker.token != nil) }
            if count == 4 { settled.signal() }
        }
        let held = Recorder<Bool>()
        let asked = Recorder<Bool>()
        let stuck = Recorder<Bool>()
        // Registered first, so it is not queued behind the held delivery.
        let asksForPage4 = source.updates.observe(emitsCurrentValue: false) { [weak source] update in
            guard let source, update.snapshot.numberOfObjects(inSection: 0) == 6, asked.count == 0 else { return }
            asked.append(true)
            source.fetchNextPage()
            release.signal()
            // Holds this delivery until page 4 is requested or A has ended: B requests it only
            // once this delivery ends, so a request now is A taking it wrongly, and once A has
            // ended it has had every chance to. (The timeout is a hang guard only.)
            if settled.wait(timeout: .now() + 120) == .timedOut { stuck.append(true) }
        }
        let holdsPage2 = source.updates.observe(emitsCurrentValue: false) { update in
            guard update.snapshot.numberOfObjects(inSection: 0) == 4, held.count == 0 else { return }
            held.append(true)
            release.wait()
        }
        defer { asksForPage4.cancel(); holdsPage2.cancel(); taskAEnded.cancel() }

        // Page 2's task (A) inherits this task-local token and holds it until it ends.
        SlowTaskMarker.$token.withValue(taskA.token("page 2's task")) { _ = source.fetchNextPage() }
        await eventually("page 2 requested", until: fetcher) { fetcher.inner.requests.count == 2 }
        #expect(carried.values == [true], "page 2's task carries the token whose release ends the hold")
        fetcher.inner.requests[1].respond([3, 4], next: .number(3), info: PageInfo(page: 2, numberOfPages: 9))
        await eventually("page 2's delivery held", until: held) { held.count == 1 }
        source.fetchNextPage()
        await eventually("page 3 requested", until: fetcher) { fetcher.inner.requests.count == 3 }
        fetcher.inner.requests[2].respond([5, 6], next: .number(4), info: PageInfo(page: 3, numberOfPages: 9))
        await eventually("page 4 requested", until: fetcher) { fetcher.inner.requests.count == 4 }
        await eventually("page 3", until: source) { source.pagination.value.loadedPages == 3 }
        #expect(fetcher.inner.tokens == [.first, .number(2), .number(3), .number(4)])
        #expect(stuck.values.isEmpty, "neither was page 4 requested nor did page 2's task end while page 3's delivery was held (hang guard: 120 s)")

        source.cancelFetch()
        await eventually("the page 4 request cancelled", until: fetcher) { fetcher.open.isEmpty }
        source.fetchNextPage()
        await eventually("page 4 requested again", until: fetcher) { fetcher.inner.requests.count == 5 }
        #expect(fetcher.open == [.number(4)], "one page 4 request open")
        fetcher.inner.requests[4].respond([7, 8], next: nil)
        await eventually("page 4", until: source) { source.pagination.value.loadedPages == 4 }
        #expect(source.allObjects == Array(1...8))
    }

    @Test func aNextPageCancelledBeforeItsTaskIsRecordedHasItsRequestCancelled() async {
        // The fetcher cancels the load it runs before it first suspends (the source has no
        // task handle yet); the task must still be cancelled once the handle exists.
        final class SourceBox: @unchecked Sendable { weak var source: PaginatedDataSource<Int>? }
        let box = SourceBox()
        let ended = Recorder<Bool>()
        let fetcher = ClosurePageFetcher<Int> { token in
            if token == .first { return Page(objects: [1, 2], next: .number(2)) }
            box.source?.cancelFetch()
            defer { ended.append(true) }
            try await untilCancelled()
            return Page(objects: [3], next: nil)
        }
        let source = PaginatedDataSource(name: "self-cancelling", fetcher: fetcher)
        box.source = source
        source.fetchData()
        await eventually("page 1", until: source) { source.pagination.value.loadedPages == 1 }
        source.fetchNextPage()
        await eventually("the cancelled request ends", until: ended) { ended.count == 1 }
        #expect(source.pagination.value.nextPage == .idle && source.allObjects == [1, 2])
    }

    @Test func maxPagesDropsTheOldestPages() async {
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher, maxPages: 2)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = source.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        for page in 2...3 {
            source.fetchNextPage()
            await eventually("request", until: fetcher) { fetcher.requests.count == page }
            fetcher.requests[page - 1].respond([page * 10, page * 10 + 1], next: .number(page + 1))
            await eventually("page", until: source) { source.pagination.value.loadedPages == page }
        }
        #expect(source.allObjects == [20, 21, 30, 31])
        expectChangeSetsReplay(seen.values)
    }

    /// The limit drops the oldest page before the new one is checked for duplicates: an
    /// object that was only on the dropped page comes back rather than vanishing with it.
    @Test func maxPagesDropsBeforeCheckingDuplicates() async {
        let fetcher = ScriptedPageFetcher()
        let (source, _) = await loaded(fetcher, maxPages: 1)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = source.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        source.fetchNextPage()
        await eventually("request", until: fetcher) { fetcher.requests.count == 2 }
        fetcher.requests[1].respond([2, 1, 2, 5], next: .number(3))
        await eventually("page", until: source) { source.pagination.value.loadedPages == 2 }
        #expect(source.allObjects == [2, 1, 5])
        #expect(source.snapshot.sections[0].rows.last == .placeholder(.loadingMore))
        // The next page replaces [2, 1, 5] and is checked only against itself.
        source.fetchNextPage()
        await eventually("request", until: fetcher) { fetcher.requests.count == 3 }
        fetcher.requests[2].respond([5, 6, 6], next: .number(4))
        await eventually("page", until: source) { source.pagination.value.loadedPages == 3 }
        #expect(source.allObjects == [5, 6])
        expectChangeSetsReplay(seen.values)
    }

    @Test func cancelStopsRefreshAndNextPage() async {
        let fetcher = ScriptedPageFetcher()
        let (source, log) = await loaded(fetcher)
        let shown = Recorder<[Int]>()
        let subscription = source.updates.observe(emitsCurrentValue: false) { shown.append($0.snapshot.allObjects) }
        defer { subscription.cancel() }
        let page2 = source.fetchNextPage()
        await eventually("request", until: fetcher) { fetcher.requests.count == 2 }
        source.cancelFetch()
        #expect(page2.currentOutcome == .cancelled)
        #expect(source.pagination.value.nextPage == .idle)
        fetcher.requests[1].respond([3], next: nil)
        #expect(source.allObjects == [1, 2])
        source.fetchData()
        source.cancelFetch()
        await log.waitForFinishers(2)
        #expect(!shown.values.contains { $0.contains(3) }, "the cancelled page never lands: \(shown.values)")
        #expect(log.values.suffix(2) == [.willLoad, .didFail(.cancelled)])
        #expect(source.allObjects == [1, 2])
    }

    @Test func lifecycleContract() async {
        let fetcher = ScriptedPageFetcher()
        let source = PaginatedDataSource(name: "feed", fetcher: fetcher)
        let answered = Recorder<Int>()
        await checkLifecycleContract(of: source, settle: {
            for (index, request) in fetcher.requests.enumerated() where !answered.values.contains(index) {
                answered.append(index)
                request.respond([index], next: nil)
            }
        }, doubles: [fetcher])
    }
}

/// A token the task that fetches a page inherits from the test's task (task-local values
/// are copied into a task created with `Task {}`): its release says that task has ended.
enum SlowTaskMarker {
    @TaskLocal static var token: ReleaseToken?
}
