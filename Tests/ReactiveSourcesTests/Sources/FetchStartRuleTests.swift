import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// The one rule for when a fetcher starts: `fetchData()` and `fetchNextPage()` return before
/// their fetcher is called, on every platform (Remote and Paginated alike).
///
/// Two ways to break it are checked: a fetcher called while the call is still inside (an
/// observer that runs during the call waits there for the fetcher, which must not come), and
/// a fetcher run on the calling thread before the call returns.
@Suite("When the fetcher starts")
struct FetchStartRuleTests {
    /// Records calls of a fetcher against the test's own progress.
    final class Probe: @unchecked Sendable {
        let called = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var caller: pthread_t?
        private var returned = false
        private var violations: [String] = []

        /// Marks the start of a call on this thread, forgetting earlier fetcher calls.
        func enter() {
            while called.wait(timeout: .now()) == .success {}
            lock.withLock {
                caller = pthread_self()
                returned = false
            }
        }
        /// Marks the end of the call.
        func leave() { lock.withLock { returned = true } }

        /// Called by the fetcher.
        func fetcherStarts() {
            lock.withLock {
                if let caller, pthread_equal(caller, pthread_self()) != 0, !returned {
                    violations.append("the fetcher ran on the calling thread before the call returned")
                }
            }
            called.signal()
        }

        /// Called by an observer that runs inside the call: the fetcher must not start meanwhile.
        func checkNotStartedDuringCall() {
            if called.wait(timeout: .now() + .milliseconds(200)) == .success {
                lock.withLock { violations.append("the fetcher started before the call returned") }
                called.signal()
            }
        }

        var problems: [String] { lock.withLock { violations } }
    }

    @Test(.timeLimit(.minutes(10)))
    func aRemoteFetcherStartsAfterFetchDataReturns() async {
        let probe = Probe()
        let source = RemoteDataSource(fetcher: ClosureFetcher<Int> { sink in
            probe.fetcherStarts()
            await sink.deliver([1])
        })
        let watch = source.loadEvents.observe { event in
            if event == .willLoad { probe.checkNotStartedDuringCall() }
        }
        defer { watch.cancel() }
        for _ in 0..<3 {
            probe.enter()
            let load = source.fetchData()
            probe.leave()
            #expect(await load.outcome == .loaded(objects: 1))
        }
        #expect(probe.problems == [])
    }

    @Test(.timeLimit(.minutes(10)))
    func aPaginatedFetcherStartsAfterFetchDataAndFetchNextPageReturn() async {
        let probe = Probe()
        let source = PaginatedDataSource(fetcher: ClosurePageFetcher<Int> { token in
            probe.fetcherStarts()
            let page = if case .number(let number) = token { number } else { 1 }
            return Page(objects: [page], next: page < 3 ? .number(page + 1) : nil)
        })
        let events = source.loadEvents.observe { event in
            if event == .willLoad { probe.checkNotStartedDuringCall() }
        }
        let paging = source.pagination.observe(emitsCurrentValue: false) { state in
            if state.isLoadingNextPage { probe.checkNotStartedDuringCall() }
        }
        defer {
            events.cancel()
            paging.cancel()
        }
        probe.enter()
        let first = source.fetchData()
        probe.leave()
        #expect(await first.outcome == .loaded(objects: 1))
        for page in 2...3 {
            probe.enter()
            let next = source.fetchNextPage()
            probe.leave()
            #expect(await next.outcome == .loaded(objects: 1), "page \(page)")
        }
        #expect(source.allObjects == [1, 2, 3])
        #expect(probe.problems == [])
    }
}
