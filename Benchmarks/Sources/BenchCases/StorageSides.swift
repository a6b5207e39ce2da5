import ReactiveSources
import _RopeModule

/// A 16-byte row, as a snapshot of a realistic source holds.
public struct BenchRow: Sendable, Equatable {
    public var id: Int
    public var value: Int
    public init(id: Int, value: Int) {
        self.id = id
        self.value = value
    }
}

/// One side of the row-storage comparison: the operations a snapshot needs, by offset.
protocol RowStoreSide {
    static var name: String { get }
    init(_ rows: [BenchRow])
    init()
    var count: Int { get }
    mutating func append(_ row: BenchRow)
    mutating func insert(_ row: BenchRow, at offset: Int)
    mutating func remove(at offset: Int)
    mutating func set(_ row: BenchRow, at offset: Int)
    func get(_ offset: Int) -> BenchRow
    /// Visits every row in order (sums the ids).
    func sumOfIDs() -> Int
    /// Visits every row through the side's fastest bulk path (chunks where it has them).
    func sumOfIDsInBulk() -> Int
}

extension RowStoreSide {
    func sumOfIDsInBulk() -> Int { sumOfIDs() }
}

struct ArraySide: RowStoreSide {
    static var name: String { "Array" }
    var rows: [BenchRow]
    init(_ rows: [BenchRow]) { self.rows = rows }
    init() { rows = [] }
    var count: Int { rows.count }
    mutating func append(_ row: BenchRow) { rows.append(row) }
    mutating func insert(_ row: BenchRow, at offset: Int) { rows.insert(row, at: offset) }
    mutating func remove(at offset: Int) { rows.remove(at: offset) }
    mutating func set(_ row: BenchRow, at offset: Int) { rows[offset] = row }
    func get(_ offset: Int) -> BenchRow { rows[offset] }
    func sumOfIDs() -> Int {
        var sum = 0
        for row in rows { sum &+= row.id }
        return sum
    }
}

struct RowStorageSide: RowStoreSide {
    func sumOfIDsInBulk() -> Int {
        var sum = 0
        rows.forEach { sum &+= $0.id }
        return sum
    }
    static var name: String { "RowStorage" }
    var rows: RowStorage<BenchRow>
    init(_ rows: [BenchRow]) { self.rows = RowStorage(rows) }
    init() { rows = RowStorage() }
    var count: Int { rows.count }
    mutating func append(_ row: BenchRow) { rows.append(row) }
    mutating func insert(_ row: BenchRow, at offset: Int) { rows.insert(row, at: offset) }
    mutating func remove(at offset: Int) { rows.remove(at: offset) }
    mutating func set(_ row: BenchRow, at offset: Int) { rows[offset] = row }
    func get(_ offset: Int) -> BenchRow { rows[offset] }
    func sumOfIDs() -> Int {
        var sum = 0
        for row in rows { sum &+= row.id }
        return sum
    }
}

/// A row as an item of swift-collections' `Rope` (one row per item, 64 items or children
/// per node: 1 KiB leaves, as RowStorage's).
struct RopeRow: RopeElement {
    var row: BenchRow

    struct Summary: RopeSummary {
        var count: Int
        static var maxNodeSize: Int { 64 }
        static var zero: Summary { Summary(count: 0) }
        var isZero: Bool { count == 0 }
        mutating func add(_ other: Summary) { count += other.count }
        mutating func subtract(_ other: Summary) { count -= other.count }
    }

    typealias Index = Int
    var summary: Summary { Summary(count: 1) }
    var isEmpty: Bool { false }
    var isUndersized: Bool { false }
    func invariantCheck() {}
    mutating func rebalance(nextNeighbor right: inout RopeRow) -> Bool { false }
    mutating func split(at index: Int) -> RopeRow { fatalError("a row does not split") }
}

struct RowMetric: RopeMetric {
    typealias Element = RopeRow
    func size(of summary: RopeRow.Summary) -> Int { summary.count }
    func index(at offset: Int, in element: RopeRow) -> Int { offset }
}

struct RopeSide: RowStoreSide {
    static var name: String { "Rope" }
    var rope: Rope<RopeRow>
    init(_ rows: [BenchRow]) { rope = Rope(rows.lazy.map(RopeRow.init)) }
    init() { rope = Rope() }
    var count: Int { rope.count(in: RowMetric()) }
    mutating func append(_ row: BenchRow) { rope.append(RopeRow(row: row)) }
    mutating func insert(_ row: BenchRow, at offset: Int) { rope.insert(RopeRow(row: row), at: offset, in: RowMetric()) }
    mutating func remove(at offset: Int) { rope.remove(at: offset, in: RowMetric()) }
    mutating func set(_ row: BenchRow, at offset: Int) {
        var index = rope.find(at: offset, in: RowMetric(), preferEnd: false).index
        rope.update(at: &index) { $0.row = row }
    }
    func get(_ offset: Int) -> BenchRow { rope[rope.find(at: offset, in: RowMetric(), preferEnd: false).index].row }
    func sumOfIDs() -> Int {
        var sum = 0
        for item in rope { sum &+= item.row.id }
        return sum
    }
}
