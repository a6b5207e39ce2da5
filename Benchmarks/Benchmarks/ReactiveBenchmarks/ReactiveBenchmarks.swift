import Benchmark
import BenchCases

let benchmarks: @Sendable () -> Void = {
    Benchmark("placeholder") { benchmark in
        blackHole(1)
    }
}
