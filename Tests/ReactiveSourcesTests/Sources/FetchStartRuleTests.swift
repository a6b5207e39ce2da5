import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// The one rule for when a fetcher starts: `fetchData()` and `fetchNextPage()` return before
/// their fetcher is called, on every platform (Remote and Paginated alike).
///
/// Two ways to break it are checked: a fetcher called while the call is still inside (an
/// observer that runs during the call, once its fetch task exists, waits there until that
/// task has reached its closed gate, seen through ``StartGate/reachedClosed``; the fetcher
/// must not have started by then), and a fetcher run on the calling thread before the call
/// returns.
@Suite("When the fetcher starts")
struct FetchStartRuleTests {
    /// Records calls of a fetcher against the test's own progress.
    final class Probe: @unchecked Sendable {
        /// Signalled when the fetcher starts.
        private let called = DispatchSemaphore(value: 0)
        /// Signalled when the fetcher starts or a fetch task reaches its gate while it is closed.
        private let settled = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var caller: pthread_t?
        private var returned = true
        private var violations: [String] = []

        /// Makes a fetch call (`fetchData()`, `fetchNextPage()`) on this thread, its fetch
        /// task telling this probe when it reaches its gate (``StartGate/reachedClosed``).
        func call<Result>(_ body: () -> Result) -> Result {
            // Forget earlier fetcher calls.
            while called.wait(timeout: .now()) == .success {}
            while settled.wait(timeout: .now()) == .success {}
            lock.withLock {
                caller = pthread_self()
                returned = false
            }
            let settled = self.settled
            let result = StartGate.$reachedClosed.withValue({ settled.signal() }, operation: body)
            lock.withLock { returned = true }
            return result
        }

        /// Called by the fetcher. (From another thread, a start just before the call returns
        /// is not told apart from one just after: the gate opens as the call's last step.)
        func fetcherStarts() {
            lock.withLock {
                if let caller, pthread_equal(caller, pthread_self()) != 0, !returned {
                    violations.append("the fetcher ran on the calling thread before the call returned")
                }
            }
            called.signal()
            settled.signal()
        }

        /// Called by an observer that runs inside the call once its fetch task exists: waits
        /// until that task has reached its gate, closed until the call returns, or the fetcher
        /// has started (the rule broken). The task is given every chance to start the fetcher,
        /// and no time window is involved.
        func waitForTheTaskAtItsGate() {
            if !waitGuarded(for: settled) {
                lock.withLock { violations.append("the fetch task neither reached its gate nor started the fetcher (hang guard)") }
            }
            checkNotStarted()
        }

        /// Called by an observer that runs inside the call before its fetch task exists (a next
        /// page's task is made after the loading state is published): nothing has started.
        func checkNotStarted() {
            if called.wait(timeout: .now()) == .success {
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
            if event == .willLoad { probe.waitForTheTaskAtItsGate() }
        }
        defer { watch.cancel() }
        for _ in 0..<3 {
            // On a thread of its own: the observer blocks it until the fetch task, on the pool,
            // reaches its gate.
            let load = await onOwnThread { probe.call { source.fetchData() } }
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
            if event == .willLoad { probe.waitForTheTaskAtItsGate() }
        }
        let paging = source.pagination.observe(emitsCurrentValue: false) { state in
            if state.isLoadingNextPage { probe.checkNotStarted() }
        }
        defer {
            events.cancel()
            paging.cancel()
        }
        let first = await onOwnThread { probe.call { source.fetchData() } }
        #expect(await first.outcome == .loaded(objects: 1))
        for page in 2...3 {
            let next = await onOwnThread { probe.call { source.fetchNextPage() } }
            #expect(await next.outcome == .loaded(objects: 1), "page \(page)")
        }
        #expect(source.allObjects == [1, 2, 3])
        #expect(probe.problems == [])
    }
}
