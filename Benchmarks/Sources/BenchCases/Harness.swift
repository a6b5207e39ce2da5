import ReactiveSourcesTesting
import CMallocStats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Global run configuration. `BENCH_SMOKE=1` (or `--smoke`) runs every side 1-3 times.
public struct BenchConfig: Sendable {
    public var smoke: Bool
    public var filter: String?
    public var iterationsOverride: Int?

    public init(smoke: Bool = false, filter: String? = nil, iterationsOverride: Int? = nil) {
        self.smoke = smoke
        self.filter = filter
        self.iterationsOverride = iterationsOverride
    }

    public static func fromEnvironment(arguments: [String] = CommandLine.arguments) -> BenchConfig {
        var config = BenchConfig(smoke: false, filter: nil, iterationsOverride: nil)
        if let value = getenv("BENCH_SMOKE"), String(cString: value) != "0" { config.smoke = true }
        if let value = getenv("BENCH_FILTER") { config.filter = String(cString: value) }
        if let value = getenv("BENCH_ITERATIONS") { config.iterationsOverride = Int(String(cString: value)) }
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--smoke" { config.smoke = true }
            if argument == "--filter", index + 1 < arguments.count { index += 1; config.filter = arguments[index] }
            if argument == "--iterations", index + 1 < arguments.count { index += 1; config.iterationsOverride = Int(arguments[index]) }
            index += 1
        }
        return config
    }

    /// How many timed iterations to run for a side whose full-mode count is `full`.
    public func iterations(_ full: Int) -> Int {
        if let iterationsOverride { return iterationsOverride }
        return smoke ? min(full, 3) : full
    }
}

/// Prevents the optimizer from discarding a value: not inlined and not optimised, so the
/// optimizer cannot prove the call useless and drop the work that computed `value` (an
/// `@inline(never)` function alone can still be seen to have no effect).
@inline(never) @_optimize(none)
public func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

public struct BenchFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Checks a correctness condition inside a benchmark; failures abort the run (exit 1).
@inline(__always)
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("correctness check failed: \(message()) (\(file):\(line))")
    }
}

/// Result of timing one side of a comparison.
public struct Measurement: Sendable {
    public var side: String
    public var samples: [Duration]
    /// Extra effect/observer runs beyond the expected count, per timed iteration (glitches
    /// or missing equality cut-off), if the case counts them.
    public var extraRuns: Int?
    /// Free-form extra info (for example bytes per node).
    public var note: String?

    public var median: Duration {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .zero }
        if sorted.count % 2 == 1 { return sorted[sorted.count / 2] }
        return (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    public var min: Duration { samples.min() ?? .zero }
}

extension Duration {
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }

    public var pretty: String {
        let s = seconds
        if s >= 1 { return format(s, 2) + " s" }
        if s >= 1e-3 { return format(s * 1e3, 2) + " ms" }
        if s >= 1e-6 { return format(s * 1e6, 2) + " µs" }
        return format(s * 1e9, 0) + " ns"
    }
}

public func format(_ value: Double, _ digits: Int) -> String {
    var multiplier = 1.0
    for _ in 0..<digits { multiplier *= 10 }
    let rounded = (value * multiplier).rounded() / multiplier
    if digits == 0 { return String(Int(rounded)) }
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

/// Times `body` `iterations` times after `warmup` untimed runs.
public func measure(_ side: String, iterations: Int, warmup: Int = 1, _ body: () -> Void) -> Measurement {
    let clock = ContinuousClock()
    for _ in 0..<warmup { body() }
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = clock.now
        body()
        samples.append(clock.now - start)
    }
    return Measurement(side: side, samples: samples)
}

/// Times several sides of one case sample by sample (side 1, side 2, ..., side 1, ...), so
/// that drift on the machine and the state of the heap affect every side alike.
public func measureAlternating(iterations: Int, warmup: Int = 1, _ sides: [(side: String, body: () -> Void)]) -> [Measurement] {
    let clock = ContinuousClock()
    for _ in 0..<warmup {
        for side in sides { side.body() }
    }
    var samples = Array(repeating: [Duration](), count: sides.count)
    for _ in 0..<iterations {
        for (index, side) in sides.enumerated() {
            let start = clock.now
            side.body()
            samples[index].append(clock.now - start)
        }
    }
    return zip(sides, samples).map { Measurement(side: $0.side, samples: $1) }
}

/// Times `body` where each iteration needs fresh, untimed setup.
public func measure<State>(_ side: String, iterations: Int, warmup: Int = 1, setup: () -> State, _ body: (State) -> Void) -> Measurement {
    let clock = ContinuousClock()
    for _ in 0..<warmup { body(setup()) }
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let state = setup()
        let start = clock.now
        body(state)
        samples.append(clock.now - start)
        withExtendedLifetime(state) {}
    }
    return Measurement(side: side, samples: samples)
}

/// A comparison between several sides of one case; the first side with `isBaseline` is
/// the reference of the ratio column.
public struct CaseResult: Sendable {
    public var group: String
    public var name: String
    public var measurements: [Measurement]
    public var baseline: String
    public var notes: [String] = []

    public init(group: String, name: String, measurements: [Measurement], baseline: String, notes: [String] = []) {
        self.group = group
        self.name = name
        self.measurements = measurements
        self.baseline = baseline
        self.notes = notes
    }

    public func measurement(_ side: String) -> Measurement? { measurements.first { $0.side == side } }

    /// `side` median / baseline median.
    public func ratio(_ side: String, to other: String? = nil) -> Double? {
        guard let a = measurement(side), let b = measurement(other ?? baseline) else { return nil }
        let bs = b.median.seconds
        return bs > 0 ? a.median.seconds / bs : nil
    }
}

/// Bytes currently allocated through malloc (glibc `mallinfo2`), for per-node memory.
public func mallocBytesInUse() -> Int {
    Int(cmallocstats_bytes_in_use())
}

/// A mutable counter shared with `@Sendable` observer closures (benchmarks are single-threaded).
public final class Counter: @unchecked Sendable {
    public var count = 0
    public init() {}
}

/// Times `count` sides of one asynchronous case: `warmup` untimed rounds in order, then
/// `iterations` rounds that run every side once, in a new order each round drawn from
/// `seed`, each side after an untimed `pause` so that no side is timed while the previous
/// one's tail (its last task unwinding, a session's bookkeeping) still runs. `run(index)`
/// runs side `index`. Returns each side's samples, by index.
public func measureShuffled(
    count: Int, iterations: Int, seed: UInt64, warmup: Int = 1, pause: Duration = .milliseconds(5),
    _ run: (Int) async throws -> Void
) async throws -> [[Duration]] {
    for _ in 0..<warmup {
        for index in 0..<count { try await run(index) }
    }
    let clock = ContinuousClock()
    var generator = SplitMix64(seed: seed)
    var samples = Array(repeating: [Duration](), count: count)
    for _ in 0..<iterations {
        for index in Array(0..<count).shuffled(using: &generator) {
            try await Task.sleep(for: pause)
            let start = clock.now
            try await run(index)
            samples[index].append(clock.now - start)
        }
    }
    return samples
}

/// The middle value of `values` (the upper middle for an even count), `nan` if empty.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}
