import ReactiveSourcesTesting
import Foundation
import ReactiveSources
import Signals

/// An object of the data-source cases.
public struct Item: Hashable, Sendable {
    public var id: Int
    public var group: Int
}

// MARK: - Case 3: Diff

/// `ChangeSet(from:to:)` (one section) against the stdlib's `CollectionDifference`
/// (`difference(from:)`, Myers, without `inferringMoves()`), on `Int` objects.
public enum DiffCase {
    /// Old and new arrays: `n` elements, `removed` deleted, `inserted` new ones inserted at
    /// random places, `moved` survivors moved to random places. Deterministic.
    public static func inputs(n: Int, removed: Int, inserted: Int, moved: Int) -> (old: [Int], new: [Int]) {
        var rng = SplitMix64(seed: 42)
        let old = Array(0..<n)
        var new = old
        for _ in 0..<removed { new.remove(at: Int.random(in: 0..<new.count, using: &rng)) }
        for _ in 0..<moved {
            let element = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
            new.insert(element, at: Int.random(in: 0...new.count, using: &rng))
        }
        for k in 0..<inserted { new.insert(n + k, at: Int.random(in: 0...new.count, using: &rng)) }
        return (old, new)
    }

    public static func run(config: BenchConfig, n: Int, removed: Int, inserted: Int, moved: Int, stdlibIterations: Int) -> CaseResult {
        let (old, new) = inputs(n: n, removed: removed, inserted: inserted, moved: moved)
        let oldSnapshot = Snapshot(sections: [SnapshotSection(id: "s", objects: old)])
        let newSnapshot = Snapshot(sections: [SnapshotSection(id: "s", objects: new)])

        let once = ChangeSet(from: oldSnapshot, to: newSnapshot)
        check(once.deletedRows.count == removed && once.insertedRows.count == inserted, "diff counts")
        check(once.movedRows.count <= moved, "diff: at most \(moved) moves (got \(once.movedRows.count))")
        check(once.applied(to: oldSnapshot, valuesFrom: newSnapshot) == newSnapshot, "diff applies")
        let ours = measure("ours", iterations: config.iterations(30)) {
            consume(ChangeSet(from: oldSnapshot, to: newSnapshot))
        }
        let difference = new.difference(from: old)
        check(old.applying(difference) == new, "CollectionDifference applies")
        let stdlib = measure("CollectionDifference", iterations: config.iterations(stdlibIterations), warmup: 0) {
            consume(new.difference(from: old))
        }
        return CaseResult(
            group: "data", name: "Diff \(n) (-\(removed)/+\(inserted)/\(moved) moved)",
            measurements: [ours, stdlib], baseline: "CollectionDifference",
            notes: ["ours finds \(once.movedRows.count) moves; CollectionDifference reports \(difference.removals.count) removals + \(difference.insertions.count) insertions"]
        )
    }
}

// MARK: - Case 4: Sectioned

/// Grouping `n` objects into 100 sections sorted by key: `SectionedDataSource`'s first
/// snapshot against `Dictionary(grouping:by:)` plus sorting the keys.
public enum SectionedCase {
    /// A synchronous loop for profilers: `iterations` first snapshots of a Sectioned source
    /// over `n` objects (side "ours"), or the same number of `Dictionary(grouping:by:)`
    /// groupings (side "baseline"); returns a line describing the result.
    /// With `stringKeys`, the key is a `String` name of the group instead of the `Int`.
    public static func profile(n: Int = 1_000_000, iterations: Int, baseline: Bool, stringKeys: Bool = false) -> String {
        var rng = SplitMix64(seed: 7)
        let objects = (0..<n).map { Item(id: $0, group: Int.random(in: 0..<100, using: &rng)) }
        let child = SimpleDataSource(name: "all", objects: objects)
        _ = child.snapshot
        var sections = 0
        let names = (0..<100).map { "group \($0)" }
        for _ in 0..<iterations {
            if stringKeys {
                if baseline {
                    let groups = Dictionary(grouping: objects, by: { names[$0.group] })
                    sections += groups.keys.sorted().map { SnapshotSection(id: $0, title: $0, objects: groups[$0]!) }.count
                } else {
                    let sectioned = SectionedDataSource(child: child, key: { names[$0.group] }, sectionOrder: .ascending)
                    sections += sectioned.snapshot.numberOfSections
                }
            } else if baseline {
                let groups = Dictionary(grouping: objects, by: \.group)
                let built = groups.keys.sorted().map { key in
                    SnapshotSection(id: String(describing: key), title: String(describing: key), objects: groups[key]!)
                }
                sections += Snapshot(sections: built).numberOfSections
            } else {
                let sectioned = SectionedDataSource(child: child, key: { $0.group }, sectionOrder: .ascending)
                sections += sectioned.snapshot.numberOfSections
            }
        }
        return "sectioned \(baseline ? "baseline" : "ours"): \(iterations) iterations, \(sections) sections"
    }

    public static func run(config: BenchConfig) -> CaseResult {
        let n = config.smoke ? 50_000 : 1_000_000
        var rng = SplitMix64(seed: 7)
        let objects = (0..<n).map { Item(id: $0, group: Int.random(in: 0..<100, using: &rng)) }
        let child = SimpleDataSource(name: "all", objects: objects)
        _ = child.snapshot

        func baseline() -> Snapshot<Item> {
            let groups = Dictionary(grouping: objects, by: \.group)
            let sections = groups.keys.sorted().map { key in
                SnapshotSection(id: String(describing: key), title: String(describing: key), objects: groups[key]!)
            }
            return Snapshot(sections: sections)
        }
        let expected = baseline()
        let iterations = config.iterations(15)
        let sectioned = SectionedDataSource(child: child, key: { $0.group }, sectionOrder: .ascending)
        check(sectioned.snapshot.sections.map(\.objects) == expected.sections.map(\.objects), "sectioned equals the baseline grouping")
        // Alternating: each side's large temporary arrays are allocated from the same heap state.
        let measurements = measureAlternating(iterations: iterations, [
            ("ours", {
                let sectioned = SectionedDataSource(child: child, key: { $0.group }, sectionOrder: .ascending)
                let snapshot = sectioned.snapshot
                check(snapshot.numberOfSections == expected.numberOfSections, "sectioned sections")
            }),
            ("Dictionary(grouping:) + sort", { consume(baseline()) }),
        ])
        return CaseResult(
            group: "data", name: "Sectioned \(n / 1000)k objects into 100 sorted sections",
            measurements: measurements, baseline: "Dictionary(grouping:) + sort"
        )
    }
}
