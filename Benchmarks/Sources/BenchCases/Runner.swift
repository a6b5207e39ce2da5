import Foundation
import OpenCombine

/// The sides of a signal-graph comparison.
public enum GraphSide: String, CaseIterable, Sendable {
    case ours, floor, combine = "OpenCombine", observation = "Observation"

    public func make(_ shape: Shape) -> GraphBench? {
        switch self {
        case .ours: signalsGraph(shape)
        case .floor: floorGraph(shape)
        case .combine: shape == .cellx1000 ? nil : combineGraph(shape)
        case .observation: shape.isNodeUpdateShape ? nil : observationGraph(shape)
        }
    }
}

/// Runs the cases and renders the report.
public enum Runner {
    /// One kairo/cellx shape on every side. Sides are interleaved sample by sample, so drift
    /// on a shared machine hits all of them alike. Each sample is one kairo iteration.
    public static func graphCase(_ shape: Shape, config: BenchConfig) -> CaseResult {
        var sides: [(GraphSide, GraphBench)] = []
        var notes: [String] = []
        for side in GraphSide.allCases {
            if let bench = side.make(shape) {
                sides.append((side, bench))
            } else if side == .combine && shape == .cellx1000 {
                notes.append(combineCellxNote())
            }
        }
        let iterations = config.iterations(shape.iterations)
        let clock = ContinuousClock()
        var samples = Array(repeating: [Duration](), count: sides.count)
        var extra = Array(repeating: 0, count: sides.count)
        for index in sides.indices { extra[index] += sides[index].1.run() }  // warm-up
        for _ in 0..<iterations {
            for index in sides.indices {
                let start = clock.now
                let extraRuns = sides[index].1.run()
                samples[index].append(clock.now - start)
                extra[index] += extraRuns
            }
        }
        let measurements = sides.indices.map { index in
            // Extra runs per timed iteration (warm-up included in the total, so divide by n + 1).
            Measurement(side: sides[index].0.rawValue, samples: samples[index], extraRuns: extra[index] / (iterations + 1))
        }
        if shape.isNodeUpdateShape {
            let perUpdate = measurements.map { measurement in
                let nanoseconds = measurement.median.seconds * 1e9 / Double(shape.nodeUpdates)
                return "\(measurement.side) \(String(format: "%.1f", nanoseconds)) ns"
            }
            notes.append("per node update: " + perUpdate.joined(separator: ", "))
        }
        return CaseResult(group: "graph", name: shape.title, measurements: measurements, baseline: "floor", notes: notes)
    }

    /// OpenCombine never finishes 1,000 cellx layers: its combineLatest emits once per input,
    /// so emissions grow geometrically with depth. Measured at small depths instead.
    static func combineCellxNote() -> String {
        var parts: [String] = []
        for layers in [5, 10, 15] {
            let bench = combineCellx(layers: layers)
            parts.append("\(layers) layers: \(bench.run()) extra emissions")
        }
        return "OpenCombine cellx 1000: not run (does not finish); " + parts.joined(separator: ", ")
    }

    public static func creationCase(config: BenchConfig) -> CaseResult {
        let count = config.smoke ? 10_000 : 100_000
        let iterations = config.iterations(9)
        let results = [
            Creation.signals(count: count, iterations: iterations),
            Creation.floor(count: count, iterations: iterations),
            Creation.combine(count: count, iterations: iterations),
            Creation.observation(count: count, iterations: iterations),
        ]
        return CaseResult(group: "graph", name: "create \(count / 1000)k derived nodes", measurements: results.map(\.measurement), baseline: "floor")
    }

    public static func dataCases(config: BenchConfig) -> [CaseResult] {
        var results: [CaseResult] = []
        results.append(DiffCase.run(config: config, n: 5_000, removed: 1_000, inserted: 1_000, moved: 200, stdlibIterations: 10))
        if config.smoke {
            results.append(DiffCase.run(config: config, n: 20_000, removed: 2_000, inserted: 2_000, moved: 400, stdlibIterations: 1))
        } else {
            results.append(DiffCase.run(config: config, n: 100_000, removed: 10_000, inserted: 10_000, moved: 2_000, stdlibIterations: 3))
        }
        results.append(SectionedCase.run(config: config))
        return results
    }

