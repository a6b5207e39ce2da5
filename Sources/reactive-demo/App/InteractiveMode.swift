import Foundation
import ReactiveSources
import Signals

/// The terminal run: draws the table on the alternate screen and redraws it whenever a
/// source changes (and while spinners spin), reading keys until `q`.
struct InteractiveMode {
    /// The state drawn and the keys' handler.
    let controller: DemoController

    /// Runs until `q` (or end of input) and returns the exit status.
    func run() -> Int32 {
        let model = controller.model
        let redraw = RedrawFlag()
        var subscriptions: [SignalSubscription] = []
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
        var drawnSize = (width: 0, height: 0)
        while quit.wait(timeout: .now() + .milliseconds(80)) == .timedOut {
            spinnerFrame += 1
            let size = Terminal.size
            let resized = size != drawnSize
            let spinning = model.multi.loadState.value.isFetching || model.feed.pagination.value.isLoadingNextPage
            let signalled = TerminalRestorer.takeRedrawRequest()
            guard redraw.take() || spinning || resized || signalled else { continue }
            drawnSize = size
            Terminal.draw(controller.screen(size: size, spinnerFrame: spinnerFrame), width: size.width, clearing: resized || signalled)
        }
        return 0
    }
}

/// Set by observers, taken by the drawing loop.
final class RedrawFlag: @unchecked Sendable {
    /// Guards `isSet`.
    private let lock = NSLock()
    /// Whether a redraw is pending (the first frame is).
    private var isSet = true

    /// Asks for a redraw.
    func set() { lock.withLock { isSet = true } }

    /// Whether a redraw was asked for since the last call.
    func take() -> Bool {
        lock.withLock {
            defer { isSet = false }
            return isSet
        }
    }
}
