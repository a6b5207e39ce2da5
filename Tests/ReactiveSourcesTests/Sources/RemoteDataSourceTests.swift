import Foundation
import Signals
import Testing
@testable import ReactiveSources

@Suite("Remote data source")
struct RemoteDataSourceTests {
    @Test func loadingPlaceholderThenObjectsThenFinished() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        #expect(source.row(at: RowPath(item: 0, section: 0)) == .placeholder(.loading))
        #expect(source.loadState.value.content.phase == .loading)
        #expect(source.loadState.value.isFetching)
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver(["a", "b"])
        await eventually("first batch", until: source) { source.allObjects == ["a", "b"] }
        #expect(source.numberOfRows(inSection: 0) == 2)
        fetcher.calls[0].deliver(["c"])
        fetcher.calls[0].finish()
        await log.waitForFinishers(1)
        #expect(source.allObjects == ["a", "b", "c"])
        #expect(log.values == [.willLoad, .didPartiallyLoad, .didPartiallyLoad, .didFinishLoading])
        #expect(source.loadState.value.content.phase == .loaded)
        #expect(!source.loadState.value.isFetching)
    }

    @Test func noResultsRowWhenFinishedEmpty() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].finish()
        await log.waitForFinishers(1)
        #expect(source.snapshot.sections[0].rows == [.placeholder(.noResults)])
        #expect(source.loadState.value.content.phase == .empty)
    }

    @Test func errorRowOnlyWhenOptedIn() async {
        for options in [PlaceholderOptions.default, .all] {
            let fetcher = ScriptedFetcher<String>()
            let source = RemoteDataSource(name: "Feed", fetcher: fetcher, placeholders: options)
            let log = EventLog(source)
            source.fetchData()
            await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
            fetcher.calls[0].fail(TestFailure("server on fire"))
            await log.waitForFinishers(1)
            #expect(log.values == [.willLoad, .didFail(.other(TestFailure("server on fire")))])
            let expected: [Row<String>] = options.contains(.errors) ? [.placeholder(.error(message: "server on fire"))] : []
            #expect(source.snapshot.sections[0].rows == expected)
            #expect(source.loadState.value.content.phase == .error(.other(TestFailure("server on fire"))))
        }
    }

    @Test func refreshKeepsContentUntilItFinishesThenReplacesItInOneUpdate() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver(["old1", "old2"])
        fetcher.calls[0].finish()
        await log.waitForFinishers(1)

        source.fetchData()
        #expect(source.loadState.value.content.phase == .refreshing)
        #expect(source.allObjects == ["old1", "old2"], "old content stays visible while refreshing")
        #expect(source.snapshot.sections[0].placeholder == nil)
        await eventually("call", until: fetcher) { fetcher.calls.count == 2 }
        fetcher.calls[1].deliver(["new"])
        await eventually("batch delivered", until: log) { log.values.filter { $0 == .didPartiallyLoad }.count == 2 }
        #expect(source.allObjects == ["old1", "old2"], "a refresh's batches are held until it finishes")
        let version = source.updates.value.version
        fetcher.calls[1].deliver(["old2"])
        fetcher.calls[1].finish()
        await log.waitForFinishers(2)
        #expect(source.allObjects == ["new", "old2"])
        #expect(source.updates.value.version == version + 1, "one update replaces the content")
        #expect(source.loadState.value.content.phase == .loaded)
    }

    @Test func failedRefreshKeepsPreviousObjects() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver(["keep"])
        fetcher.calls[0].finish()
        await log.waitForFinishers(1)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 2 }
        fetcher.calls[1].fail(TestFailure("offline"))
        await log.waitForFinishers(2)
        #expect(source.allObjects == ["keep"])
        #expect(source.loadState.value.error == .other(TestFailure("offline")))
    }

    @Test func clearsContentOnRefreshWhenConfigured() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher, clearsContentOnRefresh: true)
        let log = EventLog(source)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver(["x"])
        fetcher.calls[0].finish()
        await log.waitForFinishers(1)
        source.fetchData()
        #expect(source.allObjects.isEmpty)
        #expect(source.row(at: RowPath(item: 0, section: 0)) == .placeholder(.loading))
        #expect(source.loadState.value.content.phase == .loading)
        source.cancelFetch()
    }

    @Test func obsoleteResponsesAreIgnored() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        // Each fetch's call is made by its own task: wait for the first, so that `calls[0]`
        // is the superseded fetch's (the two tasks may otherwise start in either order).
        await eventually("first call", until: fetcher) { fetcher.calls.count == 1 }
        source.fetchData()
        await eventually("two calls", until: fetcher) { fetcher.calls.count == 2 }
        // The newer fetch answers first; the older answers late and must not land.
        fetcher.calls[1].deliver(["new"])
        fetcher.calls[1].finish()
        await log.waitForFinishers(2)
        fetcher.calls[0].deliver(["stale"])
        fetcher.calls[0].finish()
        // Once the stale call has returned, any batch it delivered has gone through the sink.
        await eventually("the stale call ended", until: fetcher) { fetcher.calls[0].hasEnded }
        #expect(source.allObjects == ["new"])
        #expect(log.values == [.willLoad, .didFail(.cancelled), .willLoad, .didPartiallyLoad, .didFinishLoading])
        #expect(fetcher.calls[0].wasCancelled, "the superseded fetch's task was cancelled")
    }

    @Test func aFetchCancelledOrSupersededFromItsOwnFetcherEndsOnceAndLandsNothing() async {
        // The fetcher cancels the fetch running it, then delivers and returns at once; a later
        // fetch is superseded the same way, by a fetch started from inside its fetcher.
        final class SourceBox: @unchecked Sendable { weak var source: RemoteDataSource<Int>? }
        let box = SourceBox()
        let calls = Counter()
        let fetcher = ClosureFetcher<Int> { sink in
            calls.increment()
            switch calls.value {
            case 1: box.source?.cancelFetch()
            case 3: box.source?.fetchData()
            default: break
            }
            await sink.deliver([calls.value])
        }
        let source = RemoteDataSource(name: "self-cancelling", fetcher: fetcher)
        box.source = source
        let log = EventLog(source)
        let shown = Recorder<[Int]>()
        let subscription = source.updates.observe(emitsCurrentValue: false) { shown.append($0.snapshot.allObjects) }
        defer { subscription.cancel() }
        #expect(await source.fetchData().outcome == .cancelled)
        #expect(log.values == [.willLoad, .didFail(.cancelled)])
        #expect(source.allObjects.isEmpty, "the cancelled fetch's batch never lands")

        // Call 2 comes after call 1 has delivered and returned: anything call 1 published
        // late would come before call 2's end.
        #expect(await source.fetchData().outcome == .loaded(objects: 1))
        #expect(Array(log.values.prefix(2)) == [.willLoad, .didFail(.cancelled)], "exactly one finisher for call 1: \(log.values)")
        #expect(!shown.values.contains { $0.contains(1) }, "the cancelled fetch's batch never lands: \(shown.values)")
        #expect(source.allObjects == [2])

        #expect(await source.fetchData().outcome == .cancelled)  // call 3 starts call 4 from inside the fetcher
        await source.settled()  // call 4, started before call 3 ended
        #expect(source.allObjects == [4], "only the newest fetch lands")
        // Barrier: call 5 comes after calls 3 and 4 have delivered and returned.
        #expect(await source.fetchData().outcome == .loaded(objects: 1))
        #expect(Array(log.values.dropFirst(5)) == [.willLoad, .didFail(.cancelled), .willLoad, .didPartiallyLoad, .didFinishLoading,
                                                   .willLoad, .didPartiallyLoad, .didFinishLoading],
                "exactly one finisher per fetch: \(log.values)")
        #expect(!shown.values.contains { $0.contains(3) }, "the superseded fetch's batch never lands: \(shown.values)")
        #expect(source.allObjects == [5])
    }

    @Test func cancelEndsTheFetchAndCancelsTheTask() async {
        let fetcher = ScriptedFetcher<String>()
        let source = RemoteDataSource(name: "Feed", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        source.cancelFetch()
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didFail(.cancelled)])
        #expect(!source.loadState.value.isFetching)
        #expect(source.loadState.value.content.phase == .initial)
        #expect(source.snapshot.sections[0].rows.isEmpty, "the loading row is removed")
        await eventually("task cancelled", until: fetcher) { fetcher.calls[0].wasCancelled && fetcher.calls[0].hasEnded }
        source.cancelFetch()
        #expect(log.values.count == 2, "cancelling when idle sends nothing")
    }

    @Test func lifecycleContract() async {
        let fetcher = ScriptedFetcher<Int>()
        let source = RemoteDataSource(name: "n", fetcher: fetcher)
        await checkLifecycleContract(of: source, settle: {
            for call in fetcher.calls where !call.hasEnded {
                call.deliver([1, 2])
                call.finish()
            }
        }, doubles: [fetcher])
    }

    @Test func mappedFetcherTransformsAndReportsErrors() async {
        let fetcher = ScriptedFetcher<Int>()
        struct Odd: Error {}
        let source = RemoteDataSource(name: "n", fetcher: fetcher.map { value throws -> String in
            if value == 3 { throw Odd() }
            return "#\(value)"
        })
        let log = EventLog(source)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([1, 2])
        await eventually("batch", until: source) { source.allObjects == ["#1", "#2"] }
        fetcher.calls[0].deliver([3])
        await log.waitForFinishers(1)
        #expect(log.values.last?.isFinisher == true)
        if case .didFail(let error)? = log.values.last {
            guard case .other(let odd) = error else { Issue.record("expected .other, got \(error)"); return }
            #expect(odd is Odd)
        } else {
            Issue.record("expected a failure, got \(log.values)")
        }
        #expect(source.allObjects == ["#1", "#2"])
    }
}
