/// Sorted arrays as small sets and maps (what change-set code uses instead of hashing a few
/// index paths), and the one binary search of the package.
extension Array where Element: Comparable {
    /// The elements sorted, each once. O(n) when already sorted, else O(n log n).
    func sortedUnique() -> [Element] {
        var rows = self
        rows.sortIfNeeded()
        var kept = 0
        for index in rows.indices where kept == 0 || rows[index] != rows[kept - 1] {
            rows[kept] = rows[index]
            kept += 1
        }
        rows.removeLast(rows.count - kept)
        return rows
    }

    /// Sorts the array unless it is already in order (the usual case: the check is O(n)).
    mutating func sortIfNeeded() {
        var index = 1
        while index < count {
            if self[index] < self[index - 1] {
                sort()
                return
            }
            index += 1
        }
    }

    /// Whether this ascending array holds `element`. O(log n).
    func sortedContains(_ element: Element) -> Bool {
        let index = partitioningIndex { $0 >= element }
        return index < count && self[index] == element
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element `belongsInSecondPartition`, which must be false on a
    /// prefix and true after it (`endIndex` when it never is): a binary search. O(log n).
    @inlinable
    func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if try belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
