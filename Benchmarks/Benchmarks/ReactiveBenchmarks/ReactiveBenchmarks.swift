import BenchCases
import Benchmark

// The same cases as `reactive-bench`, for `swift package benchmark` (ordo-one/benchmark:
// wall clock, instructions, mallocs). Each graph benchmark builds its graph once (on first
// use) and times one kairo/cellx iteration per benchmark iteration; compare sides with
// `swift package benchmark --filter 'graph/deep/.*'`. The HTTP case needs the fixture
// server and is only in `reactive-bench`.

/// Builds its value on first use, so filtered-out benchmarks cost nothing.
final class Lazy<Value> {
    private let make: () -> Value
    private var made: Value?
    init(_ make: @escaping () -> Value) { self.make = make }
    var value: Value {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        maxDuration: .seconds(2),
        maxIterations: 1000
    )

    for shape in Shape.allCases {
        for side in GraphSide.allCases {
            if side == .combine && shape == .cellx1000 { continue }  // does not finish
            if side == .observation && shape.isNodeUpdateShape { continue }  // not measured
            let graph = Lazy { side.make(shape)! }
            Benchmark("graph/\(shape.rawValue)/\(side.rawValue)") { benchmark in
                let bench = graph.value
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let extra = bench.run()
                    if side == .ours && extra != 0 { benchmark.error("ours: \(extra) extra effect runs") }
                }
                benchmark.stopMeasurement()
            }
        }
    }

    let creationCount = 100_000
    Benchmark("create/100k/ours", configuration: .init(maxIterations: 20)) { _ in
        blackHole(Creation.signals(count: creationCount, iterations: 1))
    }
    Benchmark("create/100k/floor", configuration: .init(maxIterations: 20)) { _ in
        blackHole(Creation.floor(count: creationCount, iterations: 1))
    }
    Benchmark("create/100k/OpenCombine", configuration: .init(maxIterations: 20)) { _ in
        blackHole(Creation.combine(count: creationCount, iterations: 1))
    }
    Benchmark("create/100k/Observation", configuration: .init(maxIterations: 20)) { _ in
        blackHole(Creation.observation(count: creationCount, iterations: 1))
    }

    // The data cases run their own sides and checks; the benchmark times one full case run.
    let config = BenchConfig(smoke: false, filter: nil, iterationsOverride: 3)
    Benchmark("data/derived-multi-append-100k", configuration: .init(maxIterations: 5)) { _ in
        blackHole(DerivedCases.profile(kind: .multi, op: .append, n: 100_000, iterations: 100))
    }
    Benchmark("data/diff-5k", configuration: .init(maxIterations: 5)) { _ in
        blackHole(DiffCase.run(config: config, n: 5_000, removed: 1_000, inserted: 1_000, moved: 200, stdlibIterations: 1))
    }
    Benchmark("data/sectioned-1M", configuration: .init(maxIterations: 5)) { _ in
        blackHole(SectionedCase.run(config: config))
    }
}
