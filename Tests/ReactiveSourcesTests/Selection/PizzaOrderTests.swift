import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// The data-source adapter scenario as a user writes it: a Multi of a "Size" section with
/// exactly one choice and a "Toppings" section with at most two, its sections named by the
/// children, the size preselected, rows and selection observed in one subscription.
@Suite("Selection: the pizza order")
struct PizzaOrderTests {
    struct MenuItem: Hashable, Sendable, Identifiable {
        var id: String
        var price: Int
    }

    static func menu() -> (sizes: SimpleDataSource<MenuItem>, toppings: SimpleDataSource<MenuItem>, order: MultiDataSource<MenuItem>) {
        let sizes = SimpleDataSource(name: "Size", objects: [MenuItem(id: "Small", price: 8), MenuItem(id: "Medium", price: 10), MenuItem(id: "Large", price: 12)])
        let toppings = SimpleDataSource(name: "Toppings", objects: ["Basil", "Olives", "Chili", "Garlic"].map { MenuItem(id: $0, price: 1) })
        return (sizes, toppings, MultiDataSource(name: "Pizza", children: [sizes, toppings]))
    }

    @Test func anOrderReadsNaturallyEndToEnd() throws {
        let (sizes, toppings, order) = Self.menu()
        #expect(order.sectionIDs == ["Size", "Toppings"])
        #expect(order.snapshot.sections.map(\.id) == ["Size", "Toppings"])
        let choice = Selection(source: order, policies: ["Size": .exactlyOne, "Toppings": .upTo(2)])
        // Valid from the start: the first size is preselected.
        #expect(choice.selectedObjects(inSection: "Size").map(\.id) == ["Small"])

        // One subscription: the rows and the selection, always from the same snapshot.
        let seen = Recorder<(rows: [String], selected: [String])>()
        let watch = choice.state.observe { state in
            seen.append((state.snapshot.allObjects.map(\.id), state.selectedObjects.map(\.id)))
        }
        defer { watch.cancel() }

        try choice.select(at: RowPath(row: 1, section: 0))      // Medium replaces Small
        try choice.select(at: RowPath(row: 0, section: 1))      // Basil
        try choice.select(at: RowPath(row: 2, section: 1))      // Chili
        try choice.select(at: RowPath(row: 3, section: 1))      // Garlic evicts Basil, the oldest
        #expect(choice.selectedObjects.map(\.id) == ["Medium", "Chili", "Garlic"])
        #expect(throws: SelectionError.belowMinimum(section: 0, minimum: 1)) {
            try choice.deselect(at: RowPath(row: 1, section: 0))
        }

        // A price change is an update of the same row: it stays selected, with its new price.
        try toppings.replace(at: 2, with: MenuItem(id: "Chili", price: 2))
        #expect(choice.selectedObjects(inSection: "Toppings") == [MenuItem(id: "Chili", price: 2), MenuItem(id: "Garlic", price: 1)])
        // Garlic moves to the top: still selected, at its new row.
        try toppings.move(from: 3, to: 0)
        #expect(choice.isSelected(at: RowPath(row: 0, section: 1)))
        // Chili is sold out: it leaves the selection; the toppings may go below two.
        _ = try toppings.remove(at: 3)
        #expect(choice.selectedObjects(inSection: "Toppings").map(\.id) == ["Garlic"])
        // Medium is sold out: the size section stays valid with the first size.
        _ = try sizes.remove(at: 1)
        #expect(choice.selectedObjects(inSection: "Size").map(\.id) == ["Small"])

