import ReactiveSources

/// `Snapshot.path(of:)` after every update (issue 20: the reverse lookup is maintained
/// incrementally): a Simple source of n objects appends 10, a consumer keeps the last 100
/// snapshots and looks up two objects in the newest. Also the same appends with no lookups
/// (what a consumer who never calls `path(of:)` pays). Run with `reactive-profile lookup`.
public enum LookupCase {
    /// Median time of one append (plus two lookups when `lookUp`) over `versions` versions.
    static func median(n: Int, versions: Int, lookUp: Bool) -> Duration {
        let source = SimpleDataSource(objects: Array(0..<n))
        var held: [Snapshot<Int>] = []
        var next = n
        var sink = 0
        if lookUp { sink &+= source.snapshot.path(of: 0)?.item ?? 0 }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for version in 0..<versions {
            let begin = clock.now
            source.append(Array(next..<(next + 10)))
            next += 10
            let snapshot = source.snapshot
            if lookUp {
                sink &+= snapshot.path(of: (version &* 7_919) % next)?.item ?? 0
                sink &+= snapshot.path(of: next - 1)?.item ?? 0
            }
            samples.append(clock.now - begin)
            held.append(snapshot)
            if held.count > 100 { held.removeFirst() }
        }
        precondition(sink >= 0)
        samples.sort()
        return samples[samples.count / 2]
    }

    static func micros(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) * 10).rounded() / 10
    }

    /// One line per size: median append with and without two lookups.
    public static func run(sizes: [Int] = [1_000, 100_000, 1_000_000], versions: Int = 201) -> String {
        sizes.map { n in
            let plain = median(n: n, versions: versions, lookUp: false)
            let looked = median(n: n, versions: versions, lookUp: true)
            return "n=\(n): append 10 \(micros(plain)) µs, append 10 + 2 path(of:) \(micros(looked)) µs"
        }.joined(separator: "\n")
    }
}
