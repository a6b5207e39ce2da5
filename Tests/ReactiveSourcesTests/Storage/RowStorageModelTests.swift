import ReactiveSourcesTesting
import Foundation
import Testing
@testable import ReactiveSources

/// A 64-byte element: 16 to a leaf, so a few thousand elements make a tree of three levels.
struct WideRow: Equatable, Hashable, CustomStringConvertible {
    var id: Int
    var check: Int
    var padding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)

    init(_ id: Int) {
        self.id = id
        check = ~id
    }

    static func == (lhs: WideRow, rhs: WideRow) -> Bool { lhs.id == rhs.id && lhs.check == rhs.check }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    var description: String { "\(id)" }
}

/// Seeded model-based tests: random edits applied to a `RowStorage` and to an `Array`, with
/// earlier versions of both held and checked unchanged at the end (persistence).
/// A failure prints the seed of its sequence: `STORAGE_ONLY_SEED=<seed>` replays just that one.
/// `RELIABILITY_SEED=<master>` changes the master seed, `STORAGE_SEQUENCES` and
/// `STORAGE_DEEP_SEQUENCES` the counts.
@Suite("RowStorage against an Array model")
struct RowStorageModelTests {
    enum Operation: CaseIterable {
        case append, appendMany, insert, insertMany, remove, removeRange, replace, replaceSameCount, set, modifySlice, removeLast
    }

    /// One random sequence; returns a failure description or nil.
    static func runSequence(seed: UInt64, steps: Int, maxInitial: Int) -> String? {
        var generator = SplitMix64(seed: seed)
        var nextID = 0
        func rows(_ count: Int) -> [WideRow] {
            defer { nextID += count }
            return (nextID..<(nextID + count)).map(WideRow.init)
        }
        let initial = rows(Int.random(in: 0...maxInitial, using: &generator))
        var storage = generator.chance(50) ? RowStorage(initial) : { var built = RowStorage<WideRow>(); for row in initial { built.append(row) }; return built }()
        var model = initial
        var held: [(RowStorage<WideRow>, [WideRow])] = []
        for step in 0..<steps {
            if generator.chance(60) { held.append((storage, model)) }
            let count = model.count
            let operation = Operation.allCases.randomElement(using: &generator)!
            func randomRange() -> Range<Int> {
                let lower = Int.random(in: 0...count, using: &generator)
                let length = generator.chance(10) ? Int.random(in: 0...(count - lower), using: &generator) : Int.random(in: 0...Swift.min(40, count - lower), using: &generator)
                return lower..<(lower + length)
            }
            func randomLength() -> Int { generator.chance(10) ? Int.random(in: 0...600, using: &generator) : Int.random(in: 0...20, using: &generator) }
            switch operation {
            case .append:
                let row = rows(1)[0]
                storage.append(row); model.append(row)
            case .appendMany:
                let new = rows(randomLength())
                storage.append(contentsOf: new); model.append(contentsOf: new)
            case .insert:
                let index = Int.random(in: 0...count, using: &generator)
                let row = rows(1)[0]
                storage.insert(row, at: index); model.insert(row, at: index)
            case .insertMany:
                let index = Int.random(in: 0...count, using: &generator)
                let new = rows(randomLength())
                storage.insert(contentsOf: new, at: index); model.insert(contentsOf: new, at: index)
            case .remove:
                guard count > 0 else { continue }
                let index = Int.random(in: 0..<count, using: &generator)
                let removed = storage.remove(at: index)
                if removed != model.remove(at: index) { return "step \(step): remove(at: \(index)) returned the wrong row" }
            case .removeRange:
                let range = randomRange()
                storage.removeSubrange(range); model.removeSubrange(range)
            case .replace:
                let range = randomRange()
                let new = rows(randomLength())
                storage.replaceSubrange(range, with: new); model.replaceSubrange(range, with: new)
            case .replaceSameCount:
                let range = randomRange()
                let new = rows(range.count)
                storage.replaceSubrange(range, with: new); model.replaceSubrange(range, with: new)
            case .set:
                guard count > 0 else { continue }
                let index = Int.random(in: 0..<count, using: &generator)
                let row = rows(1)[0]
                storage[index] = row; model[index] = row
            case .modifySlice:
                let range = randomRange()
                storage[range].reverse(); model[range].reverse()
            case .removeLast:
                guard count > 0 else { continue }
                if storage.removeLast() != model.removeLast() { return "step \(step): removeLast returned the wrong row" }
            }
            if storage.count != model.count { return "step \(step) (\(operation)): count \(storage.count), expected \(model.count)" }
            // Every few steps the structure too (node flags such as `isDense` included), so a
            // wrong one is caught before a later edit rewrites it.
            if step % 8 == 0, let violation = storage.invariantViolation() { return "step \(step) (\(operation)): \(violation)" }
            if !model.isEmpty {
                let probe = Int.random(in: 0..<model.count, using: &generator)
                if storage[probe] != model[probe] { return "step \(step) (\(operation)): element \(probe) is \(storage[probe]), expected \(model[probe])" }
            }
        }
        if let violation = storage.invariantViolation() { return "final tree: \(violation)" }
        if Array(storage) != model { return "final contents differ from the model" }
        if let failure = partitionFailure(storage, model, &generator) { return "final tree: \(failure)" }
        if let failure = iterationFailure(storage, model, &generator) { return "final tree: \(failure)" }
        for (index, (version, expected)) in held.enumerated() {
            if let violation = version.invariantViolation() { return "held version \(index): \(violation)" }
            if Array(version) != expected { return "held version \(index) changed after later edits" }
            if let failure = partitionFailure(version, expected, &generator) { return "held version \(index): \(failure)" }
            if index % 4 == 0, let failure = iterationFailure(version, expected, &generator) { return "held version \(index): \(failure)" }
            if (version == storage) != (expected == model) { return "held version \(index): == says \(version == storage)" }
            if !expected.isEmpty {
                var rewritten = version
                let position = Int.random(in: 0..<expected.count, using: &generator)
                rewritten[position] = expected[position]
                if rewritten != version || rewritten.sharesStorage(with: version) { return "held version \(index): an equal copy compares unequal or shares storage" }
                rewritten[position] = WideRow(-1)
                if rewritten == version { return "held version \(index): an edited copy compares equal" }
            }
        }
        return nil
    }

