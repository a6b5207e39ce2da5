import Foundation
import ReactiveSourcesTesting
import Signals
import Synchronization
import Testing
@testable import ReactiveSources

/// Query-driven sources against the local fixture server. The server's `/items` ignores `q`;
/// each query asks for `total = 2 × its length` items, so the rows tell which query they
/// answer, and `delay_ms` makes a query's answer slow.
@Suite("Query-driven sources", .timeLimit(.minutes(10)))
struct QueryDataSourceTests {
    /// The sources the factory made, by query.
    final class Made: Sendable {
        let sources = Mutex<[String: PaginatedDataSource<FixtureItem>]>([:])
        subscript(query: String) -> PaginatedDataSource<FixtureItem>? { sources.withLock { $0[query] } }
    }

    /// `slow`: a delay per query; `held`: queries whose answers the server holds until the
    /// test opens the gate named by `tag` (see ``FixtureServer/open(gate:)``).
    static func search(
        tag: String, made: Made, slow: [String: Int] = [:], held: Set<String> = [], pageSize: Int? = nil
    ) -> @Sendable (String) -> any DataSource<FixtureItem> {
        { query in
            let fetcher = HTTPPageFetcher<FixtureItem>(
                configuration: FixtureServer.shared.configuration(), apiPath: "items",
                queryItems: [
                    URLQueryItem(name: "q", value: query), URLQueryItem(name: "tag", value: tag),
                    URLQueryItem(name: "total", value: String(2 * query.count)),
                    URLQueryItem(name: "delay_ms", value: String(slow[query] ?? 0)),
                ] + (held.contains(query) ? [URLQueryItem(name: "gate", value: tag)] : []),
                keyPath: "items",
                paging: PageNumberPaging(pageSize: pageSize)
            )
            let source = PaginatedDataSource(name: "results", fetcher: fetcher, retry: .none, nextPageRetry: .none)
            made.sources.withLock { $0[query] = source }
            return source
        }
    }

    /// Waits until `source` shows the rows of `query` and is not fetching.
    static func loaded(_ source: QueryDataSource<String, FixtureItem>, query: String) async {
        for await (state, count) in combineLatest(source.loadState, source.updates.map { $0.snapshot.allObjects.count }).values
        where !state.isFetching && state.status != .idle && count == 2 * query.count && source.query.value == query {
            return
        }
    }

