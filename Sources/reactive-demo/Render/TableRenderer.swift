import Foundation
import ReactiveSources

/// Turns a snapshot (plus cursor, selection and status) into lines of text. Pure: no
/// terminal I/O, so it is unit-tested directly.
struct TableRenderer {
    /// Spinner frames for loading rows.
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    var width: Int = 80
    /// Most rows shown per section (the rest is summarised), to keep a frame on screen.
    var maxRowsPerSection: Int = 8

    func render(
        _ snapshot: Snapshot<DemoItem>,
        cursor: IndexPath? = nil,
        selected: Set<IndexPath> = [],
        spinnerFrame: Int = 0,
        status: StatusLine? = nil,
        title: String = "ReactiveSources demo"
    ) -> [String] {
        var lines = [fit(title)]
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            let heading = "── \(section.title ?? "Untitled") "
            let count = " \(section.objects.count) \(section.objects.count == 1 ? "item" : "items")"
            let fill = max(0, width - heading.count - count.count)
            lines.append(heading + String(repeating: "─", count: fill) + count)
            let rows = section.rows
            let visible = visibleRange(rowCount: rows.count, cursor: cursor, section: sectionIndex)
            if visible.lowerBound > 0 { lines.append("     … \(visible.lowerBound) more above") }
            for item in visible {
                let path = IndexPath(item: item, section: sectionIndex)
                let marker = path == cursor ? "▸" : " "
                switch rows[item] {
                case .object(let object):
                    let box = selected.contains(path) ? "[x]" : "[ ]"
                    lines.append(fit(" \(marker) \(box) \(object.text)"))
                case .placeholder(let placeholder):
                    lines.append(fit(" \(marker)     \(text(for: placeholder, spinnerFrame: spinnerFrame))"))
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

    func text(for placeholder: Placeholder, spinnerFrame: Int) -> String {
        let spin = Self.spinner[((spinnerFrame % Self.spinner.count) + Self.spinner.count) % Self.spinner.count]
        switch placeholder {
        case .loading: return "\(spin) Loading…"
        case .loadingMore: return "\(spin) Loading more…"
        case .noResults: return "∅ No results"
        case .error(let message): return "✖ Error: \(message)"
        }
    }

    /// The rows shown: the first `maxRowsPerSection`, or a window around the cursor.
    private func visibleRange(rowCount: Int, cursor: IndexPath?, section: Int) -> Range<Int> {
        guard rowCount > maxRowsPerSection else { return 0..<rowCount }
        guard let cursor, cursor.count == 2, cursor[0] == section else {
            // Keep the tail (where placeholders and new pages appear) in view.
            return (rowCount - maxRowsPerSection)..<rowCount
        }
        let start = min(max(0, cursor[1] - maxRowsPerSection / 2), rowCount - maxRowsPerSection)
        return start..<(start + maxRowsPerSection)
    }

    private func fit(_ line: String) -> String {
        line.count <= width ? line : String(line.prefix(max(0, width - 1))) + "…"
    }
}
