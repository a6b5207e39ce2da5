import Foundation

/// Issue 21, "the lock": two independent graphs written from two threads at once, beside the
/// same two graphs written one after the other on one thread. Each graph is the deep shape
/// (a 100-map chain observed on its tail, 1,000 writes). The speed-up (one thread's time ÷
/// two threads' time; 2.0 on two idle cores) of ours is compared with that of two floor
/// graphs with a lock each, in the same run, sample by sample interleaved.
public enum TwoGraphsCase {
    public struct Result {
        public var measurements: [Measurement]
        public var oursSpeedUp: Double
        public var floorSpeedUp: Double
        public var relative: Double { oursSpeedUp / floorSpeedUp }
    }

    public static func run(config: BenchConfig) -> Result {
        let iterations = config.iterations(40)
        let ours = (signalsNodeUpdates(.chain100), signalsNodeUpdates(.chain100))
        let floor = (floorNodeUpdates(.chain100, ctx: Floor.Context()), floorNodeUpdates(.chain100, ctx: Floor.Context()))
        let worker = Worker()
        defer { worker.stop() }
        let clock = ContinuousClock()
        func oneThread(_ pair: (GraphBench, GraphBench)) -> Duration {
            let start = clock.now
            check(pair.0.run() == 0 && pair.1.run() == 0, "exact observer counts")
            return clock.now - start
        }
        func twoThreads(_ pair: (GraphBench, GraphBench)) -> Duration {
            let second = pair.1
            let start = clock.now
            worker.start { check(second.run() == 0, "exact observer counts") }
            check(pair.0.run() == 0, "exact observer counts")
            worker.waitUntilDone()
            return clock.now - start
        }
        let sides: [(String, () -> Duration)] = [
            ("ours, 1 thread", { oneThread(ours) }),
            ("ours, 2 threads", { twoThreads(ours) }),
            ("floor, 1 thread", { oneThread(floor) }),
            ("floor, 2 threads", { twoThreads(floor) }),
        ]
        for side in sides { _ = side.1() }  // warm-up
        var samples = Array(repeating: [Duration](), count: sides.count)
        for _ in 0..<iterations {
            for index in sides.indices { samples[index].append(sides[index].1()) }
        }
        let measurements = sides.indices.map { Measurement(side: sides[$0].0, samples: samples[$0], extraRuns: 0) }
        func speedUp(_ one: Int, _ two: Int) -> Double { measurements[one].median.seconds / measurements[two].median.seconds }
        return Result(measurements: measurements, oursSpeedUp: speedUp(0, 1), floorSpeedUp: speedUp(2, 3))
    }

    public static func markdown(_ result: Result) -> String {
        var lines = ["Two independent graphs (deep shape each), one thread vs two threads:", ""]
        lines.append("| side | median | min |")
        lines.append("|---|---:|---:|")
        for measurement in result.measurements {
            lines.append("| \(measurement.side) | \(measurement.median.pretty) | \(measurement.min.pretty) |")
        }
        let met = result.relative >= 0.9 ? "yes" : "NO"
        lines.append("")
        lines.append("Two-thread speed-up: ours \(format(result.oursSpeedUp, 2))x, floor (a lock per graph) \(format(result.floorSpeedUp, 2))x; ours ÷ floor \(format(result.relative, 2)) (target >= 0.9: \(met)).")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One thread that runs a job when started and reports when it is done (no thread is made
/// per sample).
private final class Worker: @unchecked Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var job: (() -> Void)?
    private var stopping = false

    init() {
        let thread = Thread { [unowned self] in self.loop() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func loop() {
        while true {
            go.wait()
            if stopping {
                done.signal()
                return
            }
            job?()
            done.signal()
        }
    }

    func start(_ body: @escaping () -> Void) {
        job = body
        go.signal()
    }

    func waitUntilDone() {
        done.wait()
    }

    func stop() {
        stopping = true
        go.signal()
        done.wait()
    }
}
