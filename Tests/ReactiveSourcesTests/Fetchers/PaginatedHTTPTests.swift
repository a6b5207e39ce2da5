import Foundation
import Testing
@testable import ReactiveSources

@Suite("Paginated and Remote sources over real HTTP")
struct PaginatedHTTPTests {
    let server = FixtureServer.shared

    func source(
        _ path: String = "items",
        tag: String,
        total: Int = 35,
        pageSize: Int = 10,
        keyPath: String = "items",
        paging: any PagingStrategy = PageNumberPaging(pageSize: 10),
        extra: [URLQueryItem] = [],
        timeout: TimeInterval = 10
    ) -> PaginatedDataSource<FixtureItem> {
        let query = [URLQueryItem(name: "tag", value: tag), URLQueryItem(name: "total", value: String(total)),
                     URLQueryItem(name: "page_size", value: String(pageSize))] + extra
        let fetcher = HTTPPageFetcher<FixtureItem>(
            configuration: server.configuration(timeout: timeout), apiPath: path, queryItems: query, keyPath: keyPath, paging: paging
        )
        return PaginatedDataSource(name: "Feed", fetcher: fetcher, identity: { AnyHashable($0.id) }, retry: .none, nextPageRetry: .none)
    }

    func waitIdle(_ source: PaginatedDataSource<FixtureItem>) async {
        await eventually("idle", until: source) { !source.loadState.value.isFetching && !source.pagination.value.isLoadingNextPage }
    }

    @Test func pageNumberPagingParsesAllFourPaginatorKeysAndStopsAtTheLastPage() async throws {
        let tag = uniqueTag()
        let feed = source(tag: tag)
        feed.fetchData()
        await waitIdle(feed)
        #expect(feed.pagination.value.info == PageInfo(page: 1, pageSize: 10, numberOfPages: 4, totalCount: 35))
        #expect(feed.hasMorePages)
        #expect(feed.snapshot.sections[0].placeholder == .loadingMore, "a trailing loading row while more pages exist")
        for _ in 0..<5 {
            feed.fetchNextPage()
            await waitIdle(feed)
        }
        #expect(feed.allObjects.map(\.id) == Array(1...35))
        #expect(!feed.hasMorePages)
        #expect(feed.pagination.value.info.page == 4)
        #expect(feed.snapshot.sections[0].placeholder == nil)
        let pages = try await server.requests(tagged: tag).map { $0.query["page"] }
        #expect(pages == ["1", "2", "3", "4"], "no page requested twice, none after the last")
    }

