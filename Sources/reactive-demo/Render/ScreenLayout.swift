import ReactiveSources

/// Lays a whole screen out for a terminal of `width` × `height`: the title, the sections
/// (rows allotted by ``RowAllotment``), a rule, the status lines and the key help, in at
/// most `height` lines of at most `width` columns. The cursor row is always on screen. Pure.
struct ScreenLayout {
    /// Columns.
    var width: Int
    /// Lines.
    var height: Int

    /// The screen's lines. `help` is the key reminder's items, in order, each given in full
    /// and short (``helpLines(_:)`` picks).
    func frame(
        _ snapshot: Snapshot<DemoItem>,
        cursor: RowPath?,
        selected: Set<RowPath>,
        spinnerFrame: Int,
        nextPageLoading: Bool,
        status: StatusLine,
        help: [HelpItem]
    ) -> [String] {
        let statusLines = status.render().map { DisplayWidth.fit($0, width: width) }
        let helpLines = helpLines(help)
        let bottom = [String(repeating: "═", count: max(0, width))] + statusLines + helpLines
        // The title line and the bottom part are fixed; the sections share the rest.
        let sectionLines = max(0, height - 1 - bottom.count)
        let limits = RowAllotment.limits(
            rowCounts: snapshot.sections.map(\.rowCount),
            focus: cursor?.section, cursorItem: cursor?.item, lines: sectionLines
        )
        var table = TableRenderer(width: width, limits: limits).render(
            snapshot, cursor: cursor, selected: selected, spinnerFrame: spinnerFrame, nextPageLoading: nextPageLoading
        )
        // Too many sections for the height: keep the title and a window of the table around
        // the cursor row (or its top).
        if table.count > 1 + sectionLines {
            let body = Array(table.dropFirst())
            let room = max(1, sectionLines)
            let cursorLine = body.firstIndex { $0.hasPrefix(" ▸") } ?? 0
            let start = min(max(0, cursorLine - room / 2), max(0, body.count - room))
            table = [table[0]] + body[start..<min(body.count, start + room)]
        }
        let lines = table + bottom
        guard lines.count > height else { return lines }
        // Not even the bottom part fits: the table's cursor window first, then what fits.
        return Array(lines.prefix(max(0, height)))
    }

    /// The key reminder: the full items on one line when they fit, else the short ones on one
    /// line, else the short ones wrapped over as many lines as needed.
    func helpLines(_ items: [HelpItem]) -> [String] {
        let full = items.map(\.full).joined(separator: " · ")
        if DisplayWidth.of(full) <= width { return [full] }
        var lines: [String] = []
        var line = ""
        for item in items.map(\.short) {
            let candidate = line.isEmpty ? item : line + " · " + item
            if DisplayWidth.of(candidate) <= width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line)
                line = item
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { DisplayWidth.fit($0, width: width) }
    }
}

/// One entry of the key reminder, in full ("n next page") and short ("n page").
struct HelpItem: Equatable, Sendable {
    /// The entry when there is room.
    var full: String
    /// The entry when there is not.
    var short: String
}
