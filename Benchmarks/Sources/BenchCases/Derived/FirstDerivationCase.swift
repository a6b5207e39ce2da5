import ReactiveSourcesTesting
import ReactiveSources

/// A derived source's first derivation (what a new source, or a refresh of its parent,
/// costs): made over a loaded Simple source of `n` rows and read once, against the plain
/// stdlib code a user would write over an array of the same rows (the floor). Growth at
/// 1k, 100k and 1M; no target in issue 20, reported as it is.
public enum FirstDerivationCase {
    public struct Row: Sendable {
        public var kind: DerivedKind
        public var floorName: String
        public var n: Int
        public var ours: Measurement
        public var floor: Measurement
        public var ratio: Double { ours.median.seconds / floor.median.seconds }
    }

    /// (A Sectioned source's first grouping is the main table's "Sectioned ... into 100
    /// sorted sections" case, `SectionedCase`.)
    static let kinds: [DerivedKind] = [.mapped, .filtered, .sorted]

    public static func run(config: BenchConfig, progress: (String) -> Void = { _ in }) -> [Row] {
        let sizes = config.smoke ? [1_000, 10_000] : [1_000, 100_000, 1_000_000]
        var result: [Row] = []
        for n in sizes {
            var rng = SplitMix64(seed: 21)
            let rows = (0..<n).map { DerivedRow(id: $0, value: Int.random(in: 0..<(1 << 30), using: &rng)) }
            let parent = SimpleDataSource(name: "rows", objects: rows)
            let iterations = config.iterations(n >= 1_000_000 ? 7 : n >= 100_000 ? 15 : 41)
            for kind in kinds {
                progress("first derivation: \(kind.rawValue), n = \(DerivedCases.sizeName(n))")
                let (floorName, floor) = floorSide(kind, rows)
                let expected = floor()
                let ours = { () -> Int in
                    let source = kind.source(over: parent)
                    return source.snapshot.objectCount
                }
                check(ours() == expected, "first derivation of \(kind.rawValue): \(expected) rows, as the floor")
                let measurements = measureAlternating(iterations: iterations, [
                    ("ours", { consume(ours()) }),
                    ("floor", { consume(floor()) }),
                ])
                result.append(Row(kind: kind, floorName: floorName, n: n, ours: measurements[0], floor: measurements[1]))
            }
        }
        return result
    }

    /// For `reactive-profile first`: `iterations` first derivations of `kind` over `n` rows.
    public static func profile(kind: DerivedKind, n: Int, iterations: Int) -> String {
        var rng = SplitMix64(seed: 21)
        let parent = SimpleDataSource(name: "rows", objects: (0..<n).map { DerivedRow(id: $0, value: Int.random(in: 0..<(1 << 30), using: &rng)) })
        let clock = ContinuousClock()
        let start = clock.now
        var rows = 0
        for _ in 0..<iterations { rows &+= kind.source(over: parent).snapshot.objectCount }
        return "first derivation of \(kind.rawValue), n = \(n): \((clock.now - start) / iterations) each (\(rows / Swift.max(1, iterations)) rows)"
    }

    /// The plain code over an array: what it is called and a run returning the row count.
    static func floorSide(_ kind: DerivedKind, _ rows: [DerivedRow]) -> (String, () -> Int) {
        switch kind {
        case .mapped: ("`Array.map`", { rows.map(DerivedKind.mapped).count })
        case .filtered: ("`Array.filter`", { rows.filter(DerivedKind.isKept).count })
        case .sorted: ("`Array.sorted` by value", { rows.sorted { $0.value < $1.value }.count })
        default: ("", { rows.count })
        }
    }

    public static func markdown(_ rows: [Row]) -> String {
        var text = """
        | first derivation over a loaded Simple source | floor (plain code over an array) | n | ours | floor | ours ÷ floor |
        |---|---|---:|---:|---:|---:|

        """
        for row in rows {
            text += "| \(row.kind.rawValue) | \(row.floorName) | \(DerivedCases.sizeName(row.n)) | \(row.ours.median.pretty) | \(row.floor.median.pretty) | \(format(row.ratio, 2))x |\n"
        }
        return text + "\n"
    }
}
