import Foundation
import Testing
import ReactiveSources

/// The lifecycle contract (`checkLifecycleContract`) over the sources that wrap others, each
/// over an asynchronous child, so superseded and cancelled fetches really are in flight.
/// (Simple, Remote, Paginated, Multi and the HTTP/file sources run it in their own suites.)
@Suite("Lifecycle contract over wrapping sources")
struct LifecycleContractTests {
    /// Answers every call of `fetcher` that has not ended with one batch and a finish.
    private static func answerAll(_ fetcher: ScriptedFetcher<Int>) -> @Sendable () async -> Void {
        {
            for call in fetcher.calls where !call.hasEnded {
                call.deliver([1, 2, 3])
                call.finish()
            }
        }
    }

    @Test func mappedOverRemote() async {
        let fetcher = ScriptedFetcher<Int>()
        let mapped = RemoteDataSource(name: "numbers", fetcher: fetcher).map { "#\($0)" }
        await checkLifecycleContract(of: mapped, settle: Self.answerAll(fetcher), doubles: [fetcher])
        #expect(mapped.snapshot.sections[0].objects == ["#1", "#2", "#3"])
    }

    @Test func sectionedOverRemote() async {
        let fetcher = ScriptedFetcher<Int>()
        let sectioned = SectionedDataSource(child: RemoteDataSource(name: "numbers", fetcher: fetcher), key: { $0 % 2 })
        await checkLifecycleContract(of: sectioned, settle: Self.answerAll(fetcher), doubles: [fetcher])
        #expect(sectioned.snapshot.objectCount == 3)
    }

    @Test func multiOverMappedAndSectionedChildren() async {
        let first = ScriptedFetcher<Int>()
        let second = ScriptedFetcher<Int>()
        let multi = MultiDataSource(children: [
            RemoteDataSource(name: "a", fetcher: first).map { $0 * 10 },
            SectionedDataSource(child: RemoteDataSource(name: "b", fetcher: second), key: { $0 % 2 }),
        ])
        let answerFirst = Self.answerAll(first)
        let answerSecond = Self.answerAll(second)
        await checkLifecycleContract(of: multi, settle: {
            await answerFirst()
            await answerSecond()
        }, doubles: [first, second])
    }

    @Test func cancellingAWrappedFetchEndsItAsCancelled() async {
        let fetcher = ScriptedFetcher<Int>()
        let mapped = RemoteDataSource(name: "numbers", fetcher: fetcher).map { $0 + 1 }
        let log = EventLog(mapped)
        mapped.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver([1])
        await eventually("partial load", until: log) { log.values.count == 2 }
        mapped.cancelFetch()
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didPartiallyLoad, .didFail(.cancelled)])
        #expect(!mapped.loadState.value.isFetching)
        #expect(mapped.snapshot.sections[0].objects == [2], "a cancelled fetch keeps what it delivered")
    }
}
