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
    typealias Item = DerivedModelTests.Item
    typealias Checked = DerivedModelTests.Checked

    static let keep: @Sendable (Item) -> Bool = { $0.value % 3 != 0 }
    static let order: @Sendable (Item, Item) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }
    static let halve: @Sendable (Item) -> Item? = { $0.value.isMultiple(of: 2) ? Item(id: $0.id, value: $0.value / 2) : nil }

    @Test("filter → sorted → sectioned and compactMap chains follow random edits")
    func randomEditsMatchTheModel() {
        let seed = reliabilitySeed(default: 0xC4A1_2026_1125)
        let sequences = environmentInt("DERIVED_SEQUENCES", default: 100)
        for sequence in 0..<sequences {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            if let failure = Self.run(&random, steps: 40) {
                Issue.record("seed \(seed), sequence \(sequence): \(failure)")
                return
            }
        }
    }

    static func run(_ random: inout SplitMix64, steps: Int) -> String? {
        var nextID = 0
        func item(_ random: inout SplitMix64) -> Item {
            nextID += 1
            return Item(id: nextID, value: Int.random(in: 0..<20, using: &random))
        }
        let parent = SimpleDataSource<Item>(name: "p", objects: (0..<Int.random(in: 0..<12, using: &random)).map { _ in item(&random) })
        let threshold = MutableProperty(12)
        let grouped = DerivedModelTests.grouped
        let checked = [
            Checked("filter.sorted.sectioned", parent.filter(keep).sorted(by: order).sectioned(by: { $0.value % 4 }), model: {
                grouped($0.filter(keep).sorted(by: order), { $0.value % 4 }, false, nil)
            }),
            Checked("filter(using:).sorted.sectioned(\\.value, ascending)",
                parent.filter(using: threshold.readOnly) { limit, item in item.value < limit }
                    .sorted(by: order).sectioned(by: \.value, sectionOrder: .ascending),
                model: { items in grouped(items.filter { $0.value < threshold.value }.sorted(by: order), { $0.value }, true, nil) }),
            Checked("compactMap", parent.compactMap(halve), model: { $0.compactMap(halve) }),
            Checked("compactMap.sorted.sectioned", parent.compactMap(halve).sorted(by: order).sectioned(by: { $0.value % 3 }, sectionOrder: .descending), model: {
                let rows = $0.compactMap(halve).sorted(by: order)
                return grouped(rows, { $0.value % 3 }, true, nil).reversedSections(by: { $0.value % 3 })
            }),
        ]
        for step in 0..<steps {
            let count = parent.objects.count
            var operation = ""
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<20:
                let new = (0..<Int.random(in: 1...4, using: &random)).map { _ in item(&random) }
                operation = "append \(new.map(\.id))"
                parent.append(new)
            case 20..<35:
                let at = Int.random(in: 0...count, using: &random)
                let new = (0..<Int.random(in: 1...3, using: &random)).map { _ in item(&random) }
                operation = "insert \(new.map(\.id)) at \(at)"
                try? parent.insert(new, at: at)
            case 35..<50 where count > 0:
                let at = Int.random(in: 0..<count, using: &random)
                operation = "remove at \(at)"
                _ = try? parent.remove(at: at)
            case 50..<60 where count > 1:
                let from = Int.random(in: 0..<count, using: &random)
                let to = Int.random(in: 0..<count, using: &random)
                operation = "move \(from) to \(to)"
                try? parent.move(from: from, to: to)
            case 60..<82 where count > 0:
                let at = Int.random(in: 0..<count, using: &random)
                var edited = parent.objects[at]
                edited.value = Int.random(in: 0..<20, using: &random)
                operation = "edit \(edited.id) to \(edited.value)"
                try? parent.replace(at: at, with: edited)
            case 82..<88:
                var objects = parent.objects.shuffled(using: &random).filter { _ in random.chance(80) }
                objects.append(item(&random))
                operation = "replace all"
                parent.replaceObjects(with: objects)
            case 88..<94:
                operation = "batch"
                batch {
                    parent.append([item(&random)])
                    if parent.objects.count > 1 { _ = try? parent.remove(at: 0) }
                    try? parent.replace(at: 0, with: Item(id: parent.objects[0].id, value: Int.random(in: 0..<20, using: &random)))
                }
            default:
                let limit = Int.random(in: 0..<20, using: &random)
                operation = "threshold \(limit)"
                threshold.value = limit
            }
            let objects = parent.objects
            for check in checked {
                let derived = check.snapshot()
                let expected = check.model(objects)
                if derived.allObjects != expected {
                    return "step \(step) (\(operation)): \(check.name) shows \(derived.allObjects.map(\.id)), expected \(expected.map(\.id))"
                }
                if check.seen != derived { return "step \(step) (\(operation)): \(check.name)'s observer saw another snapshot" }
                if let problem = check.problems.first { return "step \(step) (\(operation)): \(problem)" }
            }
        }
        return nil
    }
}

extension Array where Element == DerivedModelTests.Item {
    /// Rows grouped by ascending key, with the groups in descending key order.
    fileprivate func reversedSections(by key: (Element) -> Int) -> [Element] {
        var groups: [Int: [Element]] = [:]
        for item in self { groups[key(item), default: []].append(item) }
        return groups.keys.sorted(by: >).flatMap { groups[$0]! }
    }
}
