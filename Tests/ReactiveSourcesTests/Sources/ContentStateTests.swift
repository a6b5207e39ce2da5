import Testing
@testable import ReactiveSources

@Suite("Content state machine")
struct ContentStateTests {
    let failure = DataSourceError.failed(TestFailure("x"))

    func run(_ steps: [(LoadEvent, Bool)]) -> ContentState.Phase {
        steps.reduce(ContentState.initial) { $0.applying($1.0, hasContent: $1.1) }.phase
    }

    @Test func transitionTable() {
        #expect(run([(.willLoad, false)]) == .loading)
        #expect(run([(.willLoad, false), (.didPartiallyLoad, true)]) == .loading)
        #expect(run([(.willLoad, false), (.didFinishLoading, true)]) == .loaded)
        #expect(run([(.willLoad, false), (.didFinishLoading, false)]) == .empty)
        #expect(run([(.willLoad, false), (.didFail(failure), false)]) == .error(failure))
        #expect(run([(.willLoad, false), (.didFinishLoading, true), (.willLoad, true)]) == .refreshing)
        #expect(run([(.willLoad, false), (.didFinishLoading, false), (.willLoad, false)]) == .loading)
        #expect(run([(.willLoad, false), (.didFail(failure), true), (.willLoad, true)]) == .refreshing)
        #expect(run([(.willLoad, false), (.didFail(failure), false), (.willLoad, false)]) == .loading)
    }

    @Test func cancellationReturnsToTheSettledState() {
        #expect(run([(.willLoad, false), (.didFail(.cancelled), false)]) == .initial)
        #expect(run([(.willLoad, false), (.didFinishLoading, false), (.willLoad, false), (.didFail(.cancelled), false)]) == .empty)
        #expect(run([(.willLoad, false), (.didFinishLoading, true), (.willLoad, true), (.didFail(.cancelled), true)]) == .loaded)
        #expect(run([(.willLoad, false), (.didPartiallyLoad, true), (.didFail(.cancelled), true)]) == .loaded)
        #expect(run([(.willLoad, false), (.didFail(failure), false), (.willLoad, false), (.didFail(.cancelled), false)]) == .error(failure))
    }

    @Test func loadStateKeepsStatusAndContentTogether() {
        let state = LoadState().applying(.willLoad, hasContent: false)
        #expect(state.status == .loading && state.isFetching && state.content.phase == .loading)
        let failed = state.applying(.didFail(failure), hasContent: false)
        #expect(failed.error == failure && !failed.isFetching)
        #expect(failed.content.description == "error")
    }
}
