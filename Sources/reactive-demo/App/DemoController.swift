import Foundation
import ReactiveSources
import Signals

/// The demo's interaction state (cursor, message, timings) and its reaction to keys.
/// Rendering reads it; both terminal and log modes drive it.
final class DemoController: @unchecked Sendable {
    let model: DemoModel
    private let lock = NSLock()
    private var cursorPath: IndexPath?
    private var messageText: String?
    private var feedStartedAt: ContinuousClock.Instant?
    private var lastFeedFetch: Duration?
    private var subscriptions: [Subscription] = []

    init(model: DemoModel) {
        self.model = model
        let clock = ContinuousClock()
        subscriptions.append(model.feed.loadEvents.observe { [weak self] event in
            self?.recordTiming(event.isFinisher ? .ended : (event == .willLoad ? .started : .ignored), now: clock.now)
        })
        subscriptions.append(model.feed.pagination.map(\.isLoadingNextPage).observe(emitsCurrentValue: false) { [weak self] loading in
            self?.recordTiming(loading ? .started : .ended, now: clock.now)
        })
    }

    private enum Timing { case started, ended, ignored }

    private func recordTiming(_ timing: Timing, now: ContinuousClock.Instant) {
        lock.withLock {
            switch timing {
            case .started: feedStartedAt = now
            case .ended:
                if let start = feedStartedAt { lastFeedFetch = now - start }
                feedStartedAt = nil
            case .ignored: break
            }
        }
    }

    var cursor: IndexPath? { lock.withLock { cursorPath } }
    var message: String? { lock.withLock { messageText } }

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
            setMessage("refreshing every section")
        case .cancel:
            model.multi.cancelFetch()
            setMessage("cancelled")
        case .injectFailure:
            model.failureInjector.failNextRequest()
            setMessage("the next feed request will fail")
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
                setMessage(error.description)
            }
        }
        return true
    }

    /// Moves the cursor over object and placeholder rows and tells the source the row is
    /// displayed (which loads the next feed page at the end of the feed).
    func move(by step: Int) {
        let snapshot = model.multi.snapshot
        let paths = snapshot.sections.indices.flatMap { section in
            (0..<snapshot.sections[section].rowCount).map { IndexPath(item: $0, section: section) }
        }
        guard !paths.isEmpty else { return }
        let next = lock.withLock { () -> IndexPath in
            let current = cursorPath.flatMap { paths.firstIndex(of: $0) } ?? (step > 0 ? -1 : paths.count)
            let path = paths[min(paths.count - 1, max(0, current + step))]
            cursorPath = path
            return path
        }
        model.multi.willDisplayRow(at: next)
    }

    /// The status line for the current state.
    func statusLine() -> StatusLine {
        let pagination = model.feed.pagination.value
        let nextPage: String = switch pagination.nextPage {
        case .idle: pagination.hasMorePages ? "available" : "none"
        case .loading: "loading"
        case .failed(let error): "failed (\(error.message))"
        }
        let (timing, message) = lock.withLock { (lastFeedFetch, messageText) }
        return StatusLine(
            contentState: model.multi.contentState.value.description,
            page: pagination.info.page,
            numberOfPages: pagination.info.numberOfPages,
            totalResults: pagination.info.totalCount,
            shownResults: model.feed.snapshot.numberOfObjects(inSection: 0),
            nextPage: nextPage,
            lastFetchMilliseconds: timing.map { Int($0.components.seconds * 1_000 + $0.components.attoseconds / 1_000_000_000_000_000) },
            message: message
        )
    }

    /// The frame to draw.
    func frame(width: Int, spinnerFrame: Int, maxRowsPerSection: Int = 8) -> [String] {
        TableRenderer(width: width, maxRowsPerSection: maxRowsPerSection).render(
            model.multi.snapshot,
            cursor: cursor,
            selected: Set(model.selection.selectedIndexPaths),
            spinnerFrame: spinnerFrame,
            status: statusLine()
        )
    }
}
