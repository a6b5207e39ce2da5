import ReactiveSourcesTesting
import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// Seeded model-based tests of the derived sources: random operations on their parents (see
/// ``ModelParents``), and after every step each derived source's snapshot equals the one
/// computed from scratch with plain arrays, and the change sets its `observeChanges` observer
/// got turn the snapshot it saw before into the new one. Replay a failure with
/// `RELIABILITY_SEED=<seed>`; `DERIVED_SEQUENCES` sets the number of sequences (the default
/// keeps CI short).
@Suite("Derived sources: seeded model")
struct DerivedModelTests {
    typealias Item = ModelItem

    static let keep: @Sendable (Item) -> Bool = { $0.value % 3 != 0 }
    static let order: @Sendable (Item, Item) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }

    @Test("map, filter, sorted, sectioned and their chains follow random edits", .timeLimit(.minutes(30)))
    func randomEditsMatchTheModel() async {
        await Self.runSequences(seed: reliabilitySeed(default: 0x5EED_2026_1125), count: environmentInt("DERIVED_SEQUENCES", default: 150), steps: 40, checks: Self.checks)
    }

    /// Runs `count` sequences of `steps` random operations against the sources `checks` makes.
    static func runSequences(
        seed: UInt64, count: Int, steps: Int,
        checks: (ModelParents) -> (overSimple: [CheckedSource], overMulti: [CheckedSource]),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        for sequence in 0..<count {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            let parents = ModelParents(&random)
            let (overSimple, overMulti) = checks(parents)
            for step in 0..<steps {
                let operation = await parents.step(&random, touchesOthers: !overMulti.isEmpty)
                let simpleSections = [parents.simple.objects]
                let multiSections = parents.multiSections
                for (check, sections) in overSimple.map({ ($0, simpleSections) }) + overMulti.map({ ($0, multiSections) }) {
                    await check.waitUntilObserverIsCurrent()
                    if let problem = check.problem(sections: sections) {
                        Issue.record("seed \(seed), sequence \(sequence), step \(step) (\(operation)): \(problem)", sourceLocation: sourceLocation)
                        return
                    }
                }
            }
        }
    }

    /// `items` sorted by value, equal values in their order in `items` (a stable sort).
    @Sendable static func stablySortedByValue(_ items: [Item]) -> [Item] {
        items.enumerated().sorted { ($0.element.value, $0.offset) < ($1.element.value, $1.offset) }.map { $0.element }
    }

    /// Each section's objects transformed by `transform`, flattened (derived links work
    /// section by section).
    static func perSection(_ transform: @escaping @Sendable ([Item]) -> [Item]) -> @Sendable ([[Item]]) -> [Item] {
        { $0.flatMap(transform) }
    }

    /// `items` grouped by `key` (sections in order of first appearance, or sorted), each
    /// section in parent order or stably sorted by `order`, as sections.
    static func groups(_ items: [Item], by key: (Item) -> Int, sortKeys: Bool = false, order: ((Item, Item) -> Bool)? = nil) -> [[Item]] {
        var keys: [Int] = []
        var groups: [Int: [Item]] = [:]
        for item in items {
            if groups[key(item)] == nil { keys.append(key(item)) }
            groups[key(item), default: []].append(item)
        }
        if sortKeys { keys.sort() }
        return keys.map { key in
            let group = groups[key]!
            guard let order else { return group }
            return group.enumerated().sorted { order($0.element, $1.element) || (!order($1.element, $0.element) && $0.offset < $1.offset) }.map(\.element)
        }
    }

    /// As ``groups(_:by:sortKeys:order:)``, titled by key (`descending` reverses the keys).
    static func titledGroups(_ items: [Item], by key: (Item) -> Int, sortKeys: Bool = false, descending: Bool = false, order: ((Item, Item) -> Bool)? = nil) -> [(title: String, objects: [Item])] {
        var keys: [Int] = []
        var seen = Set<Int>()
        for item in items where seen.insert(key(item)).inserted { keys.append(key(item)) }
        if sortKeys { keys.sort() }
        if descending { keys.reverse() }
        let grouped = groups(items, by: key, sortKeys: false, order: order)
        var byKey: [Int: [Item]] = [:]
        for group in grouped { byKey[key(group[0])] = group }
        return keys.map { (String($0), byKey[$0]!) }
    }

    /// As ``groups(_:by:sortKeys:order:)``, flattened.
    static func grouped(_ items: [Item], by key: (Item) -> Int, sortKeys: Bool = false, order: ((Item, Item) -> Bool)? = nil) -> [Item] {
        groups(items, by: key, sortKeys: sortKeys, order: order).flatMap { $0 }
    }

    static func checks(_ parents: ModelParents) -> (overSimple: [CheckedSource], overMulti: [CheckedSource]) {
        let parent = parents.simple
        let multi = parents.multi
        let threshold = parents.threshold
        let overSimple = [
            CheckedSource("map", parent.map { Item(id: $0.id, value: $0.value * 2) }, model: perSection { $0.map { Item(id: $0.id, value: $0.value * 2) } }),
            CheckedSource("filter", parent.filter(keep), model: perSection { $0.filter(keep) }),
            CheckedSource("sorted", parent.sorted(by: order), model: perSection { $0.sorted(by: order) }),
            CheckedSource("filter reading a property", parent.filter { item in item.value < threshold.value }, model: perSection { items in
                items.filter { $0.value < threshold.value }
            }),
            CheckedSource("sorted reading a property", parent.sorted { lhs, rhs in
                let limit = threshold.value
                return (lhs.value < limit ? 0 : 1, lhs.value, lhs.id) < (rhs.value < limit ? 0 : 1, rhs.value, rhs.id)
            }, model: perSection { items in
                let limit = threshold.value
                return items.sorted { ($0.value < limit ? 0 : 1, $0.value, $0.id) < ($1.value < limit ? 0 : 1, $1.value, $1.id) }
            }),
            CheckedSource("sectioned by a key reading a property", SectionedDataSource(child: parent, key: { $0.value % 4 + ($0.value < threshold.value ? 0 : 10) }),
                          model: perSection { grouped($0, by: { $0.value % 4 + ($0.value < threshold.value ? 0 : 10) }) },
                          sections: { titledGroups($0.flatMap { $0 }, by: { $0.value % 4 + ($0.value < threshold.value ? 0 : 10) }) }),
            CheckedSource("map.filter.sorted", parent.map { Item(id: $0.id, value: $0.value + 1) }.filter(keep).sorted(by: order), model: perSection {
                $0.map { Item(id: $0.id, value: $0.value + 1) }.filter(keep).sorted(by: order)
            }),
            CheckedSource("sorted.filter", parent.sorted(by: order).filter(keep), model: perSection { $0.sorted(by: order).filter(keep) }),
            // Values repeat (0..<20): equal rows must keep the parent's order after any edits.
            CheckedSource("sorted(by: \\.value), ties stable", parent.sorted(by: \.value), model: perSection(stablySortedByValue)),
            CheckedSource("filter.sorted(by: \\.value).map", parent.filter(keep).sorted(by: \.value).map { $0 }, model: perSection {
                stablySortedByValue($0.filter(keep))
            }),
            CheckedSource("sectioned", SectionedDataSource(child: parent, key: { $0.value % 4 }), model: perSection { grouped($0, by: { $0.value % 4 }) },
                          sections: { titledGroups($0.flatMap { $0 }, by: { $0.value % 4 }) }),
            CheckedSource("sectioned ascending, ordered", SectionedDataSource(child: parent, key: { $0.value % 5 }, sectionOrder: .ascending, objectOrder: { $0.value > $1.value }), model: perSection {
                grouped($0, by: { $0.value % 5 }, sortKeys: true, order: { $0.value > $1.value })
            }, sections: { titledGroups($0.flatMap { $0 }, by: { $0.value % 5 }, sortKeys: true, order: { $0.value > $1.value }) }),
            CheckedSource("sectioned by first appearance, ordered", SectionedDataSource(child: parent, key: { $0.value % 4 }, objectOrder: { $0.value > $1.value }), model: perSection {
                grouped($0, by: { $0.value % 4 }, order: { $0.value > $1.value })
            }, sections: { titledGroups($0.flatMap { $0 }, by: { $0.value % 4 }, order: { $0.value > $1.value }) }),
            CheckedSource("filter.sectioned.map", SectionedDataSource(child: parent.filter(keep), key: { $0.value % 3 }).map { $0 }, model: perSection {
                grouped($0.filter(keep), by: { $0.value % 3 })
            }, sections: { titledGroups($0.flatMap { $0 }.filter(keep), by: { $0.value % 3 }) }),
        ]
        let overMulti = [
            CheckedSource("multi", multi, model: { $0.flatMap { $0 } }),
            CheckedSource("multi.filter.sorted", multi.filter(keep).sorted(by: order), model: perSection { $0.filter(keep).sorted(by: order) }),
            CheckedSource("multi.sorted(by: \\.value), ties stable", multi.sorted(by: \.value), model: perSection(stablySortedByValue)),
            CheckedSource("multi.map", multi.map { Item(id: $0.id, value: $0.value * 3) }, model: perSection { $0.map { Item(id: $0.id, value: $0.value * 3) } }),
            // Filtered over Sorted over Sectioned over Multi.
            CheckedSource("multi.sectioned.sorted.filter", SectionedDataSource(child: multi, key: { $0.value % 4 }).sorted(by: order).filter(keep), model: { sections in
                groups(sections.flatMap { $0 }, by: { $0.value % 4 }).flatMap { $0.sorted(by: order).filter(keep) }
            }, sections: { sections in
                titledGroups(sections.flatMap { $0 }, by: { $0.value % 4 }).map { ($0.title, $0.objects.sorted(by: order).filter(keep)) }
            }),
            CheckedSource("multi.filter(reading a property).sectioned ascending", SectionedDataSource(
                child: multi.filter { item in item.value < threshold.value }, key: { $0.value % 3 }, sectionOrder: .ascending
            ), model: { sections in
                grouped(sections.flatMap { $0.filter { $0.value < threshold.value } }, by: { $0.value % 3 }, sortKeys: true)
            }, sections: { sections in
                titledGroups(sections.flatMap { $0.filter { $0.value < threshold.value } }, by: { $0.value % 3 }, sortKeys: true)
            }),
        ]
        return (overSimple, overMulti)
    }
}