    /// Issue 20's derived-source cases (the scaling table, the memory of held snapshots, the
    /// refresh diff by identity) as markdown, or "" when `config.filter` wants none of them.
    /// `derived` runs all three; `derived-<kind>` (e.g. `derived-sorted`), `memory` and
    /// `refresh` run one part.
    public static func derived(config: BenchConfig, progress: (String) -> Void) -> String {
        let filter = config.filter?.lowercased()
        func wanted(_ part: String) -> Bool {
            guard let filter else { return true }
            return filter == "derived" || filter == part || part.hasPrefix(filter + "-")
        }
        var text = ""
        let kinds = DerivedKind.allCases.filter { kind in
            let name = "derived-" + kind.rawValue.lowercased().split(separator: " ")[0]
            return wanted(name) || (kind == .multiRebuild && wanted("derived-multi"))
        }
        if !kinds.isEmpty {
            text += DerivedCases.markdown(DerivedCases.run(config: config, kinds: kinds, progress: { progress("derived: " + $0) })) + "\n"
        }
        if wanted("memory") {
            progress("memory of held snapshots")
            text += SnapshotMemoryCase.markdown(SnapshotMemoryCase.run(config: config)) + "\n"
        }
        if wanted("first") {
            text += FirstDerivationCase.markdown(FirstDerivationCase.run(config: config, progress: progress))
        }
        if wanted("refresh") {
            progress("refresh diff by identity")
            text += RefreshDiffCase.markdown(RefreshDiffCase.run(config: config))
        }
        return text
    }

    /// The two-graph lock case as markdown, or "" when `config.filter` does not want it
    /// (`--filter two`).
    public static func twoGraphs(config: BenchConfig) -> String {
        if let filter = config.filter, !"two graphs".contains(filter.lowercased()) { return "" }
        return TwoGraphsCase.markdown(TwoGraphsCase.run(config: config))
    }

    /// Every case, in report order; `progress` is called with each case's name as it starts.
    public static func all(config: BenchConfig, progress: (String) -> Void) async -> [CaseResult] {
        var results: [CaseResult] = []
        func wanted(_ name: String) -> Bool {
            guard let filter = config.filter else { return true }
            return name.lowercased().contains(filter.lowercased())
        }
        for shape in Shape.allCases where wanted(shape.title) {
            progress(shape.title)
            results.append(graphCase(shape, config: config))
        }
        if wanted("create") {
            progress("create")
            results.append(creationCase(config: config))
        }
        if wanted("diff") || wanted("sectioned") {
            progress("data cases")
            results.append(contentsOf: dataCases(config: config).filter { wanted($0.name) })
        }
        if wanted("http") {
            progress("http")
            do {
                guard let script = FixtureServer.locateScript() else { throw BenchFailure("fixture_server.py not found") }
                let server = try FixtureServer(script: script)
                defer { server.stop() }
                results.append(try await HTTPCase.run(config: config, server: server))
            } catch {
                fatalError("http case failed: \(error)")
            }
        }
        return results
    }
}

// MARK: - Targets

/// A goal for one case, and whether this run met it.
public struct Verdict {
    public var target: String
    public var met: Bool
}

