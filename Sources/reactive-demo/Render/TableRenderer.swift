import Foundation
import ReactiveSources

/// Turns a snapshot (plus cursor, selection and status) into lines of text. Pure: no
/// terminal I/O, so it is unit-tested directly.
struct TableRenderer {
    /// Spinner frames for loading rows.
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Columns per line; longer lines end in "…".
    var width: Int = 80
    /// How many rows each section shows (0: only its header; see ``RowAllotment``); `nil`
    /// shows every row.
    var limits: [Int]?

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
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            lines.append(header(section, index: sectionIndex))
            let rows = section.rows
            let limit = limits.map { $0.indices.contains(sectionIndex) ? $0[sectionIndex] : rows.count } ?? rows.count
            guard limit > 0 else { continue }
            let cursorItem = cursor?.section == sectionIndex ? cursor?.item : nil
            let visible = RowAllotment.visibleRange(rowCount: rows.count, limit: limit, cursorItem: cursorItem)
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

    /// A section's header: its title (or "Section n" without one) and its object count.
    func header(_ section: SnapshotSection<DemoItem>, index: Int) -> String {
        let name = section.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Section \(index + 1)"
        let heading = "── \(name) "
        let count = " \(section.objects.count) \(section.objects.count == 1 ? "item" : "items")"
        let fill = max(0, width - DisplayWidth.of(heading) - DisplayWidth.of(count))
        return fit(heading + String(repeating: "─", count: fill) + count)
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

    /// `line`, cut to ``width`` columns with a trailing "…" when wider.
    private func fit(_ line: String) -> String {
        DisplayWidth.fit(line, width: width)
    }
}
