import Foundation
import Testing
@testable import ReactiveSources

@Suite("Selection")
struct SelectionTests {
    @Test func maximumEvictsTheOldestSelection() throws {
        let source = SimpleDataSource(name: "s", objects: ["a", "b", "c", "d"])
        let selection = Selection(source: source, policy: SelectionPolicy(minimum: 0, maximum: 2))
        try selection.select(at: RowPath(item: 2, section: 0))
        try selection.select(at: RowPath(item: 0, section: 0))
        try selection.select(at: RowPath(item: 3, section: 0))
        #expect(selection.selectedObjects(inSection: 0) == ["a", "d"], "c, the oldest, was evicted; row order")
    }

    @Test func deselectingBelowTheMinimumIsRefused() throws {
        let source = SimpleDataSource(name: "s", objects: ["a", "b"])
        let selection = Selection(source: source, policy: SelectionPolicy(minimum: 1, maximum: 2))
        try selection.select(at: RowPath(item: 1, section: 0))
        #expect(throws: SelectionError.belowMinimum(section: 0, minimum: 1)) {
            try selection.deselect(at: RowPath(item: 1, section: 0))
        }
        try selection.select(at: RowPath(item: 0, section: 0))
        try selection.deselect(at: RowPath(item: 1, section: 0))
        #expect(selection.selectedObjects(inSection: 0) == ["a"])
    }

    @Test func selectedObjectsComeBackInRowOrder() throws {
        let source = SimpleDataSource(name: "s", objects: [5, 4, 3, 2, 1])
        let selection = Selection(source: source)
        for item in [4, 0, 2] { try selection.select(at: RowPath(item: item, section: 0)) }
        #expect(selection.selectedObjects == [5, 3, 1])
        #expect(selection.selectedPaths == [RowPath(item: 0, section: 0), RowPath(item: 2, section: 0), RowPath(item: 4, section: 0)])
    }

    @Test func selectionSurvivesUpdatesWhileObjectsArePresent() throws {
        let source = SimpleDataSource(name: "s", objects: ["a", "b", "c"])
        let selection = Selection(source: source)
        try selection.select(at: RowPath(item: 1, section: 0))
        try selection.select(at: RowPath(item: 2, section: 0))
        try source.insert(["z"], at: 0)
        #expect(selection.selectedObjects == ["b", "c"])
        #expect(selection.isSelected(at: RowPath(item: 2, section: 0)))
        try source.remove(at: 3)
        #expect(selection.selectedObjects == ["b"], "removed objects leave the selection")
    }

    @Test func aRemovedObjectComesBackUnselected() throws {
        let source = SimpleDataSource(name: "s", objects: ["a", "b", "c"])
        let selection = Selection(source: source)
        try selection.select(at: RowPath(item: 1, section: 0))
        #expect(try source.remove(at: 1) == "b")
        #expect(selection.selectedObjects == [])
        source.append(["b"])
        #expect(selection.selectedObjects == [], "re-adding an object does not reselect it")
        #expect(!selection.isSelected(at: RowPath(item: 2, section: 0)))
    }

    @Test func multiExposesSelectionsOfAllSections() throws {
        let multi = MultiDataSource(children: [SimpleDataSource(name: "A", objects: [1, 2]), SimpleDataSource(name: "B", objects: [3, 4])])
        let selection = Selection(source: multi, policies: ["A": .single])
        try selection.select(at: RowPath(item: 0, section: 0))
        try selection.select(at: RowPath(item: 1, section: 0))
        try selection.select(at: RowPath(item: 1, section: 1))
        try selection.select(at: RowPath(item: 0, section: 1))
        #expect(selection.selectedObjects == [2, 3, 4])
    }

    @Test func badPathsAndPlaceholdersAreRefused() async throws {
        let fetcher = ScriptedFetcher<Int>()
        let remote = RemoteDataSource(name: "r", fetcher: fetcher)
        let selection = Selection(source: remote)
        remote.fetchData()
        #expect(throws: SelectionError.placeholderRow(RowPath(item: 0, section: 0))) { try selection.select(at: RowPath(item: 0, section: 0)) }
        #expect(throws: SelectionError.invalidPath(RowPath(item: 5, section: 0))) { try selection.select(at: RowPath(item: 5, section: 0)) }
        #expect(throws: SelectionError.invalidPath(RowPath(item: 0, section: -1))) { try selection.select(at: RowPath(item: 0, section: -1)) }
        let none = Selection(source: SimpleDataSource(name: "n", objects: [1]), policy: .none)
        #expect(throws: SelectionError.notSelectable(section: 0)) { try none.select(at: RowPath(item: 0, section: 0)) }
        #expect(!selection.isSelected(at: RowPath(item: 9, section: 9)))
        remote.cancelFetch()
    }

    @Test func selectionIsObservable() throws {
        let source = SimpleDataSource(name: "s", objects: ["a", "b"])
        let selection = Selection(source: source)
        let seen = Recorder<[Int: [String]]>()
        let subscription = selection.selection.observe { seen.append($0) }
        defer { subscription.cancel() }
        try selection.select(at: RowPath(item: 0, section: 0))
        try source.remove(at: 0)
        #expect(seen.values == [[:], [0: ["a"]], [:]])
    }
}
