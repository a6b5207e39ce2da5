import Foundation
import ReactiveSources

/// The demo's interaction state (cursor, message) and its reaction to keys. Rendering reads
/// it; both terminal and log modes drive it. Thread-safe.
final class DemoController: @unchecked Sendable {
    /// The sources driven and shown.
    let model: DemoModel
    /// Guards the cursor and the message.
    private let lock = NSLock()
    private var cursorPath: RowPath?
    private var messageText: String?

    /// Creates a controller over `model`, with no cursor and no message.
    init(model: DemoModel) {
        self.model = model
    }

    /// The row under the cursor, if the cursor was moved.
    var cursor: RowPath? { lock.withLock { cursorPath } }
    /// The note shown in the status line, if any.
    var message: String? { lock.withLock { messageText } }

    /// Replaces the status line's note.
    func setMessage(_ text: String?) {
        lock.withLock { messageText = text }
    }

    /// Reacts to a key. Returns false for quit.
    func handle(_ key: Key) -> Bool {
        switch key {
        case .quit:
            return false
        case .nextPage:
            if model.feed.hasMorePages {
                model.feed.fetchNextPage()
                setMessage(nil)
            } else {
                setMessage("no more pages")
            }
        case .refresh:
            model.multi.fetchData()
            setMessage(Self.refreshingNote)
        case .cancel:
            model.multi.cancelFetch()
            setMessage("cancelled")
        case .injectFailure:
            guard model.simulatedAPI != nil else {
                setMessage("e (fail the next fetch) works on the simulated API only")
                return true
            }
            model.failureInjector.failNextRequest()
            setMessage(nil)
        case .up:
            move(by: -1)
        case .down:
            move(by: 1)
        case .select:
            guard let cursor else { return true }
            do {
                try model.selection.toggle(at: cursor)
                setMessage(nil)
            } catch {
                setMessage(Self.describe(error, in: model.multi.snapshot))
            }
        }
        return true
    }

    /// Moves the cursor over object and placeholder rows and tells the source the row is
    /// displayed (which loads the next feed page at the end of the feed).
    func move(by step: Int) {
        let snapshot = model.multi.snapshot
        let paths = snapshot.sections.indices.flatMap { section in
            (0..<snapshot.sections[section].rowCount).map { RowPath(item: $0, section: section) }
        }
        guard !paths.isEmpty else { return }
        let next = lock.withLock { () -> RowPath in
            let current = cursorPath.flatMap { paths.firstIndex(of: $0) } ?? (step > 0 ? -1 : paths.count)
            let path = paths[min(paths.count - 1, max(0, current + step))]
            cursorPath = path
            return path
        }
        model.multi.willDisplayRow(at: next)
    }

    /// The note shown while a refresh runs (dropped once every section has settled).
    static let refreshingNote = "refreshing every section"

    /// A refused selection change in one line, naming the section by its title.
    static func describe(_ error: SelectionError, in snapshot: Snapshot<DemoItem>) -> String {
        func name(_ section: Int) -> String {
            guard snapshot.sections.indices.contains(section), let title = snapshot.sections[section].title, !title.isEmpty else {
                return "Section \(section + 1)"
            }
            return title
        }
        switch error {
        case .invalidPath(let path): return "No row \(path.item + 1) in \(name(path.section))."
        case .placeholderRow(let path): return "Row \(path.item + 1) of \(name(path.section)) is a placeholder and cannot be selected."
        case .notSelectable(let section): return "\(name(section)) does not allow selection."
        case .belowMinimum(let section, let minimum):
            return "\(name(section)) must keep at least \(minimum) selected row\(minimum == 1 ? "" : "s")."
        }
    }

    /// The status line for the current state.
    func statusLine() -> StatusLine {
        if message == Self.refreshingNote && !model.multi.loadState.value.isFetching {
            lock.withLock { if messageText == Self.refreshingNote { messageText = nil } }
        }
        let pagination = model.feed.pagination.value
        let nextPage: String = switch pagination.nextPage {
        case .idle: pagination.hasMorePages ? "available" : "none"
        case .loading: "loading"
        case .failed: "failed"
        }
        let failure = pagination.nextPageError.map { "next page failed (n retries): \($0.message)" }
        let armed = model.failureInjector.isArmed ? "the next feed request will fail" : nil
        let notes = [message, armed, failure].compactMap { $0 }
        return StatusLine(
            contentState: model.multi.contentState.value.description,
            page: pagination.info.page ?? (pagination.loadedPages > 0 ? pagination.loadedPages : nil),
            numberOfPages: pagination.info.numberOfPages,
            totalResults: pagination.info.totalCount,
            shownResults: model.feed.snapshot.numberOfObjects(inSection: 0),
            nextPage: nextPage,
            timings: model.timings.entries,
            message: notes.isEmpty ? nil : notes.joined(separator: " · ")
        )
    }

    /// The table and status for the current state, `width` columns wide, every row shown.
    func frame(width: Int, spinnerFrame: Int) -> [String] {
        TableRenderer(width: width).render(
            model.multi.snapshot,
            cursor: cursor,
            selected: Set(model.selection.selectedPaths),
            spinnerFrame: spinnerFrame,
            nextPageLoading: model.feed.pagination.value.isLoadingNextPage,
            status: statusLine()
        )
    }

    /// The whole screen for a terminal of `size` (see ``ScreenLayout``).
    func screen(size: (width: Int, height: Int), spinnerFrame: Int) -> [String] {
        ScreenLayout(width: size.width, height: size.height).frame(
            model.multi.snapshot,
            cursor: cursor,
            selected: Set(model.selection.selectedPaths),
            spinnerFrame: spinnerFrame,
            nextPageLoading: model.feed.pagination.value.isLoadingNextPage,
            status: statusLine(),
            help: helpItems
        )
    }

    /// The keys the demo answers, for the key reminder (`e` only on the simulated API).
    var helpItems: [HelpItem] {
        [
            HelpItem(full: "n next page", short: "n page"),
            HelpItem(full: "r refresh", short: "r refresh"),
            HelpItem(full: "c cancel", short: "c cancel"),
        ] + (model.simulatedAPI == nil ? [] : [HelpItem(full: "e fail next fetch", short: "e fail")]) + [
            HelpItem(full: "↑/↓ move", short: "↑↓ move"),
            HelpItem(full: "space select", short: "space sel"),
            HelpItem(full: "q quit", short: "q quit"),
        ]
    }
}