    /// Checks the iterator (`for in`, and from a random offset) against the model.
    static func iterationFailure(_ storage: RowStorage<WideRow>, _ model: [WideRow], _ generator: inout SplitMix64) -> String? {
        var iterated: [WideRow] = []
        iterated.reserveCapacity(model.count)
        for row in storage { iterated.append(row) }
        if iterated != model { return "for in visits \(iterated.count) rows, not the model's \(model.count) in order" }
        let start = Int.random(in: 0...model.count, using: &generator)
        var iterator = storage.makeIterator(from: start)
        var rest: [WideRow] = []
        while let row = iterator.next() { rest.append(row) }
        if rest[...] != model[start...] { return "iteration from \(start) differs from the model" }
        if iterator.next() != nil { return "the iterator yields again after its end" }
        return nil
    }

    /// Checks `partitioningIndex(where:)` against the model at the ends and at random split
    /// points (ids are unique, so "belongs to the rows from k on" partitions the rows at k).
    static func partitionFailure(_ storage: RowStorage<WideRow>, _ model: [WideRow], _ generator: inout SplitMix64) -> String? {
        var splits = [0, model.count]
        for _ in 0..<3 { splits.append(Int.random(in: 0...model.count, using: &generator)) }
        for split in splits {
            let second = Set(model[split...].map(\.id))
            let found = storage.partitioningIndex { second.contains($0.id) }
            if found != split { return "partitioningIndex found \(found), expected \(split) of \(model.count)" }
        }
        return nil
    }

    /// The seeds to run: the one of `STORAGE_ONLY_SEED` if set, else `count` from `master`.
    static func seeds(master: UInt64, count: Int) -> [UInt64] {
        if let only = ProcessInfo.processInfo.environment["STORAGE_ONLY_SEED"].flatMap({ UInt64($0) }) { return [only] }
        return (0..<count).map { SplitMix64.mix(master, UInt64($0)) }
    }

    @Test("2,000 random edit sequences over small trees, older versions held")
    func smallTrees() {
        for seed in Self.seeds(master: reliabilitySeed(default: 0x5709_A6E5), count: environmentInt("STORAGE_SEQUENCES", default: 2_000)) {
            if let failure = Self.runSequence(seed: seed, steps: 25, maxInitial: 300) {
                Issue.record("seed \(seed): \(failure)")
                return
            }
        }
    }

    @Test("60 random edit sequences over trees of three levels, older versions held")
    func deepTrees() {
        for seed in Self.seeds(master: reliabilitySeed(default: 0xDEE9_5709), count: environmentInt("STORAGE_DEEP_SEQUENCES", default: 60)) {
            if let failure = Self.runSequence(seed: seed, steps: 40, maxInitial: 12_000) {
                Issue.record("seed \(seed): \(failure)")
                return
            }
        }
    }
}
