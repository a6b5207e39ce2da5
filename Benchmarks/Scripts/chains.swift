// A 3-link chain (filter reading a property → sorted → sectioned, 100 groups) at 1k and 1M rows: 10 appended rows,
// and a predicate change against Array.filter + sort + grouping. Run (release library, no package):
//   swift build -c release --scratch-path .build-release --product ReactiveSourcesKit
//   bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
//   swiftc -O -swift-version 6 -I $bin/Modules -Xcc -fmodule-map-file=$bin/SignalsThreadLocal.build/module.modulemap -L $bin -lReactiveSourcesKit Benchmarks/Scripts/chains.swift -o /tmp/chains && LD_LIBRARY_PATH=$bin /tmp/chains
import Foundation
import ReactiveSources
import Signals

struct Row: Hashable, Sendable, Identifiable {
    var id: Int
    var value: Int
    var group: Int
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

func rows(_ n: Int, from start: Int = 0) -> [Row] {
    var g = SystemRandomNumberGenerator()
    return (start..<(start + n)).map { Row(id: $0, value: Int.random(in: 0..<1_000_000, using: &g), group: $0 % 100) }
}

let order: @Sendable (Row, Row) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }

func appendCost(_ n: Int) -> (build: Double, append: Double) {
    let source = SimpleDataSource(name: "r", objects: rows(n))
    let threshold = MutableProperty(3)
    let chain = source.filter { r in r.value % threshold.value != 0 }.sorted(by: order).sectioned(by: \.group, sectionOrder: .ascending)
    var t = now()
    _ = chain.snapshot
    let build = Double(now() - t) / 1e6
    let sub = chain.updates.observe { _ in }
    var samples: [Double] = []
    var next = n
    for _ in 0..<30 {
        let new = rows(10, from: next)
        next += 10
        t = now()
        source.append(new)
        _ = chain.snapshot
        samples.append(Double(now() - t) / 1e3)
    }
    sub.cancel()
    return (build, median(samples))
}

/// The predicate change over n rows: the chain, and the plain baselines over the same rows
/// (medians of 5): filter + sort by (value, id) (what the issue names), filter + one sort by
/// (group, value, id) (the sectioned order in one sort), and filter + sort + grouping.
/// The ratio is taken against the fastest baseline.
func predicateCost(_ n: Int) -> (chain: Double, filterSort: Double, oneSort: Double, grouped: Double) {
    let all = rows(n)
    let source = SimpleDataSource(name: "r", objects: all)
    let threshold = MutableProperty(3)
    let chain = source.filter { r in r.value % threshold.value != 0 }.sorted(by: order).sectioned(by: \.group, sectionOrder: .ascending)
    let sub = chain.updates.observe { _ in }
    var ours: [Double] = []
    var filterSort: [Double] = []
    var oneSort: [Double] = []
    var grouped: [Double] = []
    for i in 0..<5 {
        let t0 = now()
        threshold.value = 4 + i
        _ = chain.snapshot
        ours.append(Double(now() - t0) / 1e6)
        let limit = 4 + i
        var t1 = now()
        let sorted = all.filter { $0.value % limit != 0 }.sorted(by: order)
        filterSort.append(Double(now() - t1) / 1e6)
        t1 = now()
        let sectioned = all.filter { $0.value % limit != 0 }.sorted { ($0.group, $0.value, $0.id) < ($1.group, $1.value, $1.id) }
        oneSort.append(Double(now() - t1) / 1e6)
        t1 = now()
        let filtered = all.filter { $0.value % limit != 0 }.sorted(by: order)
        let groups = Dictionary(grouping: filtered, by: \.group).sorted { $0.key < $1.key }
        grouped.append(Double(now() - t1) / 1e6)
        precondition(groups.count > 0 && sorted.count == sectioned.count && sectioned.count == chain.snapshot.objectCount)
    }
    sub.cancel()
    return (median(ours), median(filterSort), median(oneSort), median(grouped))
}

let small = appendCost(1_000)
let large = appendCost(1_000_000)
print(String(format: "filter(reading a property)→sorted→sectioned(100 groups): first derivation 1k %.2f ms, 1M %.0f ms", small.build, large.build))
print(String(format: "append 10 rows (median of 30): 1k %.1f µs, 1M %.1f µs, ratio %.2fx", small.append, large.append, large.append / small.append))
let predicate = predicateCost(1_000_000)
let fastest = min(predicate.filterSort, predicate.oneSort, predicate.grouped)
print(String(format: "change the predicate over 1M rows (median of 5): chain %.0f ms; plain filter+sort %.0f ms, filter+one sort by (group, value, id) %.0f ms, filter+sort+grouping %.0f ms; ratio to Array.filter + sort (the issue's baseline) %.2fx, to the fastest %.2fx", predicate.chain, predicate.filterSort, predicate.oneSort, predicate.grouped, predicate.chain / predicate.filterSort, predicate.chain / fastest))
