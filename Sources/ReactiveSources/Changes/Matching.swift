/// Pairs equal elements of two sequences: the k-th occurrence of a value in `old` pairs with
/// the k-th occurrence of the same value in `new` (so duplicates never confuse the diff; a
/// surplus occurrence on either side is a delete or an insert).
///
/// Complexity: O(n + m) on average (one hash table, two integer arrays).
struct Matching {
    /// For each old index, the index of its partner in `new`, or -1 when it was deleted.
    var oldToNew: [Int]
    /// For each new index, the index of its partner in `old`, or -1 when it was inserted.
    var newToOld: [Int]

    init<Key: Hashable>(old: [Key], new: [Key]) {
        oldToNew = Array(repeating: -1, count: old.count)
        newToOld = Array(repeating: -1, count: new.count)
        if old.isEmpty || new.isEmpty { return }
        // Fast path: identical prefix and suffix are matched without hashing.
        var prefix = 0
        let shorter = min(old.count, new.count)
        while prefix < shorter && old[prefix] == new[prefix] {
            oldToNew[prefix] = prefix
            newToOld[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            oldToNew[old.count - 1 - suffix] = new.count - 1 - suffix
            newToOld[new.count - 1 - suffix] = old.count - 1 - suffix
            suffix += 1
        }
        let oldRange = prefix..<(old.count - suffix)
        let newRange = prefix..<(new.count - suffix)
        if oldRange.isEmpty || newRange.isEmpty { return }

        // head[key] is the first unmatched old index holding key; nextSame chains the others.
        var head: [Key: Int] = [:]
        head.reserveCapacity(oldRange.count)
        var nextSame = Array(repeating: -1, count: old.count)
        for index in oldRange.reversed() {
            let key = old[index]
            if let first = head.updateValue(index, forKey: key) { nextSame[index] = first }
        }
        for index in newRange {
            guard let partner = head[new[index]], partner >= 0 else { continue }
            oldToNew[partner] = index
            newToOld[index] = partner
            head[new[index]] = nextSame[partner]
        }
    }
}
