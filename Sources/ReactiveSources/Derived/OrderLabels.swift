/// Order labels: numbers that grow along a parent section, one per row, so a derived source
/// can compare where two rows stand in the parent without asking it (Sorted breaks ties by
/// them, Sectioned orders rows and sections by them). Rows labelled from scratch are a
/// stride apart and start high, so appends and prepends each have room for about 2^30
/// rows; an insert between two rows takes the midpoint, so about 30 inserts at one place
/// use up a gap (the caller then labels everything again).
@usableFromInline
enum OrderLabels {
    /// Distance between the labels of rows labelled from scratch, appended or prepended.
    @inlinable static var stride: UInt64 { 1 << 32 }
    /// The label of the first row labelled from scratch.
    @inlinable static var base: UInt64 { 1 << 62 }

    /// The label of row `index` (from 0) of rows labelled from scratch. O(1).
    @inlinable
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

    /// Whether an edit touching `touched` of `count` rows is followed in one merge pass over
    /// every row (O(n + k log k)) rather than by a binary search per touched row (O(k log n)):
    /// the rule of Sorted's and Sectioned's large-change passes.
    static func isBulk(touched: Int, count: Int) -> Bool {
        touched * 16 > count
    }

    /// As ``follow(_:removed:added:)``, in one pass over every label (O(n + k) instead of
    /// O(k log n)), for edits that touch many rows: the rows arriving in one gap are spread
    /// evenly across it. Returns the new labels and those made for `added`, in its order;
    /// `nil` when a gap has no room for its rows or the edits do not fit the labels.
    static func followInBulk(_ labels: RowStorage<UInt64>, removed: [Int], added: [Int]) -> (labels: RowStorage<UInt64>, made: [UInt64])? {
        let newCount = labels.count - removed.count + added.count
        guard newCount >= 0 else { return nil }
        var result = ContiguousArray<UInt64>()
        result.reserveCapacity(newCount)
        var made: [UInt64] = []
        made.reserveCapacity(added.count)
        var nextRemoved = 0
        var nextAdded = 0
        var oldItem = 0
        for label in labels {
            if nextRemoved < removed.count && removed[nextRemoved] == oldItem {
                nextRemoved += 1
                oldItem += 1
                continue
            }
            oldItem += 1
            if nextAdded < added.count && added[nextAdded] == result.count {
                guard appendRun(of: added, from: &nextAdded, before: label, to: &result, made: &made) else { return nil }
            }
            result.append(label)
        }
        while nextAdded < added.count {
            guard added[nextAdded] == result.count, appendRun(of: added, from: &nextAdded, before: nil, to: &result, made: &made) else { return nil }
        }
        // Edits that do not fit the labels (an index repeated or out of range) leave some over.
        guard nextRemoved == removed.count, result.count == newCount else { return nil }
        return (RowStorage(result), made)
    }

    /// Labels the run of consecutive `added` rows from `start` (which goes at `result.count`),
    /// spread between the last label of `result` and `next`, and moves `start` past it.
    /// `false` when the gap has no room. O(run).
    private static func appendRun(
        of added: [Int], from start: inout Int, before next: UInt64?, to result: inout ContiguousArray<UInt64>, made: inout [UInt64]
    ) -> Bool {
        var end = start + 1
        while end < added.count && added[end] == added[end - 1] + 1 { end += 1 }
        let run = end - start
        guard let (first, step) = spread(run, after: result.last, before: next) else { return false }
        for index in 0..<run {
            let label = first &+ UInt64(index) &* step
            result.append(label)
            made.append(label)
        }
        start = end
        return true
    }

    /// `count` labels between `before` and `after` (`nil`: no row on that side), evenly
    /// spread: the first and the step; `nil` when there is no room. O(1).
    static func spread(_ count: Int, after before: UInt64?, before after: UInt64?) -> (first: UInt64, step: UInt64)? {
        let rows = UInt64(count)
        switch (before, after) {
        case (nil, nil):
            return (base, stride)
        case let (before?, nil):
            return before <= UInt64.max - rows * stride ? (before + stride, stride) : nil
        case let (nil, after?):
            if after > rows * stride { return (after - rows * stride, stride) }
            let step = after / (rows + 1)
            return step >= 1 ? (step, step) : nil
        case let (before?, after?):
            guard after > before else { return nil }
            let step = (after - before) / (rows + 1)
            return step >= 1 ? (before + step, step) : nil
        }
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
