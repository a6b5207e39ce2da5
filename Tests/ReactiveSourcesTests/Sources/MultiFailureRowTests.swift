import Foundation
import Signals
import Testing
@testable import ReactiveSources

@Suite("Multi: a failed refresh of a child with objects")
struct MultiFailureRowTests {
    @Test func aChildWhoseRefreshFailsShowsItsErrorRowUnderItsObjects() async {
        let fetcher = ScriptedFetcher<Int>()
        let child = RemoteDataSource(name: "r", fetcher: fetcher)
        let other = SimpleDataSource(name: "s", objects: [9])
        let multi = MultiDataSource(children: [child, other])
        child.fetchData()
        await eventually("first call") { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([1, 2])
        fetcher.calls[0].finish()
        await eventually("loaded") { !child.loadState.value.isFetching }
        child.fetchData()
        await eventually("second call") { fetcher.calls.count == 2 }
        fetcher.calls[1].fail(TestFailure("boom"))
        await eventually("failed") { !child.loadState.value.isFetching }
        let section = multi.snapshot.sections[0]
        #expect(Array(section.objects) == [1, 2], "the objects stay")
        #expect(section.placeholder == .error(message: "boom"))
        #expect(multi.snapshot.sections[1].placeholder == nil)
    }

    @Test func aChildWithoutAnErrorRowOfItsOwnGetsOneInTheMulti() async {
        let fetcher = ScriptedFetcher<Int>()
        let child = RemoteDataSource(name: "r", fetcher: fetcher, placeholders: [])
        let multi = MultiDataSource(children: [child])
        child.fetchData()
        await eventually("first call") { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([1])
        fetcher.calls[0].finish()
        await eventually("loaded") { !child.loadState.value.isFetching }
        child.fetchData()
        await eventually("second call") { fetcher.calls.count == 2 }
        fetcher.calls[1].fail(TestFailure("boom"))
        await eventually("failed") { !child.loadState.value.isFetching }
        #expect(Array(multi.snapshot.sections[0].objects) == [1])
        #expect(multi.snapshot.sections[0].placeholder == .error(message: "boom"))
        child.fetchData()
        #expect(multi.snapshot.sections[0].placeholder == nil, "a new fetch clears the error row")
        child.cancelFetch()
    }
}