        let last = try #require(seen.values.last)
        #expect(last.rows == ["Small", "Large", "Garlic", "Basil", "Olives"])
        #expect(last.selected == ["Small", "Garlic"])
        for value in seen.values {
            #expect(Set(value.selected).isSubset(of: value.rows), "a selected object outside its rows: \(value)")
        }
        #expect(choice.core.lookups == 0, "every update was followed through its change set")
    }

    @Test func aSizeSectionThatLoadsLaterIsPreselectedWhenItsRowsArrive() {
        let sizes = SimpleDataSource<MenuItem>(name: "Size", objects: [])
        let toppings = SimpleDataSource(name: "Toppings", objects: [MenuItem(id: "Basil", price: 1)])
        let choice = Selection(source: MultiDataSource(children: [sizes, toppings]), policies: ["Size": .exactlyOne])
        #expect(choice.selectedObjects.isEmpty)
        sizes.append([MenuItem(id: "Small", price: 8), MenuItem(id: "Large", price: 12)])
        #expect(choice.selectedObjects.map(\.id) == ["Small"])
        _ = try? sizes.remove(at: 0)
        _ = try? sizes.remove(at: 0)
        #expect(choice.selectedObjects.isEmpty, "nothing left to select")
        sizes.append([MenuItem(id: "Huge", price: 20)])
        #expect(choice.selectedObjects.map(\.id) == ["Huge"])
        choice.clear()
        #expect(choice.selectedObjects.map(\.id) == ["Huge"], "clear() tops the section up again")
    }

    @Test func multiSectionIDsAreUniqueWhateverTheNames() {
        let children: [any DataSource<Int>] = [
            SimpleDataSource(name: "A", objects: [1]), SimpleDataSource(name: "", objects: [2]),
            SimpleDataSource(name: "A", objects: [3]), SimpleDataSource(name: "A#2", objects: [4]),
        ]
        let multi = MultiDataSource(children: children)
        #expect(multi.sectionIDs == ["A", "#1", "A#2", "A#2#3"])
        #expect(multi.snapshot.sections.map(\.id) == multi.sectionIDs)
        #expect(multi.snapshot.sections.map(\.title) == ["A", "", "A", "A#2"])
        let spliced = MultiDataSource(children: [SimpleDataSource(name: "A", objects: [1])], splicesChildSections: true)
        #expect(spliced.snapshot.sections.map(\.id) == ["A.A"])
        // Ids given at creation win over names; empty or missing ones fall back to the name.
        let given = MultiDataSource(children: children, sectionIDs: ["size", "", "size"])
        #expect(given.sectionIDs == ["size", "#1", "size#2", "A#2"])
        #expect(given.snapshot.sections.map(\.title) == ["A", "", "A", "A#2"])
        #expect(MultiDataSource(children: children, sectionIDs: ["a", "b", "c", "d", "extra"]).sectionIDs == ["a", "b", "c", "d"])
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let (_, _, order) = Self.menu()
        let choice = Selection(source: order, policies: ["Size": .exactlyOne, "Toppings": .upTo(2)], otherwise: .none)
        let before = choice.state.value.revision
        for path in [RowPath(row: 3, section: 0), RowPath(row: -1, section: 1), RowPath(row: 0, section: 2), RowPath(row: 0, section: -1)] {
            #expect(throws: SelectionError.invalidPath(path)) { try choice.select(at: path) }
            #expect(throws: SelectionError.invalidPath(path)) { try choice.deselect(at: path) }
            #expect(throws: SelectionError.invalidPath(path)) { try choice.toggle(at: path) }
            #expect(!choice.isSelected(at: path))
        }
        #expect(choice.selectedObjects(inSection: 7).isEmpty)
        #expect(choice.selectedObjects(inSection: "Drinks").isEmpty)
        #expect(choice.state.value.revision == before)
        #expect(choice.selectedObjects.map(\.id) == ["Small"])
        // A policy of .upTo with a negative count selects nothing.
        #expect(SelectionPolicy.upTo(-3) == .none)
    }

    @Test func aLargeChangeOfAChainKeepsTheSelectionByIdentity() throws {
        struct Row: Hashable, Sendable, Identifiable { var id: Int; var value: Int }
        let rows = SimpleDataSource(name: "r", objects: (0..<200).map { Row(id: $0, value: $0 % 7) })
        let threshold = MutableProperty(7)
        let chain = rows.filter { row in row.value < threshold.value }.sorted { $0.id > $1.id }
        let selection = Selection(source: chain)
        try selection.select(at: RowPath(item: 0, section: 0))   // id 199 (value 3)
        try selection.select(at: RowPath(item: 2, section: 0))   // id 197 (value 1)
        threshold.value = 2                                        // hides most rows at once
        #expect(selection.selectedObjects.map(\.id) == [197])
        threshold.value = 7
        #expect(selection.selectedObjects.map(\.id) == [197], "199 left for good")
    }
}
