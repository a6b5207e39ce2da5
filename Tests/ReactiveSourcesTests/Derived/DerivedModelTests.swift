import Foundation
import Signals
import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// Seeded model-based tests of the derived sources: random edits of a parent, and after every
/// step each derived source's snapshot equals the one computed from scratch with plain arrays,
/// and the change set its `observeChanges` observer got turns the snapshot it saw before into
/// the new one. Replay a failure with `RELIABILITY_SEED=<seed>`; `DERIVED_SEQUENCES` sets the
/// number of sequences (the default keeps CI short).
@Suite("Derived sources: seeded model")
struct DerivedModelTests {
    struct Item: Hashable, Sendable, Identifiable {
        var id: Int
        var value: Int
    }

    /// A derived source under test with its from-scratch model and its observer's record.
    final class Checked: @unchecked Sendable {
        let name: String
        let snapshot: @Sendable () -> Snapshot<Item>
        let model: @Sendable ([Item]) -> [Item]
        var seen = Snapshot<Item>()
        var problems: [String] = []
        var subscription: SignalSubscription?

        init<Source: DataSource>(_ name: String, _ source: Source, model: @escaping @Sendable ([Item]) -> [Item]) where Source.Object == Item {
            self.name = name
            self.snapshot = { source.snapshot }
            self.model = model
            subscription = source.observeChanges { [unowned self] snapshot, changes in
                if let applied = changes.applied(to: self.seen, valuesFrom: snapshot), applied == snapshot {
                } else {
                    self.problems.append("\(name): change set \(changes) does not turn \(self.seen.allObjects.map(\.id)) into \(snapshot.allObjects.map(\.id))")
                }
                let violations = BatchUpdateValidator.stagedViolations(of: changes, from: self.seen, to: snapshot)
                if !violations.isEmpty { self.problems.append("\(name): \(violations)") }
                self.seen = snapshot
            }
        }
    }

    static let keep: @Sendable (Item) -> Bool = { $0.value % 3 != 0 }
    static let order: @Sendable (Item, Item) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }

    @Test("map, filter, sorted and their chains follow random edits")
    func randomEditsMatchTheModel() {
        let seed = reliabilitySeed(default: 0x5EED_2026_1125)
        let sequences = environmentInt("DERIVED_SEQUENCES", default: 300)
        for sequence in 0..<sequences {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            if let failure = Self.run(&random, steps: 40) {
                Issue.record("seed \(seed), sequence \(sequence): \(failure)")
                return
            }
        }
    }

    /// `items` grouped by `key` (sections in order of first appearance, or sorted), each
    /// section in parent order or stably sorted by `order`, flattened.
    static func grouped(_ items: [Item], by key: (Item) -> Int, sortKeys: Bool = false, order: ((Item, Item) -> Bool)? = nil) -> [Item] {
        var keys: [Int] = []
        var groups: [Int: [Item]] = [:]
        for item in items {
            if groups[key(item)] == nil { keys.append(key(item)) }
            groups[key(item), default: []].append(item)
        }
        if sortKeys { keys.sort() }
        return keys.flatMap { key in
            let group = groups[key]!
            guard let order else { return group }
            return group.enumerated().sorted { order($0.element, $1.element) || (!order($1.element, $0.element) && $0.offset < $1.offset) }.map(\.element)
        }
    }

    /// One random sequence; the first problem found, or `nil`.
    static func run(_ random: inout SplitMix64, steps: Int) -> String? {
        var nextID = 0
        func item(_ random: inout SplitMix64) -> Item {
            nextID += 1
            return Item(id: nextID, value: Int.random(in: 0..<20, using: &random))
        }
        let parent = SimpleDataSource<Item>(name: "p", objects: (0..<Int.random(in: 0..<12, using: &random)).map { _ in item(&random) })
        let threshold = MutableProperty(5)
        let checked = [
            Checked("map", parent.map { Item(id: $0.id, value: $0.value * 2) }, model: { $0.map { Item(id: $0.id, value: $0.value * 2) } }),
            Checked("filter", parent.filter(keep), model: { $0.filter(keep) }),
            Checked("sorted", parent.sorted(by: order), model: { $0.sorted(by: order) }),
            Checked("filter(using:)", parent.filter(using: threshold.readOnly) { limit, item in item.value < limit }, model: { items in
                items.filter { $0.value < threshold.value }
            }),
            Checked("map.filter.sorted", parent.map { Item(id: $0.id, value: $0.value + 1) }.filter(keep).sorted(by: order), model: {
                $0.map { Item(id: $0.id, value: $0.value + 1) }.filter(keep).sorted(by: order)
            }),
            Checked("sorted.filter", parent.sorted(by: order).filter(keep), model: { $0.sorted(by: order).filter(keep) }),
            Checked("sectioned", SectionedDataSource(child: parent, key: { $0.value % 4 }), model: { grouped($0, by: { $0.value % 4 }) }),
            Checked("sectioned ascending, ordered", SectionedDataSource(child: parent, key: { $0.value % 5 }, sectionOrder: .ascending, objectOrder: { $0.value > $1.value }), model: {
                grouped($0, by: { $0.value % 5 }, sortKeys: true, order: { $0.value > $1.value })
            }),
            Checked("filter.sectioned.map", SectionedDataSource(child: parent.filter(keep), key: { $0.value % 3 }).map { $0 }, model: {
                grouped($0.filter(keep), by: { $0.value % 3 })
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
            case 60..<80 where count > 0:
                let at = Int.random(in: 0..<count, using: &random)
                var edited = parent.objects[at]
                edited.value = Int.random(in: 0..<20, using: &random)
                operation = "edit \(edited.id) to \(edited.value)"
                try? parent.replace(at: at, with: edited)
            case 80..<87:
                var objects = parent.objects.shuffled(using: &random).filter { _ in random.chance(80) }
                objects.append(item(&random))
                operation = "replace all"
                parent.replaceObjects(with: objects)
            case 87..<94:
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
