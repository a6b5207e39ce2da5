import Testing
@testable import ReactiveSources

@Suite("Content state machine")
struct ContentStateTests {
    let failure = DataSourceError.other(TestFailure("x"))

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

    /// Every documented row and column of the transition table, with and without content.
    @Test func everyCellOfTheDocumentedTable() {
        // Each state of the table, reached through the public API, with its settled phase.
        let states: [(name: String, state: ContentState, settled: ContentState.Phase)] = [
            ("initial", .initial, .initial),
            ("loading", ContentState.initial.applying(.willLoad, hasContent: false), .initial),
            ("refreshing", ContentState.initial.applying(.didFinishLoading, hasContent: true).applying(.willLoad, hasContent: true), .loaded),
            ("loaded", ContentState.initial.applying(.didFinishLoading, hasContent: true), .loaded),
            ("empty", ContentState.initial.applying(.didFinishLoading, hasContent: false), .empty),
            ("error", ContentState.initial.applying(.didFail(failure), hasContent: false), .error(failure)),
        ]
        let events: [LoadEvent] = [.willLoad, .didPartiallyLoad, .didFinishLoading, .didFail(.cancelled), .didFail(failure)]
        for (name, state, settled) in states {
            let isFetching = state.phase == .loading || state.phase == .refreshing
            for event in events {
                for hasContent in [false, true] {
                    let expected: ContentState.Phase
                    switch event {
                    case .willLoad, .didPartiallyLoad:
                        expected = isFetching ? state.phase : (hasContent ? .refreshing : .loading)
                    case .didFinishLoading:
                        expected = hasContent ? .loaded : .empty
                    case .didFail(let error) where error.isCancellation:
                        expected = isFetching ? (hasContent ? .loaded : settled) : state.phase
                    case .didFail(let error):
                        expected = .error(error)
                    }
                    let actual = state.applying(event, hasContent: hasContent).phase
                    #expect(actual == expected, "\(name) + \(event), content: \(hasContent)")
                }
            }
        }
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
