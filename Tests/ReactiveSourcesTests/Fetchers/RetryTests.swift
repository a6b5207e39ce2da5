import Foundation
import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// Retry with back-off against the fixture server, in virtual time: the policy sleeps on a
/// ManualClock, and each test advances it once the source waits.
@Suite("Retry with back-off over real HTTP")
struct RetryTests {
    let server = FixtureServer.shared

    /// A policy on `clock` whose jitter always picks half of the bound.
    func policy(_ clock: ManualClock, attempts: Int = 4, now: @escaping @Sendable () -> Date = { Date() }) -> RetryPolicy {
        RetryPolicy(maxAttempts: attempts, initialDelay: .seconds(1), maxDelay: .seconds(10), clock: clock, now: now, random: { 0.5 })
    }

    func remote(_ tag: String, retry: RetryPolicy) -> RemoteDataSource<FixtureItem> {
        RemoteDataSource(
            fetcher: HTTPCollectionFetcher<FixtureItem>(
                configuration: server.configuration(), apiPath: "items",
                queryItems: [URLQueryItem(name: "tag", value: tag), URLQueryItem(name: "total", value: "3")], keyPath: "items"
            ),
            retry: retry
        )
    }

    func requestCount(_ tag: String) async throws -> Int {
        try await server.requests(tagged: tag).count
    }

    @Test(.timeLimit(.minutes(10)))
    func a503TwiceThenA200Loads() async throws {
        let tag = uniqueTag()
        try await server.script(tag: tag, [["status": 503, "body": "busy"], ["status": 503, "body": "still busy"]])
        let clock = ManualClock()
        let source = remote(tag, retry: policy(clock))
        source.fetchData()

        await clock.waitForSleepers(1)
        let first = try #require(source.loadState.value.retry)
        #expect(first.attempt == 2 && first.maxAttempts == 4 && first.delay == .milliseconds(500))
        #expect(first.description == "retrying 2 of 4 in 0.5 s")
        guard case .httpStatus(503, _, "busy", _) = first.error else {
            Issue.record("the status names the failure, got \(first.error)")
            return
        }
        #expect(source.loadState.value.isFetching, "the fetch stays in flight while it waits")
        #expect(try await requestCount(tag) == 1, "nothing is sent before the wait ends")
        clock.advance(by: .milliseconds(500))

        await clock.waitForSleepers(1)
        #expect(source.loadState.value.retry?.attempt == 3)
        #expect(source.loadState.value.retry?.delay == .seconds(1), "the bound doubles: half of 2 s")
        clock.advance(by: .seconds(1))

        let state = await source.settled()
        #expect(state.status == .finished && state.retry == nil)
        #expect(source.allObjects.map(\.id) == [1, 2, 3])
        #expect(try await requestCount(tag) == 3)
    }

    @Test(.timeLimit(.minutes(10)))
    func a429WithRetryAfterWaitsExactlyThatLong() async throws {
        let tag = uniqueTag()
        try await server.script(tag: tag, [["status": 429, "body": "slow down", "headers": ["Retry-After": "1"]]])
        let clock = ManualClock()
        let source = remote(tag, retry: policy(clock))
        source.fetchData()

        await clock.waitForSleepers(1)
        #expect(source.loadState.value.retry?.delay == .seconds(1), "Retry-After wins over the jittered delay")
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "still waiting 1 ms before the second")
        #expect(try await requestCount(tag) == 1)
        clock.advance(by: .milliseconds(1))