extension CaseResult {
    /// The issue's targets, evaluated on this run's medians.
    public var verdict: Verdict? {
        func r(_ a: String, _ b: String) -> Double? { ratio(a, to: b) }
        switch group {
        case "graph" where name.hasPrefix("create"):
            guard let floor = r("ours", "floor"), let bytes = measurement("ours")?.note else { return nil }
            let oursBytes = Double(bytes.split(separator: " ").first ?? "") ?? .infinity
            let combine = r("ours", "OpenCombine") ?? 0
            return Verdict(target: "< OpenCombine, <= 160 B/node", met: combine < 1 && oursBytes <= 160 && floor > 0)
        case "graph":
            guard let floor = r("ours", "floor") else { return nil }
            let glitches = measurement("ours")?.extraRuns ?? 0
            var met = floor <= 1.5 && glitches == 0
            if let combine = r("ours", "OpenCombine") { met = met && combine < 1 }
            return Verdict(target: "<= 1.5x floor, < OpenCombine, 0 glitches", met: met)
        case "data" where name.hasPrefix("Diff 100000"):
            guard let x = r("CollectionDifference", "ours") else { return nil }
            return Verdict(target: ">= 20x faster than CollectionDifference", met: x >= 20)
        case "data" where name.hasPrefix("Diff"):
            guard let x = r("CollectionDifference", "ours") else { return nil }
            return Verdict(target: "faster than CollectionDifference", met: x > 1)
        case "data" where name.hasPrefix("Sectioned"):
            guard let x = r("ours", "Dictionary(grouping:) + sort") else { return nil }
            return Verdict(target: "<= 1.5x grouping", met: x <= 1.5)
        case "http":
            guard let x = r("ours", "URLSession + JSONDecoder") else { return nil }
            return Verdict(target: "<= 5 % overhead", met: x <= 1.05)
        default:
            return nil
        }
    }

    /// Whether our side's correctness counts hold (no extra or missing effect runs).
    public var oursIsCorrect: Bool {
        (measurement("ours")?.extraRuns ?? 0) == 0
    }
}

// MARK: - Report

public enum Report {
    public static func markdown(_ results: [CaseResult]) -> String {
        var lines: [String] = []
        let graphs = results.filter { $0.group == "graph" }
        if !graphs.isEmpty {
            lines.append("| case | ours | floor | OpenCombine | Observation | ours ÷ floor | OpenCombine ÷ ours | extra runs: ours / OpenCombine / Observation | target | met |")
            lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
            for result in graphs {
                func cell(_ side: String) -> String {
                    guard let m = result.measurement(side) else { return "—" }
                    return m.median.pretty + (m.note.map { " (\($0))" } ?? "")
                }
                func extras(_ side: String) -> String {
                    guard let m = result.measurement(side) else { return "—" }
                    return m.extraRuns.map(String.init) ?? "—"
                }
                let floorRatio = result.ratio("ours", to: "floor").map { format($0, 2) + "x" } ?? "—"
                let combineRatio = result.ratio("OpenCombine", to: "ours").map { format($0, 2) + "x" } ?? "DNF"
                let verdict = result.verdict
                lines.append("| \(result.name) | \(cell("ours")) | \(cell("floor")) | \(cell("OpenCombine")) | \(cell("Observation")) | \(floorRatio) | \(combineRatio) | \(extras("ours")) / \(extras("OpenCombine")) / \(extras("Observation")) | \(verdict?.target ?? "") | \(verdict.map { $0.met ? "yes" : "**no**" } ?? "") |")
            }
            lines.append("")
        }
        let others = results.filter { $0.group != "graph" }
        if !others.isEmpty {
            lines.append("| case | ours | baseline | baseline median | ours ÷ baseline | target | met |")
            lines.append("|---|---:|---|---:|---:|---|---|")
            for result in others {
                let ours = result.measurement("ours")
                for other in result.measurements where other.side != "ours" {
                    let isTarget = other.side == result.baseline
                    let verdict = isTarget ? result.verdict : nil
                    let ratio = result.ratio("ours", to: other.side).map { ratioText($0) } ?? "—"
                    lines.append("| \(result.name) | \(ours?.median.pretty ?? "—") | \(other.side) | \(other.median.pretty) | \(ratio) | \(verdict?.target ?? "") | \(verdict.map { $0.met ? "yes" : "**no**" } ?? "") |")
                }
            }
            lines.append("")
        }
        let notes = results.flatMap { result in result.notes.map { "- \(result.name): \($0)" } }
        if !notes.isEmpty {
            lines.append(contentsOf: notes)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// `0.01` reads "0.010 (100x faster)"; `1.2` reads "1.20".
    static func ratioText(_ value: Double) -> String {
        if value < 0.5 { return format(value, 4) + " (" + format(1 / value, 1) + "x faster)" }
        return format(value, 2)
    }
}
