import ReactiveSources
import Signals

/// Issue 20's memory case: a consumer keeps the last 100 snapshots of a Simple source of
/// `n` rows (observed with `observeChanges`); how many bytes more than one snapshot the
/// process holds after 100 appends of 10 rows, and after 100 rounds of 10 random edits (each
/// round one `batch`, so each held snapshot differs from the previous one by 10 edits).
/// Bytes are glibc `mallinfo2` (in use + mmapped), so the figure is the whole process's.
public enum SnapshotMemoryCase {
    public struct Result: Sendable {
        public var n: Int
        /// Bytes of the source holding one snapshot (the rows plus the source's own state).
        public var oneSnapshot: Int
        /// Bytes more than `oneSnapshot` after the 100 operations, 100 snapshots held.
        public var afterAppends: Int
        public var afterEdits: Int
        /// The snapshots each consumer held at the end.
        public var heldAppends: Int
        public var heldEdits: Int

        public var appendRatio: Double { Double(afterAppends) / Double(oneSnapshot) }
        public var editRatio: Double { Double(afterEdits) / Double(oneSnapshot) }
    }

    public static func run(config: BenchConfig) -> Result {
        let n = config.smoke ? 10_000 : 1_000_000
        let rounds = 100
        let (oneAppends, extraAppends, heldAppends) = measure(n: n, rounds: rounds, verifies: config.smoke) { fixture in fixture.run(.append) }
        let (oneEdits, extraEdits, heldEdits) = measure(n: n, rounds: rounds, verifies: config.smoke) { fixture in fixture.run(.editBatch) }
        return Result(
            n: n, oneSnapshot: min(oneAppends, oneEdits), afterAppends: extraAppends, afterEdits: extraEdits,
            heldAppends: heldAppends, heldEdits: heldEdits
        )
    }

    /// Builds a fixture holding 100 snapshots, runs `round` `rounds` times; returns the bytes
    /// of the source with its one snapshot, the bytes added by the rounds, and the snapshots held.
    static func measure(n: Int, rounds: Int, verifies: Bool, _ round: (DerivedFixture) -> Void) -> (Int, Int, Int) {
        let before = mallocBytesInUse()
        let fixture = DerivedFixture(kind: .simple, n: n, holding: 100, verifies: verifies)
        let one = mallocBytesInUse() - before
        for _ in 0..<rounds { round(fixture) }
        let after = mallocBytesInUse() - before
        check(fixture.held.ring.count == 100, "memory: 100 snapshots held")
        check(fixture.held.deliveries == rounds + 1, "memory: one update per round (\(fixture.held.deliveries - 1) for \(rounds))")
        fixture.verify()
        let held = fixture.held.ring.count
        withExtendedLifetime(fixture) {}
        return (one, after - one, held)
    }

    public static func markdown(_ result: Result) -> String {
        func mb(_ bytes: Int) -> String { format(Double(bytes) / 1_048_576, 2) + " MB" }
        return """
        | n = \(DerivedCases.sizeName(result.n)) Simple, last 100 snapshots held | bytes more than one snapshot (\(mb(result.oneSnapshot))) | ratio | target | met |
        |---|---:|---:|---|---|
        | after 100 appends of 10 | \(mb(result.afterAppends)) | \(format(result.appendRatio * 100, 2)) % | <= 5 % | \(result.appendRatio <= 0.05 ? "yes" : "**no**") |
        | after 100 rounds of 10 random edits (a batch each) | \(mb(result.afterEdits)) | \(format(result.editRatio * 100, 2)) % | <= 15 % | \(result.editRatio <= 0.15 ? "yes" : "**no**") |

        """
    }
}
