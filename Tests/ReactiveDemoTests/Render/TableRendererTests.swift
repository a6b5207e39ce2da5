import Foundation
import ReactiveSources
import Testing
@testable import reactive_demo

/// A snapshot with objects, each kind of placeholder, a cursor and a selection renders to
/// exactly the expected lines.
@Suite struct TableRendererTests {
    static let post = FeedPost(id: 7, title: "Hello", author: "ada")

    static let snapshot = Snapshot<DemoItem>(sections: [
        SnapshotSection(id: "poem", title: "Poem", objects: [.line(number: 1, text: "one"), .line(number: 2, text: "two")]),
        SnapshotSection(id: "feed", title: "Feed", placeholder: .loading),
        SnapshotSection(id: "empty", title: "Empty", placeholder: .noResults),
        SnapshotSection(id: "broken", title: "Broken", objects: [.post(post)], placeholder: .error(message: "HTTP 503")),
        SnapshotSection(id: "more", title: "More", objects: [.photo(Photo(id: 1, caption: "Cat", kind: "portrait"))], placeholder: .loadingMore),
    ])

    @Test func placeholdersSelectionAndCursor() {
        let lines = TableRenderer(width: 40).render(
            Self.snapshot,
            cursor: RowPath(item: 1, section: 0),
            selected: [RowPath(item: 0, section: 0), RowPath(item: 0, section: 3)],
            spinnerFrame: 2
        )
        #expect(lines == [
            "ReactiveSources demo",
            "── Poem ──────────────────────── 2 items",
            "   [x]  1  one",
            " ▸ [ ]  2  two",
            "── Feed ──────────────────────── 0 items",
            "       ⠹ Loading…",
            "── Empty ─────────────────────── 0 items",
            "       ∅ No results",
            "── Broken ─────────────────────── 1 item",
            "   [x] #7 Hello — ada",
            "       ✖ Error: HTTP 503",
            "── More ───────────────────────── 1 item",
            "   [ ] 📷 Cat (portrait)",
            "       ↓ More to load (n)",
        ])
    }

    @Test func loadingMoreSpinsOnlyWhileTheNextPageLoads() {
        let renderer = TableRenderer()
        #expect(renderer.text(for: .loadingMore, spinnerFrame: 0, nextPageLoading: true) == "⠋ Loading more…")
        #expect(renderer.text(for: .loadingMore, spinnerFrame: 0, nextPageLoading: false) == "↓ More to load (n)")
        #expect(renderer.text(for: .loading, spinnerFrame: 11) == "⠙ Loading…")
        #expect(renderer.text(for: .loading, spinnerFrame: -1) == "⠏ Loading…")
    }

    @Test func statusLinesFollowARuleAndLongLinesAreCut() {
        let status = StatusLine(
            contentState: "loaded", page: 1, numberOfPages: 5, totalResults: 23, shownResults: 5,
            nextPage: "available", timings: [], message: "a message that is far too long to fit in thirty columns"
        )
        let lines = TableRenderer(width: 30).render(Snapshot(), status: status)
        #expect(lines == [
            "ReactiveSources demo",
            "══════════════════════════════",
            "state: loaded · page 1 of 5 ·…",
            "a message that is far too lon…",
        ])
        #expect(lines.allSatisfy { $0.count <= 30 })
    }

    @Test func aCutSectionShowsItsTailOrAWindowAroundTheCursorAndAFoldedOneItsHeader() {
        let lines = (1...10).map { DemoItem.line(number: $0, text: "l\($0)") }
        let snapshot = Snapshot(sections: [
            SnapshotSection(id: "p", title: "P", objects: lines),
            SnapshotSection(id: "q", title: "Q", objects: [.line(number: 1, text: "q")]),
        ])
        let renderer = TableRenderer(width: 20, limits: [3, 0])
        #expect(renderer.render(snapshot, title: "T") == [
            "T",
            "── P ────── 10 items",
            "     … 7 more above",
            "   [ ]  8  l8",
            "   [ ]  9  l9",
            "   [ ] 10  l10",
            "── Q ──────── 1 item",
        ])
        #expect(renderer.render(snapshot, cursor: RowPath(item: 4, section: 0), title: "T") == [
            "T",
            "── P ────── 10 items",
            "     … 3 more above",
            "   [ ]  4  l4",
            " ▸ [ ]  5  l5",
            "   [ ]  6  l6",
            "     … 4 more below",
            "── Q ──────── 1 item",
        ])
    }

    @Test func aSectionWithoutATitleIsNumberedAndWideCharactersCountTwoColumns() {
        let snapshot = Snapshot<DemoItem>(sections: [
            SnapshotSection(id: "a", title: nil, objects: [.photo(Photo(id: 1, caption: "A very long caption here", kind: "x"))]),
        ])
        let lines = TableRenderer(width: 24).render(snapshot, title: "T")
        #expect(lines == ["T", "── Section 1 ──── 1 item", "   [ ] 📷 A very long c…"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 24 })
    }
}
