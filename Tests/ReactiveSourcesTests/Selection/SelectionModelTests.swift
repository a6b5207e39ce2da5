import ReactiveSourcesTesting
import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// A selection over a `filter → sorted → sectioned` chain against a from-scratch model of
/// the selected ids: random edits of the chain's parent and random selects and deselects,
/// and after each step the selection's ids equal the model's, and every value its observer
/// saw is consistent (selected paths are object rows of the snapshot delivered with them).
/// Replay a failure with `RELIABILITY_SEED=<seed>`.
@Suite("Selection: seeded model")
struct SelectionModelTests {
    typealias Item = DerivedModelTests.Item

    static let keep: @Sendable (Item) -> Bool = { $0.value % 5 != 0 }
    static let order: @Sendable (Item, Item) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }
    static let group: @Sendable (Item) -> Int = { $0.value % 3 }
    /// Section "0" has exactly one selected row (preselected), "1" at most two, "2" any number.
    static let policies: [String: SelectionPolicy] = ["0": .exactlyOne, "1": .upTo(2)]

    @Test("selected ids follow random edits and selections like the model")
    func randomEditsMatchTheModel() {
        let seed = reliabilitySeed(default: 0x5E1E_C7_2026)
        let sequences = environmentInt("SELECTION_SEQUENCES", default: 80)
        for sequence in 0..<sequences {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            if let failure = Self.run(&random, steps: 50) {
                Issue.record("seed \(seed), sequence \(sequence): \(failure)")
                return
            }
        }
    }

    /// The model: per section id, the selected ids, oldest selection first.
    struct Model {
        var chosen: [String: [Int]] = [:]

        /// Keeps the ids still shown in the same section; tops up section "0".
        mutating func follow(_ snapshot: Snapshot<Item>) {
            var next: [String: [Int]] = [:]
            for section in snapshot.sections {
                let ids = Set(section.objects.map(\.id))
                let kept = (chosen[section.id] ?? []).filter(ids.contains)
                if !kept.isEmpty { next[section.id] = kept }
            }
            chosen = next
            topUp(snapshot)
        }

        mutating func topUp(_ snapshot: Snapshot<Item>) {
            for section in snapshot.sections where section.id == "0" && (chosen["0"] ?? []).isEmpty {
                if let first = section.objects.first { chosen["0"] = [first.id] }
            }
        }

        mutating func select(_ id: Int, in section: String) {
            var ids = chosen[section] ?? []
            guard !ids.contains(id) else { return }
            ids.append(id)
            let maximum = SelectionModelTests.policies[section]?.maximum
            if let maximum, ids.count > maximum { ids.removeFirst(ids.count - maximum) }
            chosen[section] = ids
        }

        /// Whether the deselection is allowed (section "0" refuses going below one).
        mutating func deselect(_ id: Int, in section: String) -> Bool {
            guard var ids = chosen[section], let index = ids.firstIndex(of: id) else { return true }
            if section == "0" { return false }
            ids.remove(at: index)
            chosen[section] = ids.isEmpty ? nil : ids
            return true
        }

        var ids: Set<Int> { Set(chosen.values.joined()) }
    }

    static func run(_ random: inout SplitMix64, steps: Int) -> String? {
        var nextID = 0
        func item(_ random: inout SplitMix64) -> Item {
            nextID += 1
            return Item(id: nextID, value: Int.random(in: 0..<30, using: &random))
        }
        let parent = SimpleDataSource<Item>(name: "p", objects: (0..<Int.random(in: 0..<15, using: &random)).map { _ in item(&random) })
        let threshold = MutableProperty(30)
        let chain = parent.filter(keep).filter { item in item.value < threshold.value }
            .sorted(by: order).sectioned(by: group, title: { String($0) })
        let selection = Selection(source: chain, policies: policies)
        let problems = Locked<[String]>([])
        let watch = selection.state.observe { state in
            for path in state.selectedPaths where state.snapshot.object(at: path) == nil {
                problems.withLock { $0.append("observed path \(path) is not an object row of its snapshot") }
            }
        }
        defer { watch.cancel() }
        var model = Model()
        model.follow(chain.snapshot)
        for step in 0..<steps {
            let count = parent.objects.count
            var operation = ""
            let shown = chain.snapshot
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25 where shown.objectCount > 0:
                let path = randomPath(in: shown, &random)
                let object = shown.object(at: path)!
                operation = "select \(object.id)"
                do {
                    try selection.select(at: path)
                    model.select(object.id, in: shown.sections[path.section].id)
                } catch {
                    return "step \(step) (\(operation)): refused: \(error)"
                }
            case 25..<35 where shown.objectCount > 0:
                let path = randomPath(in: shown, &random)
                let object = shown.object(at: path)!
                operation = "deselect \(object.id)"
                let allowed = model.deselect(object.id, in: shown.sections[path.section].id)
                do {
                    try selection.deselect(at: path)
                    if !allowed { return "step \(step) (\(operation)): allowed, the model refuses" }
                } catch {
                    if allowed { return "step \(step) (\(operation)): refused: \(error)" }
                }
            case 35..<50:
                let new = (0..<Int.random(in: 1...3, using: &random)).map { _ in item(&random) }
                operation = "insert \(new.map(\.id))"
                try? parent.insert(new, at: Int.random(in: 0...count, using: &random))
            case 50..<62 where count > 0:
                operation = "remove"
                _ = try? parent.remove(at: Int.random(in: 0..<count, using: &random))
            case 62..<80 where count > 0:
                var edited = parent.objects[Int.random(in: 0..<count, using: &random)]
                edited.value = Int.random(in: 0..<30, using: &random)
                operation = "edit \(edited.id) to \(edited.value)"
                try? parent.replace(at: parent.objects.firstIndex { $0.id == edited.id }!, with: edited)
            case 80..<86 where count > 1:
                operation = "move"
                try? parent.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
            case 86..<90:
                operation = "replace all"
                var objects = parent.objects.shuffled(using: &random).filter { _ in random.chance(80) }
                objects.append(item(&random))
                parent.replaceObjects(with: objects)
            case 90..<95:
                operation = "batch"
                batch {
                    parent.append([item(&random)])
                    if parent.objects.count > 1 { _ = try? parent.remove(at: 0) }
                }
            default:
                let limit = Int.random(in: 0...30, using: &random)
                operation = "threshold \(limit)"
                threshold.value = limit
            }
            let snapshot = chain.snapshot
            if !operation.hasPrefix("select"), !operation.hasPrefix("deselect") { model.follow(snapshot) }
            let state = selection.state.value
            if state.snapshot != snapshot { return "step \(step) (\(operation)): the selection's snapshot is not the source's" }
            let ids = Set(state.selectedObjects.map(\.id))
            if ids != model.ids {
                return "step \(step) (\(operation)): selected \(ids.sorted()), expected \(model.ids.sorted()) in \(snapshot.sections.map { "\($0.id): \($0.objects.map(\.id))" })"
            }
            if state.selectedPaths != state.selectedPaths.sorted() || Set(state.selectedPaths).count != state.selectedPaths.count {
                return "step \(step) (\(operation)): paths not ascending and unique: \(state.selectedPaths)"
            }
            if let problem = problems.withLock({ $0.first }) { return "step \(step) (\(operation)): \(problem)" }
        }
        return nil
    }

    @Test("selections and source edits from several threads keep every value consistent")
    func concurrentEditsStayConsistent() async {
        let parent = SimpleDataSource<Item>(name: "p", objects: (0..<60).map { Item(id: $0, value: $0 % 30) })
        let chain = parent.sorted(by: Self.order).sectioned(by: Self.group, title: { String($0) })
        let selection = Selection(source: chain, policies: Self.policies)
        let problems = Locked<[String]>([])
        let watch = selection.state.observe { state in
            var perSection: [Int: Int] = [:]
            for path in state.selectedPaths {
                if state.snapshot.object(at: path) == nil { problems.withLock { $0.append("path \(path) is not an object row") } }
                perSection[path.section, default: 0] += 1
            }
            for (section, count) in perSection {
                let id = state.snapshot.sections[section].id
                if let maximum = Self.policies[id]?.maximum, count > maximum { problems.withLock { $0.append("\(count) selected in \(id)") } }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<2 {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(worker + 1))
                    for step in 0..<300 {
                        if random.chance(50) {
                            parent.append([Item(id: 1_000 * (worker + 1) + step, value: Int.random(in: 0..<30, using: &random))])
                        } else if parent.snapshot.objectCount > 10 {
                            _ = try? parent.remove(at: Int.random(in: 0..<10, using: &random))
                        }
                    }
                }
                group.addTask {
                    var random = SplitMix64(seed: UInt64(worker + 10))
                    for _ in 0..<300 {
                        let path = RowPath(item: Int.random(in: 0..<20, using: &random), section: Int.random(in: 0..<3, using: &random))
                        if random.chance(70) { try? selection.select(at: path) } else { try? selection.deselect(at: path) }
                    }
                }
            }
        }
        watch.cancel()
        let state = selection.state.value
        #expect(state.snapshot == chain.snapshot)
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0.prefix(3) })")
        let sizeSection = state.snapshot.sections.firstIndex { $0.id == "0" }
        if let sizeSection, state.snapshot.sections[sizeSection].objects.count > 0 {
            #expect(state.selectedObjects(inSection: sizeSection).count == 1, "the exactly-one section stays valid")
        }
    }

    static func randomPath(in snapshot: Snapshot<Item>, _ random: inout SplitMix64) -> RowPath {
        let sections = snapshot.sections.indices.filter { !snapshot.sections[$0].objects.isEmpty }
        let section = sections[Int.random(in: 0..<sections.count, using: &random)]
        return RowPath(item: Int.random(in: 0..<snapshot.sections[section].objects.count, using: &random), section: section)
    }
}
