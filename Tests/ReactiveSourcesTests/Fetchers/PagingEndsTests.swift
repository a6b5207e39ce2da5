import Foundation
import Testing
@testable import ReactiveSources

/// Paging always ends, against the fixture server: a has-more key, a page of duplicates, the
/// same page forever, an empty page in the middle of a declared page count.
@Suite("Paging that always ends")
struct PagingEndsTests {
    let server = FixtureServer.shared

    func feed(_ path: String, tag: String, query: [String: String] = [:], paging: PageNumberPaging = PageNumberPaging(pageSize: 10)) -> PaginatedDataSource<FixtureItem> {
        let items = [URLQueryItem(name: "tag", value: tag)] + query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let fetcher = HTTPPageFetcher<FixtureItem>(configuration: server.configuration(), apiPath: path, queryItems: items, keyPath: "items", paging: paging)
        return PaginatedDataSource(fetcher: fetcher, retry: .none, nextPageRetry: .none)
    }

    /// Fetches the first page, then next pages while there are more (at most `limit`).
    func loadAll(_ feed: PaginatedDataSource<FixtureItem>, limit: Int = 20) async {
        feed.fetchData()
        await feed.settled()
        for _ in 0..<limit where feed.hasMorePages {
            feed.fetchNextPage()
            await eventually("page", until: feed) { !feed.pagination.value.isLoadingNextPage }
        }
    }

    func pages(_ tag: String) async throws -> [String?] {
        try await server.requests(tagged: tag).map { $0.query["page"] }
    }

    /// An /items page body with `ids`, declaring 4 pages.
    func body(page: Int, ids: [Int]) -> String {
        let items = ids.map { #"{"id": \#($0), "title": "Item \#($0)"}"# }.joined(separator: ", ")
        return #"{"page": \#(page), "page_size": 10, "number_of_pages": 4, "total_count": 35, "items": [\#(items)]}"#
    }

    @Test func hasMoreFalseEndsWithoutAnExtraEmptyRequest() async throws {
        let tag = uniqueTag()
        // 30 items in pages of 10: without has_more, page 4 (empty) would be asked for.
        let feed = feed("se", tag: tag, query: ["total": "30"], paging: PageNumberPaging(keys: .stackExchange, pageSize: 10))
        await loadAll(feed)
        #expect(feed.allObjects.map(\.id) == Array(1...30))
        #expect(try await pages(tag) == ["1", "2", "3"])
        #expect(feed.pagination.value.end == .lastPage)
        #expect(feed.pagination.value.info.hasMore == false && feed.pagination.value.info.totalCount == 30)
        let sent = try await server.requests(tagged: tag)
        #expect(sent.allSatisfy { $0.query["pagesize"] == "10" }, "StackExchange's page size parameter")
    }

    @Test func aPageOfOnlyDuplicatesEndsPaging() async throws {
        let tag = uniqueTag()
        let feed = feed("items", tag: tag, query: ["total": "35"])
        feed.fetchData()
        await feed.settled()
        feed.fetchNextPage()
        await eventually("page 2", until: feed) { feed.allObjects.count == 20 }
        try await server.script(tag: tag, [["body": body(page: 3, ids: Array(1...10))]])
        feed.fetchNextPage()
        await eventually("page 3", until: feed) { !feed.pagination.value.isLoadingNextPage }
        #expect(feed.allObjects.map(\.id) == Array(1...20))
        #expect(feed.pagination.value.end == .noNewObjects && !feed.hasMorePages)
        #expect(feed.snapshot.sections[0].placeholder == nil, "no loading-more row once paging ended")
        feed.fetchNextPage()
        #expect(try await pages(tag) == ["1", "2", "3"], "nothing more is asked for")
    }

    @Test func theSamePageForeverEndsAfterTheRepeat() async throws {
        let tag = uniqueTag()
        let feed = feed("same", tag: tag)
        await loadAll(feed)
        #expect(feed.allObjects.map(\.id) == Array(1...5))
        #expect(feed.pagination.value.end == .repeatedPage)
        #expect(try await pages(tag) == ["1", "2"])
    }

    @Test func anEmptyPageInTheMiddleOfADeclaredPageCountEndsPagingUntilARefresh() async throws {
        let tag = uniqueTag()
        let feed = feed("items", tag: tag, query: ["total": "35"])
        feed.fetchData()
        await feed.settled()
        try await server.script(tag: tag, [["body": body(page: 2, ids: [])]])
        feed.fetchNextPage()
        await eventually("page 2", until: feed) { !feed.pagination.value.isLoadingNextPage }
        #expect(feed.pagination.value.end == .emptyPage && !feed.hasMorePages)
        #expect(feed.pagination.value.info.numberOfPages == 4, "the declared count is still reported")
        #expect(feed.allObjects.count == 10)

        feed.fetchData()
        await feed.settled()
        #expect(feed.pagination.value.end == nil && feed.hasMorePages, "a refresh starts over")
        await loadAll(feed)
        #expect(feed.allObjects.count == 35 && feed.pagination.value.end == .lastPage)
    }
}

@Suite("map and compactMap on fetchers")
struct FetcherMappingTests {
    let server = FixtureServer.shared

    struct Row: Hashable, Sendable {
        var label: String
    }

    @Test func pageFetchersMapAndCompactMapKeepingInfoAndNext() async throws {
        let fetcher = HTTPPageFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "items",
            queryItems: [URLQueryItem(name: "total", value: "25")], keyPath: "items", paging: PageNumberPaging(pageSize: 10)
        )
        let mapped = try await fetcher.map { Row(label: "#\($0.id)") }.fetchPage(.first)
        #expect(mapped.objects.first == Row(label: "#1") && mapped.objects.count == 10)
        #expect(mapped.next == .number(2) && mapped.info.numberOfPages == 3)

        let evens = fetcher.compactMap { $0.id.isMultiple(of: 2) ? Row(label: "#\($0.id)") : nil }
        let feed = PaginatedDataSource(fetcher: evens, retry: .none, nextPageRetry: .none)
        feed.fetchData()
        await feed.settled()
        while feed.hasMorePages {
            feed.fetchNextPage()
            await eventually("page", until: feed) { !feed.pagination.value.isLoadingNextPage }
        }
        #expect(feed.allObjects.map(\.label) == stride(from: 2, through: 24, by: 2).map { "#\($0)" })
        #expect(feed.pagination.value.end == .lastPage)
    }

    @Test func plainFetchersCompactMap() async throws {
        let fetcher = HTTPCollectionFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "items", queryItems: [URLQueryItem(name: "total", value: "6")], keyPath: "items"
        )
        let source = RemoteDataSource(fetcher: fetcher.compactMap { $0.group == "G1" ? $0.title : nil }, retry: .none)
        source.fetchData()
        await source.settled()
        #expect(source.allObjects == ["Item 1", "Item 4"])
    }
}
