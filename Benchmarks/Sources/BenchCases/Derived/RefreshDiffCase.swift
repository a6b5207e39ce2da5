import ReactiveSourcesTesting
import ReactiveSources

/// The equality twin of ``DerivedRow``: the same 16 bytes, not `Identifiable`, so a diff matches
/// its rows by equality (an edited row is a delete and an insert).
public struct PlainRow: Hashable, Sendable {
    public var id: Int
    public var value: Int
}

/// Issue 20's refresh case: `ChangeSet(from:to:)` over `n` identified rows of which 1 % are
/// edited (same id, new value), 1 % removed and 1 % inserted, at random positions, against
/// the equality diff of the same data (``PlainRow``). Checks the edits come out as updates.
public enum RefreshDiffCase {
    public struct Result: Sendable {
        public var n: Int
        public var identity: Measurement
        public var equality: Measurement
        public var counts: String
        public var ratio: Double { identity.median.seconds / equality.median.seconds }
    }

    /// Old and new rows: `n` rows, then `k` edited, `k` removed, `k` inserted. Deterministic.
    static func inputs(n: Int, k: Int) -> (old: [DerivedRow], new: [DerivedRow]) {
        var rng = SplitMix64(seed: 2020)
        let old = (0..<n).map { DerivedRow(id: $0, value: Int.random(in: 0..<(1 << 30), using: &rng)) }
        var new = old
        var edited = Set<Int>()
        while edited.count < k { edited.insert(Int.random(in: 0..<n, using: &rng)) }
        for index in edited { new[index].value &+= 1 }
        // Remove rows that were not edited, so that every edit is still there to be reported.
        var removed = 0
        while removed < k {
            let index = Int.random(in: 0..<new.count, using: &rng)
            if new[index] != old[new[index].id] { continue }
            new.remove(at: index)
            removed += 1
        }
        for id in n..<(n + k) {
            new.insert(DerivedRow(id: id, value: Int.random(in: 0..<(1 << 30), using: &rng)), at: Int.random(in: 0...new.count, using: &rng))
        }
        return (old, new)
    }

    public static func run(config: BenchConfig) -> Result {
        let n = config.smoke ? 10_000 : 100_000
        let k = n / 100
        let (old, new) = inputs(n: n, k: k)
        let oldRows = Snapshot(sections: [SnapshotSection(id: "s", objects: old)])
        let newRows = Snapshot(sections: [SnapshotSection(id: "s", objects: new)])
        let plain: (DerivedRow) -> PlainRow = { PlainRow(id: $0.id, value: $0.value) }
        let oldPlain = Snapshot(sections: [SnapshotSection(id: "s", objects: old.map(plain))])
        let newPlain = Snapshot(sections: [SnapshotSection(id: "s", objects: new.map(plain))])

        let byID = ChangeSet(from: oldRows, to: newRows)
        check(byID.updatedRows.count == k && byID.insertedRows.count == k && byID.deletedRows.count == k && byID.movedRows.isEmpty,
              "refresh by id: \(k) updated, inserted and deleted, no moves (got \(byID.updatedRows.count), \(byID.insertedRows.count), \(byID.deletedRows.count), \(byID.movedRows.count))")
        check(byID.applied(to: oldRows, valuesFrom: newRows) == newRows, "refresh by id: the change set applies")
        let byEquality = ChangeSet(from: oldPlain, to: newPlain)
        check(byEquality.updatedRows.isEmpty && byEquality.insertedRows.count == 2 * k && byEquality.deletedRows.count == 2 * k,
              "refresh by equality: edits are deletes and inserts")
        check(byEquality.applied(to: oldPlain, valuesFrom: newPlain) == newPlain, "refresh by equality: the change set applies")

        let measurements = measureAlternating(iterations: config.iterations(41), [
            ("by id (DerivedRow)", { consume(ChangeSet(from: oldRows, to: newRows)) }),
            ("by equality (PlainRow)", { consume(ChangeSet(from: oldPlain, to: newPlain)) }),
        ])
        return Result(
            n: n, identity: measurements[0], equality: measurements[1],
            counts: "by id: \(byID.updatedRows.count) updated, \(byID.insertedRows.count) inserted, \(byID.deletedRows.count) deleted, \(byID.movedRows.count) moved; by equality: \(byEquality.insertedRows.count) inserted, \(byEquality.deletedRows.count) deleted, \(byEquality.movedRows.count) moved"
        )
    }

    public static func markdown(_ result: Result) -> String {
        """
        | refresh of \(DerivedCases.sizeName(result.n)) rows (1 % edited, inserted, removed) | by id (`DerivedRow`) | by equality (`PlainRow`) | ratio | target | met |
        |---|---:|---:|---:|---|---|
        | `ChangeSet(from:to:)`, median of \(result.identity.samples.count) | \(result.identity.median.pretty) | \(result.equality.median.pretty) | \(format(result.ratio, 2))x | <= 1.5x, edits as updates | \(result.ratio <= 1.5 ? "yes" : "**no**") |

        Change sets: \(result.counts).

        """
    }
}
