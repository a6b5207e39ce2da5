import ReactiveSourcesTesting
import Testing
@testable import reactive_demo

/// The focused section gets the room, the others fold to their header, the cursor row is
/// always shown, and no allotment takes more lines than it is given.
@Suite struct RowAllotmentTests {
    @Test func everythingShownWhenItFits() {
        #expect(RowAllotment.limits(rowCounts: [2, 30, 1], focus: nil, cursorItem: nil, lines: 36) == [2, 30, 1])
    }

    @Test func theFocusedSectionGetsTheRoomAndTheOthersFold() {
        // 6 headers leave 10 lines; the feed (cursor on its 8th row) takes them all: 8 rows
        // and a "more" line on either side.
        #expect(RowAllotment.limits(rowCounts: [8, 16, 6, 3, 1, 2], focus: 1, cursorItem: 7, lines: 16) == [0, 8, 0, 0, 0, 0])
        // On its last row, only "more above": 9 rows.
        #expect(RowAllotment.limits(rowCounts: [8, 16, 6, 3, 1, 2], focus: 1, cursorItem: 15, lines: 16) == [0, 9, 0, 0, 0, 0])
        // Without a cursor the first section is focused; what is left goes to its neighbour.
        #expect(RowAllotment.limits(rowCounts: [8, 16, 6, 3, 1, 2], focus: nil, cursorItem: nil, lines: 16) == [8, 1, 0, 0, 0, 0])
    }

    /// Seeded: for random sections, heights and cursors the lines used never exceed the lines
    /// given (when a cursor row fits at all) and the cursor's row is always in its window.
    @Test func neverMoreLinesThanGivenAndTheCursorRowIsShown() {
        var generator = SplitMix64(seed: 0x5EED_2024)
        for round in 0..<2_000 {
            let counts = (0..<Int.random(in: 1...7, using: &generator)).map { _ in Int.random(in: 0...30, using: &generator) }
            let lines = Int.random(in: 0...40, using: &generator)
            let focus = Int.random(in: 0..<counts.count, using: &generator)
            let cursor = counts[focus] > 0 ? Int.random(in: 0..<counts[focus], using: &generator) : nil
            let limits = RowAllotment.limits(rowCounts: counts, focus: focus, cursorItem: cursor, lines: lines)
            let used = counts.indices.reduce(counts.count) { total, index in
                total + RowAllotment.cost(rows: counts[index], limit: limits[index], cursorItem: index == focus ? cursor : nil)
            }
            let context = "round \(round), seed 0x5EED_2024: counts \(counts), lines \(lines), focus \(focus), cursor \(String(describing: cursor)), limits \(limits)"
            if counts.count + 3 <= lines {
                #expect(used <= lines, "\(context)")
            }
            if let cursor {
                #expect(RowAllotment.visibleRange(rowCount: counts[focus], limit: limits[focus], cursorItem: cursor).contains(cursor), "\(context)")
            }
        }
    }
}
