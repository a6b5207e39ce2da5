import ReactiveSources
import Testing
@testable import reactive_demo

/// Whole screens at 80x24 and 120x40: every line fits, the help is whole, the cursor's
/// section gets the room and the cursor row is on screen.
@Suite struct ScreenLayoutTests {
    static let help = [
        HelpItem(full: "n next page", short: "n page"), HelpItem(full: "r refresh", short: "r refresh"),
        HelpItem(full: "c cancel", short: "c cancel"), HelpItem(full: "e fail next fetch", short: "e fail"),
        HelpItem(full: "↑/↓ move", short: "↑↓ move"), HelpItem(full: "space select", short: "space sel"),
        HelpItem(full: "q quit", short: "q quit"),
    ]

    static let snapshot = Snapshot<DemoItem>(sections: [
        SnapshotSection(id: "poem", title: "Poem", objects: (1...8).map { .line(number: $0, text: "line \($0)") }),
        SnapshotSection(id: "feed", title: "Feed", objects: (1...15).map { .post(FeedPost(id: $0, title: "Post \($0)", author: nil)) }, placeholder: .loadingMore),
        SnapshotSection(id: "photos", title: "Photos", objects: PhotoStream.photos.map(DemoItem.photo)),
        SnapshotSection(id: "k1", title: "Photos · landscape", objects: [.photo(PhotoStream.photos[0])]),
        SnapshotSection(id: "k2", title: "Photos · people", objects: [.photo(PhotoStream.photos[3])]),
        SnapshotSection(id: "k3", title: "Photos · portrait", objects: [.photo(PhotoStream.photos[1])]),
    ])

    static let status = StatusLine(
        contentState: "loaded", page: 3, numberOfPages: 5, totalResults: 23, shownResults: 15, nextPage: "available",
        timings: [FetchTimings.Entry(name: "Poem", lastMilliseconds: 1), FetchTimings.Entry(name: "Feed", lastMilliseconds: 250)],
        message: "a note"
    )

    func screen(width: Int, height: Int, cursor: RowPath?) -> [String] {
        ScreenLayout(width: width, height: height).frame(
            Self.snapshot, cursor: cursor, selected: [], spinnerFrame: 0, nextPageLoading: false, status: Self.status, help: Self.help
        )
    }

    @Test func at80x24TheCursorSectionGetsTheRoomAndTheHelpWraps() {
        let lines = screen(width: 80, height: 24, cursor: RowPath(item: 12, section: 1))
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        // Every section's header with its count.
        for header in ["── Poem ", "── Feed ", "── Photos ", "── Photos · landscape ", "── Photos · people ", "── Photos · portrait "] {
            #expect(lines.contains { $0.hasPrefix(header) }, "\(header)")
        }
        #expect(lines.contains(" ▸ [ ] #13 Post 13"))
        // The feed has 16 rows; the others are folded to their header.
        #expect(!lines.contains { $0.hasPrefix("   [ ]  1  line 1") })
        #expect(lines.filter { $0.hasPrefix("   [ ] #") || $0.hasPrefix(" ▸ [ ] #") }.count >= 8)
        // The key reminder is whole: short forms, wrapped.
        let help = lines.suffix(2).joined(separator: " · ")
        for key in ["n page", "r refresh", "c cancel", "e fail", "↑↓ move", "space sel", "q quit"] {
            #expect(help.contains(key), "\(key) in \(help)")
        }
    }

    @Test func at120x40TheFocusedSectionIsWholeAndTheOthersShowTheirLastRows() {
        let lines = screen(width: 120, height: 40, cursor: nil)
        #expect(lines.count == 40)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 120 })
        // No cursor: the poem is focused and whole; the feed shows its last rows; the small
        // sections are whole.
        #expect(lines.filter { $0.hasPrefix("   [ ]  ") }.count == 8)
        #expect(lines.contains("     … 6 more above"))
        #expect(lines.contains("       ↓ More to load (n)"))
        #expect(lines.filter { $0.contains("more above") || $0.contains("more below") }.count == 1)
        #expect(lines.last == "n next page · r refresh · c cancel · e fail next fetch · ↑/↓ move · space select · q quit")
    }

    @Test func everySizeFitsAndShowsTheCursorRow() {
        for width in [40, 60, 80, 120] {
            for height in 14...40 {
                for item in [0, 7, 15] {
                    let lines = screen(width: width, height: height, cursor: RowPath(item: item, section: 1))
                    #expect(lines.count <= height && lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width)x\(height)")
                    #expect(lines.contains { $0.hasPrefix(" ▸ ") }, "\(width)x\(height) cursor \(item)")
                }
            }
        }
    }
}