        #expect(await source.settled().status == .finished)
        #expect(source.allObjects.count == 3)
        #expect(try await requestCount(tag) == 2)
    }

    @Test(.timeLimit(.minutes(10)))
    func a404IsNotRetried() async throws {
        let tag = uniqueTag()
        try await server.script(tag: tag, [["status": 404, "body": "no such feed"]])
        let clock = ManualClock()
        let source = remote(tag, retry: policy(clock))
        source.fetchData()
        let state = await source.settled()
        guard case .httpStatus(404, _, _, _)? = state.error else {
            Issue.record("expected the 404, got \(String(describing: state.error))")
            return
        }
        #expect(clock.sleeperCount == 0 && state.retry == nil)
        #expect(try await requestCount(tag) == 1)
    }

    @Test(.timeLimit(.minutes(10)))
    func cancellingDuringTheWaitStopsAtOnceAndSendsNothingMore() async throws {
        let tag = uniqueTag()
        try await server.script(tag: tag, [["status": 503, "body": "busy"]])
        let clock = ManualClock()
        let source = remote(tag, retry: policy(clock))
        source.fetchData()
        await clock.waitForSleepers(1)

        source.cancelFetch()
        #expect(source.loadState.value.error == .cancelled)
        #expect(source.loadState.value.retry == nil)
        await clock.waitForNoSleepers()
        clock.advance(by: .seconds(3600))
        // A request sent after the cancel would reach the server; a later tagged request that
        // this test makes itself shows the server has seen everything sent before it.
        try await server.script(tag: tag, [["status": 200, "body": "{\"items\": []}"]])
        let probe = remote(tag, retry: .none)
        probe.fetchData()
        await probe.settled()
        #expect(try await requestCount(tag) == 2, "the failed request and the probe, nothing from the cancelled source")
    }

    @Test(.timeLimit(.minutes(10)))
    func theNextPageHasItsOwnPolicyAndState() async throws {
        let tag = uniqueTag()
        let clock = ManualClock()
        let fetcher = HTTPPageFetcher<FixtureItem>(
            configuration: server.configuration(), apiPath: "items",
            queryItems: [URLQueryItem(name: "tag", value: tag), URLQueryItem(name: "total", value: "20")],
            keyPath: "items", paging: PageNumberPaging(pageSize: 10)
        )
        let feed = PaginatedDataSource(fetcher: fetcher, retry: .none, nextPageRetry: policy(clock))
        feed.fetchData()
        await feed.settled()
        try await server.script(tag: tag, [["status": 502, "body": "gateway"]])
        feed.fetchNextPage()
        await clock.waitForSleepers(1)
        #expect(feed.pagination.value.retry?.attempt == 2)
        #expect(feed.pagination.value.isLoadingNextPage)
        #expect(feed.loadState.value.retry == nil, "the first-page state is not touched")
        clock.advance(by: .seconds(1))
        await eventually("page 2", until: feed) { feed.allObjects.count == 20 }
        #expect(feed.pagination.value.retry == nil && feed.pagination.value.nextPage == .idle)
    }

    @Test func delaysFollowTheBoundsAndRetryAfter() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let random = Locked(0.0)
        let policy = RetryPolicy(
            maxAttempts: 6, initialDelay: .seconds(1), multiplier: 3, maxDelay: .seconds(10),
            now: { now }, random: { random.withLock { $0 } }
        )
        let url = URL(string: "http://127.0.0.1/x")!
        let busy = DataSourceError.httpStatus(code: 500, url: url, bodyExcerpt: "", retryAfter: nil)
        random.withLock { $0 = 0.999 }
        #expect(policy.delay(before: 2, after: busy)! > .milliseconds(998))
        #expect(policy.delay(before: 3, after: busy)! > .milliseconds(2_990), "bound 1 s * 3")
        #expect(policy.delay(before: 5, after: busy)! <= .seconds(10), "capped")
        #expect(policy.delay(before: 7, after: busy) == nil, "no attempts left")
        random.withLock { $0 = 0 }
        #expect(policy.delay(before: 2, after: busy) == .zero, "full jitter reaches zero")

        let date = "Tue, 14 Nov 2023 22:13:25 GMT" // now + 5 s
        #expect(policy.delay(before: 2, after: .httpStatus(code: 503, url: url, bodyExcerpt: "", retryAfter: date)) == .seconds(5))
        #expect(policy.delay(before: 2, after: .httpStatus(code: 429, url: url, bodyExcerpt: "", retryAfter: "11")) == nil,
                "a Retry-After beyond the cap ends the load")
        #expect(policy.delay(before: 2, after: .httpStatus(code: 404, url: url, bodyExcerpt: "", retryAfter: "1")) == nil)
        #expect(policy.delay(before: 2, after: .transport(.timeout(seconds: 1), url: url)) != nil)
        #expect(policy.delay(before: 2, after: .decoding(DecodingFailure(url: url, keyPath: "", problem: .notJSON(bodyExcerpt: "")))) == nil)
        #expect(policy.delay(before: 2, after: .cancelled) == nil)
        #expect(RetryPolicy.none.delay(before: 2, after: busy) == nil)
    }
}
