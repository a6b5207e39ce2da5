import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// Fluent chains (`filter → sorted → sectioned`, `compactMap`) against plain arrays: random
/// edits of a parent, and after each one every chain's snapshot equals the one computed from
/// scratch and its observer's change set turns the previous snapshot into the new one.
/// Replay a failure with `RELIABILITY_SEED=<seed>`.
@Suite("Chains: seeded model")
struct ChainModelTests {
    typealias Item = ModelItem

    static let keep: @Sendable (Item) -> Bool = { $0.value % 3 != 0 }
    static let order: @Sendable (Item, Item) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }
    static let halve: @Sendable (Item) -> Item? = { $0.value.isMultiple(of: 2) ? Item(id: $0.id, value: $0.value / 2) : nil }

    @Test("filter → sorted → sectioned and compactMap chains follow random edits", .timeLimit(.minutes(30)))
    func randomEditsMatchTheModel() async {
        await DerivedModelTests.runSequences(
            seed: reliabilitySeed(default: 0xC4A1_2026_1125), count: environmentInt("DERIVED_SEQUENCES", default: 100), steps: 40,
            checks: { parents in (Self.checks(parents.simple, threshold: parents.threshold), []) }
        )
    }

    static func checks(_ parent: SimpleDataSource<Item>, threshold: MutableProperty<Int>) -> [CheckedSource] {
        let grouped = DerivedModelTests.grouped
        let perSection = DerivedModelTests.perSection
        let titled = DerivedModelTests.titledGroups
        return [
            CheckedSource("filter.sorted.sectioned", parent.filter(keep).sorted(by: order).sectioned(by: { $0.value % 4 }), model: perSection {
                grouped($0.filter(keep).sorted(by: order), { $0.value % 4 }, false, nil)
            }, sections: { titled($0.flatMap { $0 }.filter(keep).sorted(by: order), { $0.value % 4 }, false, false, nil) }),
            CheckedSource("filter(reading a property).sorted.sectioned(\\.value, ascending)",
                parent.filter { item in item.value < threshold.value }
                    .sorted(by: order).sectioned(by: \.value, sectionOrder: .ascending),
                model: perSection { items in grouped(items.filter { $0.value < threshold.value }.sorted(by: order), { $0.value }, true, nil) },
                sections: { titled($0.flatMap { $0 }.filter { $0.value < threshold.value }.sorted(by: order), { $0.value }, true, false, nil) }),
            CheckedSource("compactMap", parent.compactMap(halve), model: perSection { $0.compactMap(halve) }),
            CheckedSource("compactMap.sorted.sectioned", parent.compactMap(halve).sorted(by: order).sectioned(by: { $0.value % 3 }, sectionOrder: .descending), model: perSection {
                let rows = $0.compactMap(halve).sorted(by: order)
                return grouped(rows, { $0.value % 3 }, true, nil).reversedSections(by: { $0.value % 3 })
            }, sections: { titled($0.flatMap { $0 }.compactMap(halve).sorted(by: order), { $0.value % 3 }, true, true, nil) }),
        ]
    }
}

extension Array where Element == ModelItem {
    /// Rows grouped by ascending key, with the groups in descending key order.
    fileprivate func reversedSections(by key: (Element) -> Int) -> [Element] {
        var groups: [Int: [Element]] = [:]
        for item in self { groups[key(item), default: []].append(item) }
        return groups.keys.sorted(by: >).flatMap { groups[$0]! }
    }
}
