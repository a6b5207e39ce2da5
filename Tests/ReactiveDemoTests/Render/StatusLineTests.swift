import Testing
@testable import reactive_demo

/// The status lines show the content state, page x of y, results, next page, fetch timings
/// and the message.
@Suite struct StatusLineTests {
    @Test func everyPart() {
        let status = StatusLine(
            contentState: "loading more", page: 2, numberOfPages: 5, totalResults: 23, shownResults: 10,
            nextPage: "loading",
            timings: [
                FetchTimings.Entry(name: "Poem", lastMilliseconds: 3, running: 0),
                FetchTimings.Entry(name: "Feed", lastMilliseconds: 251, running: 1),
                FetchTimings.Entry(name: "Photos", lastMilliseconds: nil, running: 1),
                FetchTimings.Entry(name: "Other", lastMilliseconds: nil, running: 0),
            ],
            message: "cancelled"
        )
        #expect(status.render() == [
            "state: loading more · page 2 of 5 · 10 of 23 results · next page: loading",
            "fetch times: Poem 3 ms · Feed loading (last 251 ms) · Photos loading · Other –",
            "cancelled",
        ])
    }

    @Test func unknownPagingAndNothingElse() {
        let status = StatusLine(contentState: "initial", shownResults: 0, nextPage: "none")
        #expect(status.render() == ["state: initial · page ? of ? · 0 of ? results · next page: none"])
    }
}
