// Selection following updates at 1k and 1M rows: the cost a Selection adds to each update of
// its source (10 selected rows, `state` observed), against the same updates with no selection.
// Run (release library, no package), from the repository root:
//   swift build -c release --scratch-path .build-release --product ReactiveSourcesKit
//   bin=$(swift build -c release --scratch-path .build-release --show-bin-path)
//   swiftc -O -swift-version 6 -I $bin/Modules -Xcc -fmodule-map-file=$bin/SignalsThreadLocal.build/module.modulemap -L $bin -lReactiveSourcesKit Benchmarks/Scripts/selection.swift -o /tmp/selection && LD_LIBRARY_PATH=$bin /tmp/selection
import Foundation
import ReactiveSources
import Signals

struct Row: Hashable, Sendable, Identifiable {
    var id: Int
    var value: Int
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

/// Median µs per round of updates (insert 1 at the front, append 10, update a selected row,
/// move a row, remove a row), with or without a selection over the source.
func roundCost(_ n: Int, selected: Bool) -> Double {
    let source = SimpleDataSource(name: "r", objects: (0..<n).map { Row(id: $0, value: $0) })
    let selection = selected ? Selection(source: source, policy: .multiple) : nil
    var watch: SignalSubscription?
    if let selection {
        for k in 0..<10 { try! selection.select(at: RowPath(item: k * (n / 10), section: 0)) }
        watch = selection.state.observe { state in precondition(state.selectedPaths.count <= 11) }
    } else {
        watch = source.updates.observe { _ in }
    }
    var next = n
    var samples: [Double] = []
    for round in 0..<40 {
        let t = now()
        try! source.insert([Row(id: next, value: -1)], at: 0)
        next += 1
        source.append((next..<(next + 10)).map { Row(id: $0, value: $0) })
        next += 10
        let edited = 1 + 5 * (n / 10)
        try! source.replace(at: edited, with: Row(id: source.snapshot.object(at: RowPath(item: edited, section: 0))!.id, value: round))
        try! source.move(from: 2, to: n / 2)
        _ = try! source.remove(at: 3)
        samples.append(Double(now() - t) / 1e3)
    }
    watch?.cancel()
    if let selection { precondition(selection.selectedPaths.count >= 9, "the selection followed the rows") }
    return median(samples)
}

for n in [1_000, 1_000_000] {
    _ = roundCost(n, selected: true)   // warm-up
}
let small = (plain: roundCost(1_000, selected: false), selected: roundCost(1_000, selected: true))
let large = (plain: roundCost(1_000_000, selected: false), selected: roundCost(1_000_000, selected: true))
print(String(format: "5 updates (insert, append 10, update a selected row, move, remove), median of 40 rounds:"))
print(String(format: "  1k rows: source alone %.1f µs, with a 10-row selection %.1f µs (selection adds %.1f µs)", small.plain, small.selected, small.selected - small.plain))
print(String(format: "  1M rows: source alone %.1f µs, with a 10-row selection %.1f µs (selection adds %.1f µs)", large.plain, large.selected, large.selected - large.plain))
print(String(format: "  selection's added cost, 1M / 1k: %.2fx", (large.selected - large.plain) / max(small.selected - small.plain, 0.001)))
