import OpenCombine
import Signals

/// Creation of `count` derived nodes, each reading one of 1,000 sources (`source + 1`), and
/// reading each once (so it has computed its value and recorded its dependency). Reports
/// time and malloc'ed bytes per derived node (glibc `mallinfo2` before/after, sources and
/// the array that keeps the nodes alive excluded). What "linked" means differs:
/// - ours: the node holds its dependency edge; it joins the source's subscriber list only
///   when observed (a read-only node is not linked upstream);
/// - floor: the node is linked both ways (the floor always links);
/// - OpenCombine: a `CurrentValueSubject` fed by a `map` + `sink` subscription;
/// - Observation: an `@Observable` cell plus its tracking registration.
public enum Creation {
    public static let sources = 1000

    public struct Result {
        public var measurement: Measurement
        public var bytesPerNode: Double
    }

    /// Runs `iterations` creations of `count` nodes for one side.
    static func run(_ side: String, count: Int, iterations: Int, _ create: (Int, inout [AnyObject]) -> Void) -> Result {
        var samples: [Duration] = []
        var bytes: [Double] = []
        let clock = ContinuousClock()
        for iteration in 0...iterations {
            var keep: [AnyObject] = []
            keep.reserveCapacity(count * 2)
            let before = mallocBytesInUse()
            let start = clock.now
            create(count, &keep)
            let elapsed = clock.now - start
            let after = mallocBytesInUse()
            if iteration > 0 {  // the first run is a warm-up
                samples.append(elapsed)
                bytes.append(Double(after - before) / Double(count))
            }
            withExtendedLifetime(keep) {}
        }
        bytes.sort()
        return Result(measurement: Measurement(side: side, samples: samples, note: format(bytes[bytes.count / 2], 0) + " B/node"), bytesPerNode: bytes[bytes.count / 2])
    }

    public static func signals(count: Int, iterations: Int) -> Result {
        let heads = (0..<sources).map { MutableProperty($0) }
        return run("ours", count: count, iterations: iterations) { count, keep in
            for i in 0..<count {
                let head = heads[i % sources]
                let node = Property { head.value + 1 }
                check(node.value == i % sources + 1, "creation value")
                keep.append(node)
            }
        }
    }

    public static func floor(count: Int, iterations: Int) -> Result {
        let ctx = Floor.Context()
        let heads = (0..<sources).map { Floor.Signal($0, in: ctx) }
        let result = run("floor", count: count, iterations: iterations) { count, keep in
            for i in 0..<count {
                let head = heads[i % sources]
                let node = Floor.Computed(in: ctx) { head.value + 1 }
                check(node.value == i % sources + 1, "creation value")
                keep.append(node)
            }
        }
        withExtendedLifetime(ctx) {}
        return result
    }

    public static func combine(count: Int, iterations: Int) -> Result {
        let heads = (0..<sources).map { CurrentValueSubject<Int, Never>($0) }
        return run("OpenCombine", count: count, iterations: iterations) { count, keep in
            let g = CombineGraph()
            g.bag.reserveCapacity(count)
            for i in 0..<count {
                let node = g.map(heads[i % sources]) { $0 + 1 }
                check(node.value == i % sources + 1, "creation value")
                keep.append(node)
            }
            keep.append(g)
        }
    }

    public static func observation(count: Int, iterations: Int) -> Result {
        let ctx = Obs.Context()
        let heads = (0..<sources).map { Obs.Cell($0) }
        let result = run("Observation", count: count, iterations: iterations) { count, keep in
            for i in 0..<count {
                let head = heads[i % sources]
                let node = Obs.Computed(in: ctx) { head.value + 1 }
                check(node.value == i % sources + 1, "creation value")
                keep.append(node)
            }
        }
        withExtendedLifetime(ctx) {}
        return result
    }
}
