import Foundation
import ReactiveSources
import Signals

/// The terminal run: draws the table on the alternate screen and redraws it whenever a
/// source changes (and while spinners spin), reading keys until `q`.
struct InteractiveMode {
    let controller: DemoController

    func run() -> Int32 {
        let model = controller.model
        let redraw = RedrawFlag()
        var subscriptions: [Subscription] = []
        subscriptions.append(model.multi.updates.observe { _ in redraw.set() })
        subscriptions.append(model.multi.loadState.observe { _ in redraw.set() })
        subscriptions.append(model.feed.pagination.observe { _ in redraw.set() })
        subscriptions.append(model.selection.selection.observe { _ in redraw.set() })
        defer { subscriptions.forEach { $0.cancel() } }

        Terminal.take()
        defer { Terminal.release() }
        let quit = DispatchSemaphore(value: 0)
        Thread {
            Key.readForever { key in
                if !controller.handle(key) { quit.signal() }
                redraw.set()
            }
        }.start()
        model.start()

        var spinnerFrame = 0
        while quit.wait(timeout: .now() + .milliseconds(80)) == .timedOut {
            spinnerFrame += 1
            let spinning = model.multi.loadState.value.isFetching || model.feed.pagination.value.isLoadingNextPage
            guard redraw.take() || spinning else { continue }
            let rows = max(3, (Terminal.height - 4) / max(1, model.multi.snapshot.numberOfSections) - 2)
            Terminal.draw(controller.frame(width: Terminal.width, spinnerFrame: spinnerFrame, maxRowsPerSection: rows) + [
                "", "n next page · r refresh · c cancel · e fail next fetch · ↑/↓ move · space select · q quit",
            ])
        }
        return 0
    }
}

/// Set by observers, taken by the drawing loop.
final class RedrawFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = true

    func set() { lock.withLock { isSet = true } }

    func take() -> Bool {
        lock.withLock {
            defer { isSet = false }
            return isSet
        }
    }
}
