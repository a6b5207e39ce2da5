import Foundation

/// How long each section's fetches take, measured around the fetcher or transport call
/// itself, so the figures do not depend on when load events reach observers.
///
/// Thread-safe.
final class FetchTimings: @unchecked Sendable {
    /// One section's figures, as the status line shows them.
    struct Entry: Equatable, Sendable {
        /// The section's name.
        let name: String
        /// How long the last fetch that ended took, in milliseconds; `nil` before any ended.
        var lastMilliseconds: Int?
        /// How many fetches are running now.
        var running = 0
    }

    /// Guards `table`.
    private let lock = NSLock()
    /// The figures, in display order.
    private var table: [Entry]
    /// The clock fetches are timed with.
    private let clock = ContinuousClock()

    /// Creates empty timings for `names`, listed in that order.
    init(names: [String]) {
        table = names.map { Entry(name: $0) }
    }

    /// The figures of every section, in the order given at creation.
    var entries: [Entry] { lock.withLock { table } }

    /// Runs `body` as one fetch of `name`, whether it returns or throws. A fetch that was
    /// cancelled (its task is, or it threw `CancellationError`) is not recorded as the last
    /// fetch's time: it did not run to its end.
    func measure<Result>(_ name: String, _ body: () async throws -> Result) async rethrows -> Result {
        let start = clock.now
        update(name) { $0.running += 1 }
        do {
            let result = try await body()
            finish(name, since: start, cancelled: Task.isCancelled)
            return result
        } catch {
            finish(name, since: start, cancelled: Task.isCancelled || error is CancellationError)
            throw error
        }
    }

    /// Ends one fetch of `name` started at `start`, recording its time unless `cancelled`.
    private func finish(_ name: String, since start: ContinuousClock.Instant, cancelled: Bool) {
        let elapsed = clock.now - start
        update(name) {
            $0.running -= 1
            if !cancelled { $0.lastMilliseconds = Int((elapsed / .milliseconds(1)).rounded()) }
        }
    }

    /// Applies `change` to `name`'s entry, adding the entry at the end if it is new.
    private func update(_ name: String, _ change: (inout Entry) -> Void) {
        lock.withLock {
            if let index = table.firstIndex(where: { $0.name == name }) {
                change(&table[index])
            } else {
                var entry = Entry(name: name)
                change(&entry)
                table.append(entry)
            }
        }
    }
}