    @Test func typingWithinTheDebounceSendsOneRequest() async throws {
        let tag = uniqueTag()
        let clock = ManualClock()
        let text = MutableProperty("")
        let made = Made()
        let source = QueryDataSource(
            query: text.readOnly, debounce: .milliseconds(300), clock: clock, isEmpty: { $0.isEmpty },
            source: Self.search(tag: tag, made: made)
        )
        source.fetchData()
        // The empty query: no rows, not fetching, no request.
        #expect(source.snapshot.allObjects.isEmpty)
        #expect(source.loadState.value.status == .idle)
        for typed in ["s", "sw", "swi"] {
            text.value = typed
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(200))
        }
        #expect(source.query.value == "")
        clock.advance(by: .milliseconds(100))
        await Self.loaded(source, query: "swi")
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...6))
        let requests = try await FixtureServer.shared.requests(tagged: tag)
        #expect(requests.map { $0.query["q"] } == ["swi"])
        #expect(made["s"] == nil && made["sw"] == nil)
        // Back to the empty query: empty, not fetching, and still one request.
        text.value = ""
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        for await rows in source.updates.values where rows.snapshot.allObjects.isEmpty { break }
        #expect(source.loadState.value.isFetching == false)
        #expect(try await FixtureServer.shared.requests(tagged: tag).count == 1)
    }

    @Test func aSlowAnswerForAnOldQueryNeverShows() async throws {
        let tag = uniqueTag()
        let text = MutableProperty("")
        let made = Made()
        // The server holds the answer for "sw" until the test opens the gate.
        let source = QueryDataSource(query: text.readOnly, isEmpty: { $0.isEmpty }, source: Self.search(tag: tag, made: made, held: ["sw"]))
        let events = Mutex<[LoadEvent]>([])
        let subscription = source.loadEvents.observe { event in events.withLock { $0.append(event) } }
        source.fetchData()
        text.value = "sw"
        // "sw" is on the server, unanswered, when "swi" is typed.
        #expect(try await FixtureServer.shared.awaitRequest(tagged: tag, query: "sw"))
        text.value = "swi"
        await Self.loaded(source, query: "swi")
        // Now the answer for "sw" is released, after "swi"'s rows showed.
        try await FixtureServer.shared.open(gate: tag)
        #expect(try await FixtureServer.shared.awaitRequest(tagged: tag, query: "sw", ended: true))
        let old = try #require(made["sw"])
        await old.settled()
        // The old query's fetch was cancelled and ended; its rows never showed.
        #expect(old.loadState.value.error?.isCancellation == true)
        #expect(old.snapshot.allObjects.isEmpty)
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...6))
        #expect(source.loadState.value.error == nil)
        #expect(source.query.value == "swi")
        // The old query's cancellation (its didFail) was not forwarded.
        #expect(events.withLock { $0.filter { if case .didFail = $0 { true } else { false } } }.isEmpty)
        subscription.cancel()
    }

    @Test func aNewQueryKeepsTheOldRowsUntilItsFirstPage() async throws {
        let tag = uniqueTag()
        let text = MutableProperty("ab")
        let made = Made()
        let source = QueryDataSource(query: text.readOnly, source: Self.search(tag: tag, made: made, slow: ["abcd": 1000]))
        source.fetchData()
        await Self.loaded(source, query: "ab")
        let recorder = ChangeLogRecorder(source)
        text.value = "abcd"
        // The new query is loading; the old rows stay until its first page arrives.
        #expect(source.loadState.value.isFetching)
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...4))
        await Self.loaded(source, query: "abcd")
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...8))
        // One update, rows both queries show kept: 4 rows inserted, none deleted.
        let changes = await recorder.all(atLeast: 1)
        #expect(changes.count == 1)
        #expect(changes.first?.insertedRows.count == 4)
        #expect(changes.first?.deletedRows.isEmpty == true)
        #expect(recorder.allProblems.isEmpty)
    }

    @Test func aNewQueryPagesFromItsFirstPageThroughRowsTheOldOneShowed() async throws {
        let tag = uniqueTag()
        let text = MutableProperty("ab")
        let made = Made()
        // Two rows a page: "ab" has 4 rows (2 pages), "abc" 6 (3 pages), the first 4 the same.
        let source = QueryDataSource(query: text.readOnly, source: Self.search(tag: tag, made: made, pageSize: 2))
        source.fetchData()
        let ab = try #require(made["ab"])
        await ab.settled()
        #expect(await ab.fetchNextPage().outcome == .loaded(objects: 2))
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...4))
        text.value = "abc"
        _ = source.snapshot
        let abc = try #require(made["abc"])
        await abc.settled()
        #expect(source.snapshot.allObjects.map(\.id) == [1, 2])
        // Rows "ab" showed are new to "abc": each page adds them, and paging goes on to the end.
        #expect(await abc.fetchNextPage().outcome == .loaded(objects: 2))
        #expect(await abc.fetchNextPage().outcome == .loaded(objects: 2))
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...6))
        #expect(abc.loadState.value.error == nil)
        let pages = try await FixtureServer.shared.requests(tagged: tag).map { "\($0.query["q"] ?? "")/\($0.query["page"] ?? "")" }
        #expect(pages == ["ab/1", "ab/2", "abc/1", "abc/2", "abc/3"])
    }

    @Test func clearsOnQueryChangeShowsTheNewQueryAtOnce() async {
        let tag = uniqueTag()
        let text = MutableProperty("ab")
        let source = QueryDataSource(query: text.readOnly, clearsOnQueryChange: true, source: Self.search(tag: tag, made: Made(), slow: ["abc": 1000]))
        source.fetchData()
        await Self.loaded(source, query: "ab")
        text.value = "abc"
        #expect(source.snapshot.allObjects.isEmpty)
        await Self.loaded(source, query: "abc")
        #expect(source.snapshot.allObjects.count == 6)
    }

    @Test func aQueryMadeOfSeveralPropertiesRefetchesWhenAnyChanges() async throws {
        let tag = uniqueTag()
        let text = MutableProperty("ab")
        let suffix = MutableProperty("")
        // Search text and, say, a sort order, in one query.
        let query = Property { text.value + suffix.value }
        let source = QueryDataSource(query: query, source: Self.search(tag: tag, made: Made()))
        source.fetchData()
        await Self.loaded(source, query: "ab")
        suffix.value = "cd"
        await Self.loaded(source, query: "abcd")
        #expect(source.snapshot.allObjects.map(\.id) == Array(1...8))
        text.value = "x"
        await Self.loaded(source, query: "xcd")
        #expect(try await FixtureServer.shared.requests(tagged: tag).map { $0.query["q"] } == ["ab", "abcd", "xcd"])
    }

    @Test func anAnswerThatIgnoresCancellationStillNeverShows() async {
        // "sw"'s fetch ignores cancellation and answers after "swi" has shown.
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (answered, answer) = AsyncStream.makeStream(of: Void.self)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let text = MutableProperty("")
        let source = QueryDataSource<String, Int>(query: text.readOnly, isEmpty: { $0.isEmpty }) { query in
            let fetcher = ClosurePageFetcher<Int> { _ in
                if query == "sw" {
                    start.yield()
                    // An unstructured task: the fetch's cancellation does not reach it.
                    await Task { for await _ in gate { break } }.value
                    defer { answer.yield() }
                    return Page(objects: [-1, -2], next: nil)
                }
                return Page(objects: Array(1...query.count), next: nil)
            }
            return PaginatedDataSource(name: query, fetcher: fetcher, retry: .none)
        }
        source.fetchData()
        text.value = "sw"
        let slow = source.currentSource.value
        // Let "sw"'s fetcher start (it may run in a task of its own) before typing on.
        for await _ in started { break }
        text.value = "swi"
        for await state in source.loadState.values where state.status == .finished { break }
        #expect(source.snapshot.allObjects == [1, 2, 3])
        open.yield()
        for await _ in answered { break }
        await slow.settled()
        #expect(source.snapshot.allObjects == [1, 2, 3])
        #expect(source.loadState.value.status == .finished)
    }
}

@Suite("Query-driven sources: lifetime", .timeLimit(.minutes(10)))
struct QueryDataSourceLifetimeTests {
    @Test func droppingTheSourceStopsItsDebounce() async {
        let clock = ManualClock()
        let text = MutableProperty("")
        let made = Mutex(0)
        weak var weakSource: QueryDataSource<String, Int>?
        do {
            let source = QueryDataSource<String, Int>(query: text.readOnly, debounce: .seconds(1), clock: clock) { _ in
                made.withLock { $0 += 1 }
                return SimpleDataSource(objects: [1])
            }
            weakSource = source
            _ = source.snapshot
            text.value = "a"
            await clock.waitForSleepers(1)
        }
        #expect(weakSource == nil)
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(2))
        text.value = "b"
        #expect(clock.sleeperCount == 0)
        #expect(made.withLock { $0 } == 1)   // the initial query's source only
    }
}
