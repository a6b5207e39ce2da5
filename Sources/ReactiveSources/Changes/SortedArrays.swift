/// Sorted arrays as small sets and maps: what change-set code uses instead of hashing a few
/// index paths.
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
        let index = partitionIndex { $0 < element }
        return index < count && self[index] == element
    }
}

extension Array {
    /// The first index whose element is not `isBefore` (the elements that are come first).
    /// O(log n).
    func partitionIndex(_ isBefore: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
