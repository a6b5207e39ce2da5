// The predicate change of chains.swift link by link: a chain of 1, 2 and 3 links, each observed alone.
// Run as chains.swift (same flags, this file instead).
import Foundation
import ReactiveSources
import Signals
struct Row: Hashable, Sendable, Identifiable { var id: Int; var value: Int; var group: Int }
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
var g = SystemRandomNumberGenerator()
let all = (0..<1_000_000).map { Row(id: $0, value: Int.random(in: 0..<1_000_000, using: &g), group: $0 % 100) }
let order: @Sendable (Row, Row) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }

for depth in 1...3 {
    let source = SimpleDataSource(name: "r", objects: all)
    let threshold = MutableProperty(3)
    let filtered = source.filter { r in r.value % threshold.value != 0 }
    let last: any DataSource<Row> = depth == 1 ? filtered : depth == 2 ? filtered.sorted(by: order) as any DataSource<Row> : filtered.sorted(by: order).sectioned(by: \.group, sectionOrder: .ascending) as any DataSource<Row>
    let sub = last.updates.observe { _ in }
    _ = last.snapshot
    for limit in [4, 5] {
        let t = now(); threshold.value = limit; _ = last.snapshot
        print(depth, String(format: "%.0f ms", Double(now() - t) / 1e6))
    }
    sub.cancel()
}
