import Foundation
import ReactiveSources

/// Turns a snapshot (plus cursor, selection and status) into lines of text. Pure: no
/// terminal I/O, so it is unit-tested directly.
struct TableRenderer {
    /// Spinner frames for loading rows.
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Columns per line; longer lines end in "…".
    var width: Int = 80
    /// How many lines the sections' rows may take in all (including "… more" lines), shared
    /// out over the sections; `nil` shows every row.
    var rowBudget: Int?

    /// The table: a title line, each section's title and rows, then the status lines.
    /// `nextPageLoading` tells whether a `loadingMore` row is actually loading (it spins)
    /// or only marks that more can be loaded.
    func render(
        _ snapshot: Snapshot<DemoItem>,
        cursor: RowPath? = nil,
        selected: Set<RowPath> = [],
        spinnerFrame: Int = 0,
        nextPageLoading: Bool = false,
        status: StatusLine? = nil,
        title: String = "ReactiveSources demo"
    ) -> [String] {
        var lines = [fit(title)]
        let limits = rowLimits(for: snapshot.sections.map(\.rowCount))
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            let heading = "── \(section.title ?? "Untitled") "
            let count = " \(section.objects.count) \(section.objects.count == 1 ? "item" : "items")"
            let fill = max(0, width - heading.count - count.count)
            lines.append(fit(heading + String(repeating: "─", count: fill) + count))
            let rows = section.rows
            let visible = visibleRange(rowCount: rows.count, limit: limits[sectionIndex], cursor: cursor, section: sectionIndex)
            if visible.lowerBound > 0 { lines.append("     … \(visible.lowerBound) more above") }
            for item in visible {
                let path = RowPath(item: item, section: sectionIndex)
                let marker = path == cursor ? "▸" : " "
                switch rows[item] {
                case .object(let object):
                    let box = selected.contains(path) ? "[x]" : "[ ]"
                    lines.append(fit(" \(marker) \(box) \(object.text)"))
                case .placeholder(let placeholder):
                    let text = text(for: placeholder, spinnerFrame: spinnerFrame, nextPageLoading: nextPageLoading)
                    lines.append(fit(" \(marker)     \(text)"))
                }
            }
            if visible.upperBound < rows.count { lines.append("     … \(rows.count - visible.upperBound) more below") }
        }
        if let status {
            lines.append(String(repeating: "═", count: width))
            lines.append(contentsOf: status.render().map(fit))
        }
        return lines
    }

    /// The text of a placeholder row: a spinner while loading, "No results", the error.
    func text(for placeholder: Placeholder, spinnerFrame: Int, nextPageLoading: Bool = false) -> String {
        let spin = Self.spinner[((spinnerFrame % Self.spinner.count) + Self.spinner.count) % Self.spinner.count]
        switch placeholder {
        case .loading: return "\(spin) Loading…"
        case .loadingMore where nextPageLoading: return "\(spin) Loading more…"
        case .loadingMore: return "↓ More to load (n)"
        case .noResults: return "∅ No results"
        case .error(let message): return "✖ Error: \(message)"
        }
    }

    /// Each section's most visible rows, sharing ``rowBudget`` out evenly: a section that
    /// needs less leaves the rest to the others, and a cut section pays for its "… more"
    /// lines. Every section shows at least one row.
    func rowLimits(for rowCounts: [Int]) -> [Int] {
        guard let rowBudget else { return rowCounts }
        var limits = rowCounts.map { min($0, 1) }
        func cost(_ limits: [Int]) -> Int {
            zip(rowCounts, limits).reduce(0) { total, pair in
                let (rows, limit) = pair
                return total + min(rows, limit) + (rows > limit ? 2 : 0)
            }
        }
        var grew = true
        while grew {
            grew = false
            for index in limits.indices where limits[index] < rowCounts[index] {
                var candidate = limits
                candidate[index] += 1
                if cost(candidate) <= rowBudget {
                    limits = candidate
                    grew = true
                }
            }
        }
        return limits
    }

    /// The rows shown: all when they fit; otherwise a window around the cursor in this
    /// section, or the tail (where placeholders and new pages appear).
    private func visibleRange(rowCount: Int, limit: Int, cursor: RowPath?, section: Int) -> Range<Int> {
        let limit = max(1, limit)
        guard rowCount > limit else { return 0..<rowCount }
        guard let cursor, cursor.section == section else {
            return (rowCount - limit)..<rowCount
        }
        let start = min(max(0, cursor.item - limit / 2), rowCount - limit)
        return start..<(start + limit)
    }

    /// `line`, cut to ``width`` with a trailing "…" when longer.
    private func fit(_ line: String) -> String {
        line.count <= width ? line : String(line.prefix(max(0, width - 1))) + "…"
    }
}
