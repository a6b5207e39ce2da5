import Foundation
import ReactiveSources
import Testing
@testable import reactive_demo

/// The demo's Multi, driven through its controller with the simulated API (no latency):
/// sections, the poem's selection policy, an injected failure and the status it shows.
@Suite(.timeLimit(.minutes(10))) struct DemoModelTests {
    static let poem = ["first line", "second line", "third line", "fourth line", "fifth line"]

    /// A started model over a temporary poem and the simulated API answering after
    /// `latency` milliseconds, once every section has settled.
    static func settledModel(latency: Int = 0) async throws -> (DemoController, PoemFile) {
        let file = try PoemFile(lines: poem)
        var options = DemoOptions()
        options.latencyMilliseconds = latency
        let controller = DemoController(model: DemoModel(options: options, poemURL: file.url))
        controller.model.start()
        try await waitUntil(controller.model.multi.loadState) { !$0.isFetching }
        return (controller, file)
    }

    @Test func sectionsAreThePoemTheFeedThePhotosAndThePhotosByKind() async throws {
        let (controller, file) = try await Self.settledModel()
        defer { file.remove() }
        let snapshot = controller.model.multi.snapshot
        #expect(snapshot.sections.map(\.title) == ["Poem", "Feed", "Photos", "Photos · landscape", "Photos · people", "Photos · portrait"])
        #expect(Array(snapshot.sections[0].objects) == Self.poem.enumerated().map { DemoItem.line(number: $0.offset + 1, text: $0.element) })
        #expect(Array(snapshot.sections[1].objects) == (1...5).map { DemoItem.post(SimulatedFeedAPI.post($0)) })
        #expect(snapshot.sections[1].placeholder == .loadingMore)
        #expect(Array(snapshot.sections[2].objects) == PhotoStream.photos.map(DemoItem.photo))
        #expect(snapshot.sections[3].objects.count + snapshot.sections[4].objects.count + snapshot.sections[5].objects.count == PhotoStream.photos.count)
    }

    @Test func thePoemKeepsAtMostTwoAndAtLeastOneSelectedLine() async throws {
        let (controller, file) = try await Self.settledModel()
        defer { file.remove() }
        let selection = controller.model.selection
        for item in 0..<3 {
            try selection.select(at: RowPath(item: item, section: 0))
        }
        #expect(selection.selectedObjects == [.line(number: 2, text: "second line"), .line(number: 3, text: "third line")])
        try selection.deselect(at: RowPath(item: 1, section: 0))
        #expect(throws: SelectionError.belowMinimum(section: 0, minimum: 1)) {
            try selection.deselect(at: RowPath(item: 2, section: 0))
        }
        #expect(selection.selectedPaths == [RowPath(item: 2, section: 0)])

        // Other sections have no limit.
        for item in 0..<4 {
            try selection.select(at: RowPath(item: item, section: 1))
        }
        #expect(selection.selectedObjects(inSection: 1).count == 4)
    }

    @Test func spaceTogglesTheRowUnderTheCursorAndReportsARefusal() async throws {
        let (controller, file) = try await Self.settledModel()
        defer { file.remove() }
        #expect(controller.handle(.down))
        #expect(controller.cursor == RowPath(item: 0, section: 0))
        #expect(controller.handle(.select))
        #expect(controller.model.selection.selectedPaths == [RowPath(item: 0, section: 0)])
        #expect(controller.handle(.select))
        #expect(controller.model.selection.selectedPaths == [RowPath(item: 0, section: 0)])
        #expect(controller.message == "Poem must keep at least 1 selected row.")
        #expect(controller.handle(.up))
        #expect(controller.cursor == RowPath(item: 0, section: 0))
        #expect(!controller.handle(.quit))
    }

    @Test func anInjectedFailureFailsTheNextPageAndKeepsTheContent() async throws {
        let (controller, file) = try await Self.settledModel()
        defer { file.remove() }
        let feed = controller.model.feed
        let api = try #require(controller.model.simulatedAPI)
        let served = api.requestsServed
        _ = controller.handle(.injectFailure)
        #expect(controller.statusLine().message == "the next feed request will fail")
        _ = controller.handle(.nextPage)
        try await waitUntil(feed.pagination) { !$0.isLoadingNextPage }

        #expect(feed.snapshot.sections[0].objects.count == 5)
        #expect(api.requestsServed == served, "the injected failure must not reach the API")
        let message = try #require(feed.pagination.value.nextPageError?.message)
        #expect(message.contains("injected failure"))
        #expect(feed.snapshot.sections[0].placeholder == .error(message: message))
        let status = controller.statusLine()
        #expect(status.nextPage == "failed")
        #expect(status.message == "next page failed (n retries): \(message)")
        #expect(status.page == 1 && status.numberOfPages == 5 && status.totalResults == 23 && status.shownResults == 5)
        #expect(status.timings.map(\.name) == ["Poem", "Feed", "Photos"])
        #expect(status.timings.allSatisfy { $0.lastMilliseconds != nil && $0.running == 0 })

        // n retries the failed page.
        _ = controller.handle(.nextPage)
        try await waitUntil(feed.pagination) { !$0.isLoadingNextPage }
        #expect(feed.snapshot.sections[0].objects.count == 10)
        #expect(api.requestsServed == served + 1)
        #expect(controller.statusLine().page == 2)
        #expect(controller.statusLine().message == nil)
    }

    @Test func cancelKeepsTheContentAndEndsTheFetch() async throws {
        // A request takes 200 ms, so the cancel (the very next call) reaches it in flight.
        let (controller, file) = try await Self.settledModel(latency: 200)
        defer { file.remove() }
        let feed = controller.model.feed
        _ = controller.handle(.nextPage)
        try await waitUntil(feed.pagination) { !$0.isLoadingNextPage }
        #expect(feed.snapshot.sections[0].objects.count == 10)

        _ = controller.handle(.refresh)
        _ = controller.handle(.cancel)
        try await waitUntil(controller.model.multi.loadState) { !$0.isFetching }
        #expect(feed.snapshot.sections[0].objects.count == 10)
        #expect(feed.pagination.value.loadedPages == 2)
        #expect(feed.loadState.value.error == .cancelled)
        #expect(controller.message == "cancelled")
    }

    @Test func theRefreshNoteGoesOnceEverySectionHasSettled() async throws {
        let (controller, file) = try await Self.settledModel(latency: 20)
        defer { file.remove() }
        _ = controller.handle(.refresh)
        #expect(controller.statusLine().message == "refreshing every section")
        try await waitUntil(controller.model.multi.loadState) { !$0.isFetching }
        #expect(controller.statusLine().message == nil)
    }

    @Test func refusalsNameTheSectionByItsTitle() {
        let snapshot = Snapshot<DemoItem>(sections: [
            SnapshotSection(id: "p", title: "Poem", objects: [.line(number: 1, text: "a")]),
            SnapshotSection(id: "u", title: nil, objects: []),
        ])
        #expect(DemoController.describe(.belowMinimum(section: 0, minimum: 2), in: snapshot) == "Poem must keep at least 2 selected rows.")
        #expect(DemoController.describe(.notSelectable(section: 1), in: snapshot) == "Section 2 does not allow selection.")
        #expect(DemoController.describe(.invalidPath(RowPath(item: 4, section: 0)), in: snapshot) == "No row 5 in Poem.")
        #expect(DemoController.describe(.placeholderRow(RowPath(item: 0, section: 7)), in: snapshot)
            == "Row 1 of Section 8 is a placeholder and cannot be selected.")
    }

    @Test func eIsRefusedOnARealAPI() throws {
        let file = try PoemFile(lines: Self.poem)
        defer { file.remove() }
        var options = DemoOptions()
        options.url = URL(string: "http://127.0.0.1:1/")
        let controller = DemoController(model: DemoModel(options: options, poemURL: file.url))
        #expect(controller.handle(.injectFailure))
        #expect(!controller.model.failureInjector.isArmed)
        #expect(controller.message == "e (fail the next fetch) works on the simulated API only")
        #expect(!controller.helpItems.contains { $0.full.hasPrefix("e ") })
    }

    @Test func refreshingOrCancellingThePhotosKeepsEveryRowAndEverySection() async throws {
        let (controller, file) = try await Self.settledModel(latency: 20)
        defer { file.remove() }
        let multi = controller.model.multi
        let photos = controller.model.photos
        #expect(multi.snapshot.numberOfSections == 6)
        let seen = Recorded()
        let subscription = multi.updates.observe { update in
            seen.append(sections: update.snapshot.numberOfSections, photos: update.snapshot.sections[2].objects.count)
        }
        defer { subscription.cancel() }

        // A whole refresh: every update has the 6 sections and the 6 photos.
        _ = controller.handle(.refresh)
        try await waitUntil(photos.loadState) { $0.isFetching }
        try await waitUntil(multi.loadState) { !$0.isFetching }
        #expect(photos.snapshot.sections[0].objects.count == 6)
        #expect(seen.values.allSatisfy { $0 == (6, 6) }, "\(seen.values)")

        // A refresh cancelled while the photos stream in.
        _ = controller.handle(.refresh)
        _ = controller.handle(.cancel)
        try await waitUntil(multi.loadState) { !$0.isFetching }
        #expect(Array(photos.snapshot.sections[0].objects) == PhotoStream.photos)
        #expect(multi.snapshot.numberOfSections == 6)
        #expect(seen.values.allSatisfy { $0 == (6, 6) }, "\(seen.values)")
    }
}

/// Section and photo counts seen by an observer.
private final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(Int, Int)] = []
    var values: [(Int, Int)] { lock.withLock { stored } }
    func append(sections: Int, photos: Int) { lock.withLock { stored.append((sections, photos)) } }
}
