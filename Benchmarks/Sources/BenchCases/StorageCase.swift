import ReactiveSourcesTesting

/// Row storage compared with `Array` and swift-collections' `Rope` (issue 20's targets):
/// edits while the previous version is held, iteration, random access, memory per row and
/// memory of 100 held versions. Synchronous; run with `reactive-profile storage all`.
public enum StorageCase {
    /// What one side measured at one size.
    struct Figures {
        var side = "", n = 0
        var append10 = Duration.zero, insert10 = Duration.zero, remove10 = Duration.zero, edit10 = Duration.zero
        var editUnheld = Duration.zero
        var iterationPerRow = 0.0, bulkIterationPerRow = 0.0, accessPerRow = 0.0, dependentAccessPerRow = 0.0
        var accessInsertedPerRow: Double? = nil
        var bytesPerRowAppended = 0.0, bytesPerRowInserted: Double? = nil
        var versionsAfterAppends: Double? = nil, versionsAfterEdits: Double? = nil
    }

    static func rows(_ range: Range<Int>) -> [BenchRow] { range.map { BenchRow(id: $0, value: $0) } }

    static func median(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    /// Median time of `step` over `iterations` (after 3 untimed ones), each run on the storage
    /// while a copy of its previous version is held (as a consumer keeping the last snapshot).
    static func timeHolding<S: RowStoreSide>(_ start: S, iterations: Int, _ step: (inout S, inout SplitMix64) -> Void) -> Duration {
        var current = start
        var held = current
        var generator = SplitMix64(seed: 0x5709)
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(iterations)
        for iteration in 0..<(iterations + 3) {
            held = current
            let begin = clock.now
            step(&current, &generator)
            let elapsed = clock.now - begin
            if iteration >= 3 { samples.append(elapsed) }
        }
        consume(held)
        consume(current)
        return median(samples)
    }

    /// `value`, through a call the optimizer cannot see into, so that work on it is not
    /// hoisted out of a timing loop.
    @inline(never) @_optimize(none)
    static func opaque<T>(_ value: T) -> T { value }

    /// Median time of `body` over `iterations` after one untimed run.
    static func measureSamples(_ iterations: Int, _ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        body()
        var samples: [Duration] = []
        for _ in 0..<iterations {
            let begin = clock.now
            body()
            samples.append(clock.now - begin)
        }
        return median(samples)
    }

    /// Bytes allocated while `build` runs and its result is alive.
    static func bytes<T>(_ build: () -> T) -> (Int, T) {
        let before = mallocBytesInUse()
        let value = build()
        return (mallocBytesInUse() - before, value)
    }

    static func measure<S: RowStoreSide>(_ type: S.Type, n: Int, iterations: Int, randomInserts: Bool, versions: Bool) -> Figures {
        var figures = Figures(side: S.name, n: n)
        let base = S(rows(0..<n))
        var nextID = n
        figures.append10 = timeHolding(base, iterations: iterations) { storage, _ in
            for _ in 0..<10 { storage.append(BenchRow(id: nextID, value: 0)); nextID += 1 }
        }
        figures.insert10 = timeHolding(base, iterations: iterations) { storage, generator in
            for _ in 0..<10 { storage.insert(BenchRow(id: nextID, value: 0), at: Int.random(in: 0...storage.count, using: &generator)); nextID += 1 }
        }
        figures.remove10 = timeHolding(base, iterations: Swift.min(iterations, n / 10 - 3)) { storage, generator in
            for _ in 0..<10 { storage.remove(at: Int.random(in: 0..<storage.count, using: &generator)) }
        }
        figures.edit10 = timeHolding(base, iterations: iterations) { storage, generator in
            for _ in 0..<10 { storage.set(BenchRow(id: -1, value: 1), at: Int.random(in: 0..<storage.count, using: &generator)) }
        }

        // The same edits with no version held: what memory latency alone costs at this size.
        var unheld = base
        var unheldGenerator = SplitMix64(seed: 0xED17)
        figures.editUnheld = measureSamples(iterations) {
            for _ in 0..<10 { unheld.set(BenchRow(id: -1, value: 1), at: Int.random(in: 0..<n, using: &unheldGenerator)) }
        }
        consume(unheld)

        figures.iterationPerRow = measureSamples(n >= 1_000_000 ? 7 : 31) {
            check(opaque(base).sumOfIDs() == n * (n - 1) / 2, "\(S.name) iteration sum")
        }.seconds * 1e9 / Double(n)
        figures.bulkIterationPerRow = measureSamples(n >= 1_000_000 ? 7 : 31) {
            check(opaque(base).sumOfIDsInBulk() == n * (n - 1) / 2, "\(S.name) bulk iteration sum")
        }.seconds * 1e9 / Double(n)
        var generator = SplitMix64(seed: 0xACCE55)
        let probes = (0..<100_000).map { _ in Int.random(in: 0..<n, using: &generator) }
        figures.accessPerRow = randomReads(base, probes: probes)
        // Each offset depends on the previous read, so reads cannot overlap (a latency bound,
        // as a consumer that does work with each row before the next).
        figures.dependentAccessPerRow = measureSamples(7) {
            var sum = 0
            let storage = opaque(base)
            for offset in probes { sum &+= storage.get((offset &+ (sum & 1)) % n).id }
            consume(sum)
        }.seconds * 1e9 / Double(probes.count)

        let (appended, built) = bytes {
            var storage = S()
            for id in 0..<n { storage.append(BenchRow(id: id, value: id)) }
            return storage
        }
        consume(built)
        figures.bytesPerRowAppended = Double(appended) / Double(n)
        if randomInserts {
            let (inserted, built) = bytes {
                var storage = S()
                var generator = SplitMix64(seed: 0x1115E27)
                for id in 0..<n { storage.insert(BenchRow(id: id, value: id), at: Int.random(in: 0...storage.count, using: &generator)) }
                return storage
            }
            figures.accessInsertedPerRow = randomReads(built, probes: probes)
            consume(built)
            figures.bytesPerRowInserted = Double(inserted) / Double(n)
        }
        if versions {
            figures.versionsAfterAppends = heldVersions(S.self, n: n) { storage, _ in
                for _ in 0..<10 { storage.append(BenchRow(id: nextID, value: 0)); nextID += 1 }
            }
            figures.versionsAfterEdits = heldVersions(S.self, n: n) { storage, generator in
                for _ in 0..<10 { storage.set(BenchRow(id: -1, value: 2), at: Int.random(in: 0..<storage.count, using: &generator)) }
            }
        }
        return figures
    }

    /// Nanoseconds per read of `probes` (offsets the CPU may read overlapped), median of 7 passes.
    static func randomReads<S: RowStoreSide>(_ base: S, probes: [Int]) -> Double {
        let clock = ContinuousClock()
        var accesses: [Duration] = []
        for _ in 0..<7 {
            var sum = 0
            let storage = opaque(base)
            let begin = clock.now
            for offset in probes { sum &+= storage.get(offset).id }
            accesses.append(clock.now - begin)
            consume(sum)
        }
        return median(accesses).seconds * 1e9 / Double(probes.count)
    }

    /// Extra memory of the last 100 versions after 100 rounds of `round`, as a fraction of
    /// one version's.
    static func heldVersions<S: RowStoreSide>(_ type: S.Type, n: Int, _ round: (inout S, inout SplitMix64) -> Void) -> Double {
        var held: [S] = []
        held.reserveCapacity(101)
        var generator = SplitMix64(seed: 0x7E25)
        let (one, start) = bytes { S(rows(0..<n)) }
        var current = start
        let before = mallocBytesInUse()
        for _ in 0..<100 {
            held.append(current)
            round(&current, &generator)
        }
        let extra = mallocBytesInUse() - before
        consume(held)
        consume(current)
        return Double(extra) / Double(one)
    }

    /// Runs every side at every size and renders a markdown report.
    public static func run(sizes: [Int] = [1_000, 100_000, 1_000_000], iterations: Int = 101, sides: Set<String>? = nil, progress: (String) -> Void = { _ in }) -> String {
        var all: [Figures] = []
        for n in sizes {
            if sides?.contains("Array") ?? true {
                progress("Array n=\(n)")
                all.append(measure(ArraySide.self, n: n, iterations: iterations, randomInserts: n <= 1_000, versions: n <= 100_000))
            }
            if sides?.contains("RowStorage") ?? true {
                progress("RowStorage n=\(n)")
                all.append(measure(RowStorageSide.self, n: n, iterations: iterations, randomInserts: true, versions: true))
            }
            if sides?.contains("Rope") ?? true {
                progress("Rope n=\(n)")
                all.append(measure(RopeSide.self, n: n, iterations: iterations, randomInserts: true, versions: true))
            }
        }
        return report(all)
    }

    static func report(_ all: [Figures]) -> String {
        func percent(_ value: Double?) -> String { value.map { format($0 * 100, 1) + " %" } ?? "–" }
        var lines = [
            "| n | side | append 10 | insert 10 | remove 10 | edit 10 | edit 10, none held | iterate /row | forEach /row | random get | random get, built by random inserts | dependent get | B/row appended | B/row random inserts | 100 versions, appends | 100 versions, edits |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for f in all {
            lines.append("| \(f.n) | \(f.side) | \(f.append10.pretty) | \(f.insert10.pretty) | \(f.remove10.pretty) | \(f.edit10.pretty) | \(f.editUnheld.pretty) | \(format(f.iterationPerRow, 2)) ns | \(format(f.bulkIterationPerRow, 2)) ns | \(format(f.accessPerRow, 1)) ns | \(f.accessInsertedPerRow.map { format($0, 1) + " ns" } ?? "–") | \(format(f.dependentAccessPerRow, 1)) ns | \(format(f.bytesPerRowAppended, 1)) | \(f.bytesPerRowInserted.map { format($0, 1) } ?? "–") | \(percent(f.versionsAfterAppends)) | \(percent(f.versionsAfterEdits)) |")
        }
        // Targets of issue 20 for RowStorage.
        let ours = all.filter { $0.side == "RowStorage" }
        let arrays = all.filter { $0.side == "Array" }
        if let small = ours.first, let large = ours.last, small.n != large.n {
            func growth(_ key: KeyPath<Figures, Duration>) -> String { format(large[keyPath: key].seconds / small[keyPath: key].seconds, 2) + "x" }
            lines.append("")
            lines.append("RowStorage n=\(large.n) over n=\(small.n): append 10 \(growth(\.append10)) (target <= 2x), edit 10 \(growth(\.edit10)) (<= 2x), insert 10 \(growth(\.insert10)), remove 10 \(growth(\.remove10)) (<= 3x); edit 10 with none held \(growth(\.editUnheld))")
            if let arraySmall = arrays.first, let arrayLarge = arrays.last, arraySmall.n != arrayLarge.n {
                lines.append("Array n=\(arrayLarge.n) over n=\(arraySmall.n): edit 10 with none held \(format(arrayLarge.editUnheld.seconds / arraySmall.editUnheld.seconds, 2))x")
            }
        }
        for f in ours {
            guard let array = arrays.first(where: { $0.n == f.n }) else { continue }
            let appendedRatio = f.bytesPerRowAppended / array.bytesPerRowAppended
            let insertedRatio = (f.bytesPerRowInserted ?? .nan) / array.bytesPerRowAppended
            lines.append("n=\(f.n) vs Array: iteration \(format(f.iterationPerRow / array.iterationPerRow, 2))x (<= 2x), forEach \(format(f.bulkIterationPerRow / array.iterationPerRow, 2))x, random get \(format(f.accessPerRow / array.accessPerRow, 2))x (<= 4x), after random inserts \(format((f.accessInsertedPerRow ?? .nan) / array.accessPerRow, 2))x, dependent get \(format(f.dependentAccessPerRow / array.dependentAccessPerRow, 2))x, bytes/row appended \(format(appendedRatio, 2))x (<= 1.25x), after random inserts \(format(insertedRatio, 2))x (<= 1.6x)")
        }
        return lines.joined(separator: "\n")
    }
}

extension StorageCase {
    /// Random reads only, for `perf stat` and callgrind: `reads(side:n:passes:)` builds the
    /// side's storage of `n` rows (`Array`, `RowStorage`, or `RowStorage-inserted`: built by n
    /// random inserts) and makes `passes` passes of 100,000 random reads; returns ns a read.
    public static func reads(side: String, n: Int, passes: Int) -> Double {
        var generator = SplitMix64(seed: 0xACCE55)
        let probes = (0..<100_000).map { _ in Int.random(in: 0..<n, using: &generator) }
        func run<S: RowStoreSide>(_ storage: S) -> Double {
            var total = 0.0
            for _ in 0..<passes { total += randomReads(storage, probes: probes) }
            return total / Double(passes)
        }
        switch side {
        case "Array": return run(ArraySide(rows(0..<n)))
        case "RowStorage": return run(RowStorageSide(rows(0..<n)))
        case "RowStorage-inserted":
            var storage = RowStorageSide()
            var inserts = SplitMix64(seed: 0x1115E27)
            for id in 0..<n { storage.insert(BenchRow(id: id, value: id), at: Int.random(in: 0...storage.count, using: &inserts)) }
            return run(storage)
        default: return .nan
        }
    }

    /// Iteration only (`for in`, as `iterate /row` in the table): sums the ids of `n` rows of
    /// the side's storage (`Array` or `RowStorage`) `passes` times a sample, 31 samples;
    /// returns the median's ns a row.
    public static func iteration(side: String, n: Int, passes: Int) -> Double {
        func run<S: RowStoreSide>(_ storage: S) -> Double {
            measureSamples(31) {
                var sum = 0
                for _ in 0..<passes { sum &+= opaque(storage).sumOfIDs() }
                check(sum == passes &* (n * (n - 1) / 2), "\(S.name) iteration sum")
            }.seconds * 1e9 / Double(n * passes)
        }
        switch side {
        case "Array": return run(ArraySide(rows(0..<n)))
        case "RowStorage": return run(RowStorageSide(rows(0..<n)))
        default: return .nan
        }
    }
}
