import Foundation
import Signals
import Testing
import ReactiveSources

/// `settled()`: waits for the fetch in flight, whatever its outcome, and returns the state.
@Suite("Waiting for a source to settle")
struct SettledTests {
    /// A source over a scripted fetcher, fetching: its fetcher's first call has started.
    private func fetchingSource() async -> (ScriptedFetcher<Int>, RemoteDataSource<Int>) {
        let fetcher = ScriptedFetcher<Int>()
        let source = RemoteDataSource(name: "numbers", fetcher: fetcher)
        source.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        return (fetcher, source)
    }

    @Test func anIdleSourceSettlesAtOnce() async {
        let source = RemoteDataSource(name: "idle", fetcher: ScriptedFetcher<Int>())
        let state = await source.settled()
        #expect(state.status == .idle)
        #expect(state.content.phase == .initial)
    }

    @Test func waitsForTheFetchToFinishAndSeesItsObjects() async {
        let (fetcher, source) = await fetchingSource()
        let waiter = Task { await source.settled() }
        fetcher.calls[0].deliver([1, 2])
        await eventually("batch shown", until: source) { source.allObjects == [1, 2] }
        fetcher.calls[0].deliver([3])
        fetcher.calls[0].finish()
        let state = await waiter.value
        #expect(state.status == .finished)
        #expect(source.allObjects == [1, 2, 3], "the snapshot is published before the state")
    }

    @Test func returnsTheFailureOfAFailedFetch() async {
        let (fetcher, source) = await fetchingSource()
        let waiter = Task { await source.settled() }
        fetcher.calls[0].fail(TestFailure("server on fire"))
        let state = await waiter.value
        #expect(state.error?.message.contains("server on fire") == true, "\(state)")
    }

    @Test func waitsForAFetchThatSupersedesTheOneInFlight() async {
        let (fetcher, source) = await fetchingSource()
        let settled = Recorder<LoadState>()
        let states = Recorder<LoadState>()
        let observation = source.loadState.observe(emitsCurrentValue: false) { states.append($0) }
        defer { observation.cancel() }
        let waiter = Task { settled.append(await source.settled()) }
        let superseded = fetcher.calls[0]
        source.fetchData()
        await eventually("second call", until: fetcher) { fetcher.calls.count == 2 }
        await eventually("the superseded call ended", until: fetcher) { superseded.hasEnded }
        // The wait ends on a published state that is not fetching: there was none.
        #expect(!states.values.contains { !$0.isFetching }, "the superseded fetch's end is not the end of the wait: \(states.values)")
        #expect(settled.count == 0, "the superseded fetch's end is not the end of the wait")
        fetcher.calls[1].deliver([7])
        fetcher.calls[1].finish()
        await waiter.value
        #expect(settled.values.first?.status == .finished)
        #expect(source.allObjects == [7])
    }

    @Test func aMultiSettlesWhenEveryChildHas() async {
        let first = ScriptedFetcher<Int>()
        let second = ScriptedFetcher<Int>()
        let multi = MultiDataSource(name: "both", children: [
            RemoteDataSource(name: "a", fetcher: first), RemoteDataSource(name: "b", fetcher: second),
        ])
        multi.fetchData()
        let settled = Recorder<LoadState>()
        let shownWhenSettled = Recorder<[[Int]]>()
        let waiter = Task {
            settled.append(await multi.settled())
            shownWhenSettled.append(multi.snapshot.sections.map { Array($0.objects) })
        }
        await eventually("calls", until: first, second) { first.calls.count == 1 && second.calls.count == 1 }
        first.calls[0].deliver([1])
        first.calls[0].finish()
        await multi.children[0].settled()
        #expect(multi.loadState.value.isFetching, "one child is still loading")
        #expect(settled.count == 0, "one child is still loading")
        second.calls[0].deliver([2])
        second.calls[0].finish()
        await waiter.value
        #expect(settled.values.first?.status == .finished)
        #expect(shownWhenSettled.values == [[[1], [2]]], "the wait ended after both children")
        #expect(multi.snapshot.sections.map(\.objects) == [[1], [2]])
    }

    @Test func cancellingTheWaitReturnsTheCurrentStateAndLeavesTheFetchRunning() async {
        let (fetcher, source) = await fetchingSource()
        let waiter = Task { await source.settled() }
        waiter.cancel()
        let state = await waiter.value
        #expect(state.isFetching)
        #expect(!fetcher.calls[0].wasCancelled, "the fetch goes on")
        fetcher.calls[0].finish()
        #expect(await source.settled().status == .finished)
    }
}
