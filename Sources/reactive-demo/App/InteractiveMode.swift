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
            guard redraw.take() || spinning || resized else { continue }
            drawnSize = size
            Terminal.draw(frame(size: size, spinnerFrame: spinnerFrame))
        }
        return 0
    }
}

extension InteractiveMode {
    /// The key reminder under the table.
    static let keyHelp = "n next page · r refresh · c cancel · e fail next fetch · ↑/↓ move · space select · q quit"

    /// The frame for a terminal of `size`: the table with its rows fitted to the height,
    /// then the key reminder, cut to the width and the height.
    func frame(size: (width: Int, height: Int), spinnerFrame: Int) -> [String] {
        let sections = controller.model.multi.snapshot.numberOfSections
        // Title, rule, three status lines, a blank line and the key reminder take seven
        // lines; each section its title line.
        let budget = max(0, size.height - 7 - sections)
        let help = Self.keyHelp.count <= size.width ? Self.keyHelp : String(Self.keyHelp.prefix(max(0, size.width - 1))) + "…"
        let lines = controller.frame(width: size.width, spinnerFrame: spinnerFrame, rowBudget: budget) + ["", help]
        return Array(lines.prefix(size.height))
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
