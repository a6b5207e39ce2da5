/// How many rows of each section a screen of a given height shows.
///
/// Everything is shown when it fits. Otherwise every section keeps its header line (which
/// gives its row count), the focused section (the cursor's, else the first) gets the room,
/// as a window around the cursor when it is cut, and what room is left goes to the other
/// sections' last rows, nearest to the focus first; a section given no rows is folded to its
/// header. A cut section pays one line for each "… N more above/below" it shows.
enum RowAllotment {
    /// Each section's row limit (0: folded) for `rowCounts`, with `lines` lines for the
    /// sections, headers included. The focused section shows at least one row (its cursor
    /// row) even when that does not fit. O(sections × rows).
    static func limits(rowCounts: [Int], focus: Int?, cursorItem: Int?, lines: Int) -> [Int] {
        guard !rowCounts.isEmpty else { return [] }
        if rowCounts.reduce(rowCounts.count, +) <= lines { return rowCounts }
        let focus = min(max(0, focus ?? 0), rowCounts.count - 1)
        let cursorItem = cursorItem.map { min(max(0, $0), max(0, rowCounts[focus] - 1)) }
        var budget = lines - rowCounts.count
        var limits = Array(repeating: 0, count: rowCounts.count)

        let focusRows = rowCounts[focus]
        if focusRows > 0 {
            var limit = focusRows
            while limit > 1 && cost(rows: focusRows, limit: limit, cursorItem: cursorItem) > budget { limit -= 1 }
            limits[focus] = limit
            budget -= cost(rows: focusRows, limit: limit, cursorItem: cursorItem)
        }

        let others = rowCounts.indices.filter { $0 != focus }.sorted { abs($0 - focus) < abs($1 - focus) || (abs($0 - focus) == abs($1 - focus) && $0 < $1) }
        var grew = true
        while grew && budget > 0 {
            grew = false
            for index in others where limits[index] < rowCounts[index] {
                let before = cost(rows: rowCounts[index], limit: limits[index], cursorItem: nil)
                let after = cost(rows: rowCounts[index], limit: limits[index] + 1, cursorItem: nil)
                if after - before <= budget {
                    limits[index] += 1
                    budget -= after - before
                    grew = true
                }
            }
        }
        return limits
    }

    /// The lines a section of `rows` rows takes besides its header when it shows `limit` of
    /// them: the rows and one line per "… more" note.
    static func cost(rows: Int, limit: Int, cursorItem: Int?) -> Int {
        guard limit > 0 else { return 0 }
        let range = visibleRange(rowCount: rows, limit: limit, cursorItem: cursorItem)
        return range.count + (range.lowerBound > 0 ? 1 : 0) + (range.upperBound < rows ? 1 : 0)
    }

    /// The rows shown: all when they fit; otherwise a window around `cursorItem`, or the tail
    /// (where placeholders and new pages appear) without a cursor in the section.
    static func visibleRange(rowCount: Int, limit: Int, cursorItem: Int?) -> Range<Int> {
        guard rowCount > limit else { return 0..<rowCount }
        guard limit > 0 else { return rowCount..<rowCount }
        guard let cursorItem else { return (rowCount - limit)..<rowCount }
        let start = min(max(0, cursorItem - limit / 2), rowCount - limit)
        return start..<(start + limit)
    }
}
