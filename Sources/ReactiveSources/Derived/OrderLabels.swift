/// Order labels: numbers that grow along a parent section, one per row, so a derived source
/// can compare where two rows stand in the parent without asking it (Sorted breaks ties by
/// them, Sectioned orders rows and sections by them). Rows labelled from scratch are a
/// stride apart and start high, so appends and prepends each have room for about 2^30
/// rows; an insert between two rows takes the midpoint, so about 30 inserts at one place
/// use up a gap (the caller then labels everything again).
enum OrderLabels {
    /// Distance between the labels of rows labelled from scratch, appended or prepended.
    static let stride: UInt64 = 1 << 32
    /// The label of the first row labelled from scratch.
    static let base: UInt64 = 1 << 62

    /// The label of row `index` (from 0) of rows labelled from scratch. O(1).
    static func fromScratch(_ index: Int) -> UInt64 {
        base &+ UInt64(index) &* stride
    }

    /// The labels of a parent section's rows after its edits: `removed` (old indexes,
    /// ascending) taken out, then a label made for each of `added` (new indexes,
    /// ascending), returned in that order. `nil` when a gap has no room left (`labels` is
    /// then partly edited; the caller labels everything again). O(k log n).
    static func follow(_ labels: inout RowStorage<UInt64>, removed: [Int], added: [Int]) -> [UInt64]? {
        RowEditing.remove(removed, from: &labels)
        var made: [UInt64] = []
        made.reserveCapacity(added.count)
        for item in added {
            let before: UInt64? = item > 0 ? labels[item - 1] : nil
            let after: UInt64? = item < labels.count ? labels[item] : nil
            guard let label = between(before, after) else { return nil }
            labels.insert(label, at: item)
            made.append(label)
        }
        return made
    }

    /// A label after `before` and before `after` (`nil`: no row on that side), or `nil` when
    /// there is none. O(1).
    static func between(_ before: UInt64?, _ after: UInt64?) -> UInt64? {
        switch (before, after) {
        case (nil, nil): return base
        case let (before?, nil): return before <= UInt64.max - stride ? before + stride : nil
        case let (nil, after?): return after > stride ? after - stride : (after >= 2 ? after / 2 : nil)
        case let (before?, after?): return after > before && after - before >= 2 ? before + (after - before) / 2 : nil
        }
    }
}