    @Test func concurrentNextPageCallsAreCoalesced() async throws {
        let tag = uniqueTag()
        let feed = source(tag: tag)
        feed.fetchData()
        await waitIdle(feed)
        // Page 2 answers late enough for all eight calls to meet it in flight, even on a
        // loaded machine (a call after it lands would rightly ask for page 3).
        try await server.script(tag: tag, [["delay_ms": 1_500]])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { feed.fetchNextPage() } }
        }
        await waitIdle(feed)
        let pages = try await server.requests(tagged: tag).map { $0.query["page"] }
        #expect(pages == ["1", "2"])
        #expect(feed.allObjects.count == 20)
    }

    @Test func aFailedPageIsRetriedAndKeepsTheContent() async throws {
        let tag = uniqueTag()
        let feed = source(tag: tag)
        feed.fetchData()
        await waitIdle(feed)
        try await server.script(tag: tag, [["status": 500, "body": "database on fire"]])
        feed.fetchNextPage()
        await waitIdle(feed)
        guard case .failed(let error) = feed.pagination.value.nextPage else {
            Issue.record("expected a next-page failure, got \(feed.pagination.value.nextPage)")
            return
        }
        #expect(error.message.contains("HTTP 500"))
        #expect(error.message.contains("database on fire"))
        #expect(feed.loadState.value.error == nil, "the first-load state is not an error")
        #expect(feed.allObjects.count == 10, "content kept")
        feed.fetchNextPage()
        await waitIdle(feed)
        #expect(feed.allObjects.map(\.id) == Array(1...20))
        let pages = try await server.requests(tagged: tag).map { $0.query["page"] }
        #expect(pages == ["1", "2", "2"], "the failed page was retried, not skipped")
    }

    @Test func displayingTheLastRowPrefetchesTheNextPage() async throws {
        let tag = uniqueTag()
        let feed = source(tag: tag)
        feed.fetchData()
        await waitIdle(feed)
        feed.willDisplayRow(at: RowPath(item: 3, section: 0))
        #expect(!feed.pagination.value.isLoadingNextPage, "far from the end: nothing happens")
        feed.willDisplayRow(at: RowPath(item: 9, section: 0))
        await waitIdle(feed)
        #expect(feed.allObjects.count == 20)
        feed.willDisplayRow(at: RowPath(item: 99, section: 0))
        feed.willDisplayRow(at: IndexPath(indexes: [0]))
        await waitIdle(feed)
        #expect(feed.allObjects.count == 20, "invalid paths are ignored")
    }

    @Test func aRefreshReplacesContentOnlyWhenItsFirstPageArrivesAndSupersedesTheOlderOne() async throws {
        let tag = uniqueTag()
        let feed = source(tag: tag)
        feed.fetchData()
        await waitIdle(feed)
        feed.fetchNextPage()
        await waitIdle(feed)
        #expect(feed.allObjects.count == 20)

        // Refresh A is slow, refresh B is fast: B's page lands and A ends cancelled. (A's
        // delay outlasts any stall of the test; B's cancel of A closes its connection, so A
        // never answers here: that a late answer is ignored is checked with fake transports,
        // in the seeded interleavings.)
        try await server.script(tag: tag, [["delay_ms": 10_000], ["delay_ms": 0]])
        let log = EventLog(feed)
        feed.fetchData()
        #expect(feed.allObjects.count == 20, "old pages stay visible while refreshing")
        #expect(feed.contentState.value.phase == .refreshing)
        await server.awaitRequests(tagged: tag, count: 3)  // refresh A reached the server
        let refreshB = feed.fetchData()
        #expect(await refreshB.outcome == .loaded(objects: 10))
        #expect(log.values == [.willLoad, .didFail(.cancelled), .willLoad, .didFinishLoading])
        #expect(feed.allObjects.map(\.id) == Array(1...10))
        #expect(feed.pagination.value.loadedPages == 1)
        // Barrier: a third refresh, run to its end; anything more from A or B would come first.
        #expect(await feed.fetchData().outcome == .loaded(objects: 10))
        #expect(log.values == [.willLoad, .didFail(.cancelled), .willLoad, .didFinishLoading, .willLoad, .didFinishLoading])
        #expect(feed.allObjects.map(\.id) == Array(1...10))
        #expect(feed.pagination.value.loadedPages == 1)
    }

    @Test func cancelInFlightClosesTheConnectionAndResetsFetching() async throws {
        let tag = uniqueTag()
        // The server holds the request until the client closes the connection (or 5 min, a
        // hang guard), and the request's timeout is longer still: on a loaded machine the
        // cancel can come many seconds after the request arrived, and a shorter window let
        // the server answer (or the request time out) first, so no abort was ever seen.
        let feed = source("slow", tag: tag, extra: [URLQueryItem(name: "ms", value: "300000")], timeout: 600)
        let log = EventLog(feed)
        feed.fetchData()
        await server.awaitRequests(tagged: tag)
        feed.cancelFetch()
        #expect(!feed.loadState.value.isFetching)
        #expect(log.values == [.willLoad, .didFail(.cancelled)])
        await server.awaitRequests(tagged: tag, aborted: true)  // the server saw the connection close
    }

    @Test func cursorPagingSendsTheCursorBack() async throws {
        let tag = uniqueTag()
        let feed = source("cursor", tag: tag, total: 25, keyPath: "data.items", paging: CursorPaging())
        feed.fetchData()
        await waitIdle(feed)
        while feed.hasMorePages {
            feed.fetchNextPage()
            await waitIdle(feed)
        }
        #expect(feed.allObjects.map(\.id) == Array(1...25))
        let cursors = try await server.requests(tagged: tag).map { $0.query["cursor"] }
        #expect(cursors == [nil, "c2", "c3"])
    }

    @Test func linkHeaderPagingFollowsRelNext() async throws {
        let tag = uniqueTag()
        let feed = source("linked", tag: tag, total: 7, pageSize: 3, keyPath: "", paging: LinkHeaderPaging())
        feed.fetchData()
        await waitIdle(feed)
        while feed.hasMorePages {
            feed.fetchNextPage()
            await waitIdle(feed)
        }
        #expect(feed.allObjects.map(\.id) == Array(1...7))
        #expect(try await server.requests(tagged: tag).count == 3)
    }

    @Test func paginatorKeysCanGoInHeaders() async throws {
        let tag = uniqueTag()
        let keys = PaginatorKeys(pageParameter: "X-Page", pageSizeParameter: "X-Page-Size", placement: .header)
        let feed = source("items-header", tag: tag, total: 12, pageSize: 5, paging: PageNumberPaging(keys: keys, pageSize: 5))
        feed.fetchData()
        await waitIdle(feed)
        feed.fetchNextPage()
        await waitIdle(feed)
        #expect(feed.allObjects.map(\.id) == Array(1...10))
        let headers = try await server.requests(tagged: tag).map { $0.headers["x-page"] }
        #expect(headers == ["1", "2"])
    }

    @Test func theCallersDecoderIsUsedAsItIsAndNeverWrittenTo() async throws {
        let shared = CountingDecoder()
        let prefix = CodingUserInfoKey(rawValue: "prefix")!
        shared.userInfo[prefix] = "#"
        // The key strategy renames an element key (`title`) and an envelope key
        // (`total_count`): both must reach the containers they are read from.
        shared.keyDecodingStrategy = .custom { path in
            switch path.last!.stringValue {
            case "title": AnyKey("heading")
            case "total_count": AnyKey("total")
            default: path.last!
            }
        }
        let fetcher = HTTPPageFetcher<Headline>(
            configuration: server.configuration(timeout: 10), apiPath: "items",
            queryItems: [URLQueryItem(name: "tag", value: uniqueTag()), URLQueryItem(name: "total", value: "4")],
            keyPath: "items", paging: PageNumberPaging(keys: PaginatorKeys(totalCount: "total"), pageSize: 2),
            makeDecoder: { shared }
        )
        let first = try await fetcher.fetchPage(.first)
        let second = try await fetcher.fetchPage(first.next!)
        #expect((first.objects + second.objects).map(\.label) == ["#1 Item 1", "#2 Item 2", "#3 Item 3", "#4 Item 4"])
        #expect(first.info == PageInfo(page: 1, pageSize: 2, numberOfPages: 2, totalCount: 4), "the envelope's keys go through the same strategy")
        #expect(shared.decodes == 2, "each page decoded by the caller's decoder itself, not a copy")
        #expect(shared.userInfo.count == 1, "nothing is added to a decoder the caller may share")
    }

    @Test func illTypedPaginatorValuesStayUnknown() async {
        let feed = source("odd-pages", tag: uniqueTag())
        feed.fetchData()
        await waitIdle(feed)
        #expect(feed.pagination.value.info == PageInfo(page: nil, pageSize: nil, numberOfPages: nil, totalCount: 1))
        #expect(feed.allObjects.count == 3, "a total_count smaller than the objects seen is reported as is, not trusted")
    }

    @Test func aFailedRefreshKeepsThePreviousObjects() async throws {
        let tag = uniqueTag()
        let feed = source(tag: tag)
        feed.fetchData()
        await waitIdle(feed)
        try await server.script(tag: tag, [["body": "{\"items\": [oops"]])
        feed.fetchData()
        await waitIdle(feed)
        #expect(feed.allObjects.count == 10)
        #expect(feed.loadState.value.error?.message.contains("not valid JSON") == true)
    }

    @Test func lifecycleContractOverHTTP() async {
        await checkLifecycleContract(of: source(tag: uniqueTag()))
        let remote = RemoteDataSource(name: "Remote", fetcher: HTTPCollectionFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "items", keyPath: "items"
        ))
        await checkLifecycleContract(of: remote)
    }

    @Test func remoteSourceOverHTTPShowsPlaceholdersAndKeepsObjectsOnFailure() async throws {
        let tag = uniqueTag()
        let remote = RemoteDataSource(name: "Remote", fetcher: HTTPCollectionFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "items",
            queryItems: [URLQueryItem(name: "tag", value: tag), URLQueryItem(name: "page_size", value: "4")], keyPath: "items"
        ), placeholders: [.loading, .noResults, .errors])
        let log = EventLog(remote)
        try await server.script(tag: tag, [["delay_ms": 150], ["status": 404, "body": "gone"]])
        remote.fetchData()
        #expect(remote.snapshot.sections[0].placeholder == .loading)
        await log.waitForFinishers(1)
        #expect(remote.allObjects.map(\.id) == [1, 2, 3, 4])
        #expect(remote.snapshot.sections[0].placeholder == nil)
        remote.fetchData()
        await log.waitForFinishers(2)
        #expect(remote.allObjects.map(\.id) == [1, 2, 3, 4], "a failed refresh keeps the old objects")
        #expect(remote.loadState.value.error?.message.contains("HTTP 404") == true)

        let empty = RemoteDataSource(name: "Empty", fetcher: HTTPCollectionFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "empty", keyPath: "items"
        ))
        let emptyLog = EventLog(empty)
        empty.fetchData()
        await emptyLog.waitForFinishers(1)
        #expect(empty.snapshot.sections[0].rows == [.placeholder(.noResults)])
    }
}

/// An object that reads how to label itself from its decoder's user info.
private struct Headline: Decodable, Sendable {
    let label: String

    private enum Keys: String, CodingKey { case id, heading }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let prefix = decoder.userInfo[CodingUserInfoKey(rawValue: "prefix")!] as? String ?? "?"
        label = "\(prefix)\(try container.decode(Int.self, forKey: .id)) \(try container.decode(String.self, forKey: .heading))"
    }
}

/// A coding key made from a string.
private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A decoder that counts the responses decoded with it.
private final class CountingDecoder: JSONDecoder, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var decodes: Int { lock.withLock { count } }

    override func decode<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data, configuration: T.DecodingConfiguration) throws -> T {
        lock.withLock { count += 1 }
        return try super.decode(type, from: data, configuration: configuration)
    }
}
