import Foundation
import Testing
@testable import ReactiveSources

/// Awaitable loads: `fetchData()` and `fetchNextPage()` return a handle whose outcome can be
/// awaited, against the fixture server.
@Suite("Awaitable loads")
struct LoadOutcomeTests {
    let server = FixtureServer.shared

    func remote(_ path: String = "items", tag: String, query: [String: String] = [:]) -> RemoteDataSource<FixtureItem> {
        let items = [URLQueryItem(name: "tag", value: tag)] + query.map { URLQueryItem(name: $0.key, value: $0.value) }
        return RemoteDataSource(
            fetcher: HTTPCollectionFetcher<FixtureItem>(configuration: server.configuration(), apiPath: path, queryItems: items, keyPath: "items"),
            retry: .none
        )
    }

    func feed(tag: String, total: Int = 25) -> PaginatedDataSource<FixtureItem> {
        let fetcher = HTTPPageFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "items",
            queryItems: [URLQueryItem(name: "tag", value: tag), URLQueryItem(name: "total", value: String(total))],
            keyPath: "items", paging: PageNumberPaging(pageSize: 10)
        )
        return PaginatedDataSource(fetcher: fetcher, retry: .none, nextPageRetry: .none)
    }

    @Test func aRemoteFetchReturnsItsOutcome() async {
        let tag = uniqueTag()
        let source = remote(tag: tag, query: ["total": "3"])
        #expect(await source.fetchData().outcome == .loaded(objects: 3))
        #expect(source.allObjects.count == 3, "the outcome comes after the snapshot")
        #expect(source.loadState.value.status == .finished)

        let missing = remote("status/404", tag: tag)
        guard case .failed(.httpStatus(404, _, _, _)) = await missing.fetchData().outcome else {
            Issue.record("expected a failed 404")
            return
        }
    }

    @Test func cancelledAndSupersededFetchesSayCancelled() async throws {
        let tag = uniqueTag()
        let source = remote("slow", tag: tag, query: ["ms": "5000", "total": "2"])
        let first = source.fetchData()
        let second = source.fetchData()
        #expect(await first.outcome == .cancelled)
        source.cancelFetch()
        #expect(await second.outcome == .cancelled)
        #expect(second.currentOutcome == .cancelled)
        let fast = remote(tag: tag, query: ["total": "2"])
        #expect(await fast.fetchData().outcome == .loaded(objects: 2))
        let dropped = remote(tag: tag).fetchData()
        #expect(await dropped.outcome == .cancelled, "a source going away cancels its load")
    }

    @Test func pagesReturnTheirOutcomeAndTheEndSaysNoMorePages() async throws {
        let tag = uniqueTag()
        let feed = feed(tag: tag)
        #expect(await feed.fetchData().outcome == .loaded(objects: 10))
        try await server.script(tag: tag, [["delay_ms": 1_000]]) // page 2 stays in flight
        let page2 = feed.fetchNextPage()
        #expect(feed.fetchNextPage() === page2, "a coalesced call returns the load in flight")
        #expect(await page2.outcome == .loaded(objects: 10))
        #expect(await feed.fetchNextPage().outcome == .loaded(objects: 5))
        #expect(await feed.fetchNextPage().outcome == .noMorePages)
        #expect(feed.allObjects.map(\.id) == Array(1...25))
    }

    @Test func aFailedOrCancelledNextPageSaysSo() async throws {
        let tag = uniqueTag()
        let feed = feed(tag: tag)
        _ = await feed.fetchData().outcome
        try await server.script(tag: tag, [["status": 400, "body": "bad page"], ["delay_ms": 5_000], ["delay_ms": 5_000]])
        guard case .failed(.httpStatus(400, _, "bad page", _)) = await feed.fetchNextPage().outcome else {
            Issue.record("expected the 400")
            return
        }
        let slow = feed.fetchNextPage()
        feed.cancelFetch()
        #expect(await slow.outcome == .cancelled)
        let refreshed = feed.fetchNextPage()
        let refresh = feed.fetchData()
        #expect(await refreshed.outcome == .cancelled, "a refresh cancels the next page in flight")
        #expect(await refresh.outcome == .loaded(objects: 10))
    }

    @Test func throughTheProtocolFetchDataStaysFireAndForget() async {
        func refresh(_ source: some DataSource) { source.fetchData() }
        let tag = uniqueTag()
        let source = remote(tag: tag, query: ["total": "4"])
        refresh(source)
        let state = await source.settled()
        #expect(state.status == .finished && source.allObjects.count == 4)
    }
}
