/// Marks a longest strictly increasing subsequence of `values` (patience sorting).
///
/// The diff keeps the matched elements on this subsequence in place and reports every other
/// matched element as a move, which gives the fewest moves.
///
/// Complexity: O(n) when `values` is already increasing (the common case: nothing moved);
/// O(n log n) otherwise.
func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    var increasing = true
    for index in values.indices.dropFirst() where values[index] <= values[index - 1] {
        increasing = false
        break
    }
    if increasing { return Array(repeating: true, count: values.count) }

    // tails[k]: index (into values) of the smallest tail of an increasing run of length k + 1.
    var tails: [Int] = []
    tails.reserveCapacity(values.count)
    var previous = Array(repeating: -1, count: values.count)
    for index in values.indices {
        let value = values[index]
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var mask = Array(repeating: false, count: values.count)
    var cursor = tails.last ?? -1
    while cursor >= 0 {
        mask[cursor] = true
        cursor = previous[cursor]
    }
    return mask
}
