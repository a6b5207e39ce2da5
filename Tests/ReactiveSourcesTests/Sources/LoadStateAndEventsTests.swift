import Foundation
import Signals
import Testing
import ReactiveSources

/// A source's load state and the load event that changes it are published as one step: a
/// thread that reads a state and then observes `loadEvents` never receives the event that
/// produced that state (it would count a fetch start or a finisher twice, as a test that
/// waits for "idle" and then observes did). One thread fetches, round after round, while
/// another spins on `loadState`, observes as soon as it sees the round's new state, and
/// checks what it received once the round is over.
@Suite("Load state and load events agree across threads")
struct LoadStateAndEventsTests {
    static let rounds = 3_000

    @Test func paginatedSource() async {
        let source = PaginatedDataSource(name: "pages", fetcher: Self.alternatingFetcher())
        let problems = await onOwnThread { Self.observeOnEveryNewState(of: source) }
        #expect(problems.isEmpty, "\(problems.count) of \(Self.rounds) rounds: \(problems.prefix(3))")
    }

    @Test func multiSource() async {
        let child = PaginatedDataSource(name: "pages", fetcher: Self.alternatingFetcher())
        let multi = MultiDataSource(name: "all", children: [child])
        let problems = await onOwnThread { Self.observeOnEveryNewState(of: multi) }
        #expect(problems.isEmpty, "\(problems.count) of \(Self.rounds) rounds: \(problems.prefix(3))")
    }

    /// A fetcher that answers at once, without suspending: a page on even calls, an error on
    /// odd ones, so consecutive fetches end in different states.
    private static func alternatingFetcher() -> ClosurePageFetcher<Int> {
        let calls = Counter()
        return ClosurePageFetcher { _ in
            let call = calls.value
            calls.increment()
            if call % 2 == 1 { throw TestFailure("odd call \(call)") }
            return Page(objects: [call], next: nil)
        }
    }

    /// Runs `rounds` fetches of `source` on a thread of its own, one at a time. In each round
    /// this thread spins until the state leaves the last round's end state, observes at
    /// once, and after the round checks that it received no `willLoad` if it saw the fetch
    /// running, and nothing at all if it saw the fetch's end state. Returns one line per
    /// round that received more.
    ///
    /// The fetching thread blocks until its round's fetch has sent its finisher (it does not
    /// spin): the fetch runs in a task on the cooperative pool, which a spinning thread
    /// would slow down, and a round must not end before its fetch does (the next round
    /// would cancel it, and the alternating results would then be out of step with the
    /// rounds for the rest of the run).
    private static func observeOnEveryNewState(of source: some DataSource) -> [String] {
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let finishers = source.loadEvents.observe { event in
            if event.isFinisher { ended.signal() }
        }
        defer { finishers.cancel() }
        let stuck = Recorder<Int>()
        Thread {
            for round in 0..<rounds {
                go.wait()
                source.fetchData()
                // Woken by the finisher. The hang guard is against a broken source only (then the
                // run stops here and fails); the fetch runs on the cooperative pool, which other
                // suites may keep busy for minutes on a loaded machine: it counts pool time.
                if !waitGuarded(for: ended) { stuck.append(round) }
                done.signal()
            }
        }.start()

        var problems: [String] = []
        for round in 0..<rounds {
            go.signal()
            var seen: LoadState?
            // `fetchData()` publishes the loading state before it returns, so this ends as soon
            // as the fetching thread (not a pool thread) has run; the deadline is only a guard
            // against a broken source, generous because on a loaded machine that thread may
            // wait a while to run.
            let deadline = Date().addingTimeInterval(120)
            while seen == nil && Date() < deadline {
                let state = source.loadState.value
                if state.isFetching || Self.isEnd(of: round, state) { seen = state }
            }
            let events = Recorder<LoadEvent>()
            let subscription = source.loadEvents.observe { events.append($0) }
            done.wait()
            subscription.cancel()
            if !stuck.values.isEmpty {
                problems.append("round \(round): the fetch did not end within 120 s of pool time (hang guard)")
                break
            }
            guard let seen else {
                problems.append("round \(round): the fetch neither started nor ended within 120 s")
                continue
            }
            let received = events.values
            if seen.isFetching ? received.contains(.willLoad) : !received.isEmpty {
                problems.append("round \(round): read \(seen.status), then received \(received)")
            }
        }
        return problems
    }

    /// Whether `state` is the end state of round `round`: finished on even rounds (the
    /// fetcher's even calls succeed), failed on odd ones.
    private static func isEnd(of round: Int, _ state: LoadState) -> Bool {
        switch state.status {
        case .finished: round % 2 == 0
        case .failed: round % 2 == 1
        default: false
        }
    }
}
