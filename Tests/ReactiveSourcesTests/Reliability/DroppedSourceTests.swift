import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// A source dropped while it fetches must be freed and must stop its fetch: the fetcher's
/// task is cancelled (an HTTP request in flight is cancelled), so nothing it started
/// outlives it (a fetch that never ends would otherwise keep its task, its fetcher and
/// its request forever: AddressSanitizer reports them as leaks at exit).
@Suite("Reliability: dropping sources mid-fetch")
struct DroppedSourceTests {
    /// A paginated source over `transport`; its `identity` closure holds `token` (if any)
    /// for the source's whole life.
    func feed(_ transport: FakeTransport, holding token: ReleaseToken? = nil) -> PaginatedDataSource<TaggedItem> {
        let configuration = RemoteConfiguration(baseURL: URL(string: "http://fake.invalid")!, transport: transport)
        let fetcher = HTTPPageFetcher<TaggedItem>(configuration: configuration, apiPath: "feed", keyPath: "items", paging: PageNumberPaging())
        return PaginatedDataSource(name: "feed", fetcher: fetcher, identity: { item in withExtendedLifetime(token) { AnyHashable(item.id) } })
    }

    func page(_ number: Int, _ request: FakeTransport.Request) -> HTTPResponse {
        let body = "{\"page\": \(number), \"number_of_pages\": 5, \"items\": [{\"id\": \(number), \"request\": \(request.id)}]}"
        return HTTPResponse(statusCode: 200, body: Data(body.utf8), url: request.url)
    }

    @Test func droppingAPaginatedSourceDuringARefreshCancelsTheRequest() async {
        let transport = FakeTransport()
        weak var weakFeed: PaginatedDataSource<TaggedItem>?
        do {
            let feed = feed(transport)
            weakFeed = feed
            feed.fetchData()
            await eventually("request sent", until: transport) { transport.count == 1 }
        }
        #expect(weakFeed == nil, "the source is freed while its fetch is in flight")
        await eventually("the request is cancelled", until: transport) { transport.requests.first?.isAnswered == true }
    }

    @Test func droppingAPaginatedSourceDuringANextPageCancelsTheRequest() async {
        let transport = FakeTransport()
        let releases = Releases()
        var weakFeed: WeakBox?
        do {
            let feed = feed(transport, holding: releases.token("the feed's identity"))
            weakFeed = WeakBox("PaginatedDataSource", feed)
            feed.fetchData()
            await eventually("page 1 requested", until: transport) { transport.count == 1 }
            transport.requests[0].answer(.success(page(1, transport.requests[0])))
            await eventually("page 1 shown", until: feed) { feed.pagination.value.loadedPages == 1 && feed.allObjects.count == 1 }
            feed.fetchNextPage()
            await eventually("page 2 requested", until: transport) { transport.count == 2 }
        }
        // Page 1's task holds the source until it returns from applying the page, which may
        // be just after the page is shown: the release of the token the source holds says
        // when it is gone.
        #expect(await stillAlive(weakFeed.map { [$0] } ?? [], after: releases) == [])
        await eventually("the next-page request is cancelled", until: transport) { transport.requests.last?.isAnswered == true }
    }

    @Test func droppingARemoteSourceDuringAFetchCancelsItAndEndsItsEvents() async {
        let fetcher = ScriptedFetcher<Int>()
        let events = Recorder<LoadEvent>()
        weak var weakSource: RemoteDataSource<Int>?
        let subscription: SignalSubscription
        do {
            let source = RemoteDataSource(name: "remote", fetcher: fetcher)
            weakSource = source
            subscription = source.loadEvents.observe { events.append($0) }
            source.fetchData()
            await eventually("fetch started", until: fetcher) { fetcher.calls.count == 1 }
            fetcher.calls[0].deliver([1, 2])
            await eventually("first batch", until: source) { source.allObjects == [1, 2] }
        }
        #expect(weakSource == nil, "the source is freed while its fetch is in flight")
        await eventually("the fetch is cancelled", until: fetcher) { fetcher.calls[0].wasCancelled && fetcher.calls[0].hasEnded }
        await eventually("the fetch ends with its finisher", until: events) { events.values.last == .didFail(.cancelled) }
        #expect(events.values == [.willLoad, .didPartiallyLoad, .didFail(.cancelled)])
        subscription.cancel()
    }
}
