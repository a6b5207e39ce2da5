/// Index arithmetic of a batch update within one list: rows not removed keep their order
/// and fill, in the new list, the positions not taken by added rows.
///
/// `removed` (old indexes) and `added` (new indexes) must be ascending and unique.
/// Complexity: O(log k) for k removed and added rows.
enum GapMapping {
    /// The new index of the row at old index `old`, which must not be in `removed`.
    static func newIndex(ofOld old: Int, removed: [Int], added: [Int]) -> Int {
        let rank = old - countLess(than: old, in: removed)
        return position(ofRank: rank, skipping: added)
    }

    /// The old index of the row at new index `new`, which must not be in `added`.
    static func oldIndex(ofNew new: Int, removed: [Int], added: [Int]) -> Int {
        let rank = new - countLess(than: new, in: added)
        return position(ofRank: rank, skipping: removed)
    }

    /// How many elements of the ascending `list` are less than `value`.
    static func countLess(than value: Int, in list: [Int]) -> Int {
        list.partitioningIndex { $0 >= value }
    }

    /// The `rank`-th (0-based) index not in the ascending, unique `taken`.
    static func position(ofRank rank: Int, skipping taken: [Int]) -> Int {
        // taken[i] - i is non-decreasing: count the taken indexes before the answer.
        rank + taken.indices.partitioningIndex { taken[$0] - $0 > rank }
    }
}
