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
        await eventually("first call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([1, 2])
        fetcher.calls[0].finish()
        await eventually("loaded", until: child) { !child.loadState.value.isFetching }
        child.fetchData()
        await eventually("second call", until: fetcher) { fetcher.calls.count == 2 }
        fetcher.calls[1].fail(TestFailure("boom"))
        await eventually("failed", until: child) { !child.loadState.value.isFetching }
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
        await eventually("first call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([1])
        fetcher.calls[0].finish()
        await eventually("loaded", until: child) { !child.loadState.value.isFetching }
        child.fetchData()
        await eventually("second call", until: fetcher) { fetcher.calls.count == 2 }
        fetcher.calls[1].fail(TestFailure("boom"))
        await eventually("failed", until: child) { !child.loadState.value.isFetching }
        #expect(Array(multi.snapshot.sections[0].objects) == [1])
        #expect(multi.snapshot.sections[0].placeholder == .error(message: "boom"))
        child.fetchData()
        #expect(multi.snapshot.sections[0].placeholder == nil, "a new fetch clears the error row")
        child.cancelFetch()
    }
}

@Suite("Multi: load state never ahead of the rows")
struct MultiConsistencyTests {
    @Test func whenTheMultiSaysFinishedEveryChildsRowsAreShown() async {
        let children = 6
        let rowsPerChild = 40
        for round in 0..<(Int(ProcessInfo.processInfo.environment["MULTI_ROUNDS"] ?? "") ?? 60) {
            let sources = (0..<children).map { index in
                RemoteDataSource(name: "c\(index)", fetcher: ClosureFetcher<Int> { sink in
                    for batch in 0..<4 {
                        let start = index * 1_000 + batch * (rowsPerChild / 4)
                        await sink.deliver(Array(start..<(start + rowsPerChild / 4)))
                    }
                })
            }
            let multi = MultiDataSource(children: sources)
            let problems = Recorder<String>()
            let finished = Recorder<Int>()
            let subscription = multi.loadState.observe { state in
                let snapshot = multi.snapshot
                if case .finished = state.status, snapshot.objectCount != children * rowsPerChild {
                    problems.append("round \(round): finished with \(snapshot.objectCount) rows shown")
                }
                if case .finished = state.status { finished.append(1) }
            }
            let rows = multi.updates.observe { update in
                if case .finished = multi.loadState.value.status, update.snapshot.objectCount != children * rowsPerChild,
                   multi.updates.value.version == update.version {
                    problems.append("round \(round): an update with \(update.snapshot.objectCount) rows while the Multi says finished")
                }
            }
            multi.fetchData()
            await eventually("the Multi finished", until: finished) { finished.count > 0 }
            subscription.cancel()
            rows.cancel()
            #expect(problems.values.isEmpty, "\(problems.values.prefix(3))")
        }
    }
}
