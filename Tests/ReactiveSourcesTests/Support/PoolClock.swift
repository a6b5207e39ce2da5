import Foundation

/// A clock for hang guards that advances only while the cooperative pool runs jobs.
///
/// Tests wait for events; a hang guard ends a wait that never comes true, so a broken library
/// fails its test instead of hanging the run. Measured on the wall clock, such a guard also
/// fires when nothing is broken: the whole suite runs in parallel on a pool of one thread per
/// core (two on CI), and on a loaded machine, or under a sanitizer, the task a wait depends on
/// can stay queued behind other suites' work for minutes. This clock counts only time in
/// which the pool was serving jobs: every `tick` seconds a probe job is queued (one at a time)
/// and the clock advances by one tick when the pool runs it. A probe queued after the task
/// being waited for runs after it (the pool serves jobs of one priority in order), so while
/// the pool is starved the guard stands still.
final class PoolClock: @unchecked Sendable {
    static let shared = PoolClock()

    /// Seconds between probes, and what each served probe adds.
    static let tick: TimeInterval = 0.1

    private let lock = NSLock()
    private var ticks: UInt64 = 0
    private var probing = false
    private var timer: (any DispatchSourceTimer)?

    private init() {
        // A serial queue of its own (not the global queue, whose threads are the pool's).
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "PoolClock"))
        timer.schedule(deadline: .now() + Self.tick, repeating: Self.tick)
        timer.setEventHandler { [weak self] in self?.probe() }
        timer.resume()
        self.timer = timer
    }

    /// Seconds of pool time since the process started using the clock.
    var now: TimeInterval { lock.withLock { Double(ticks) * Self.tick } }

    private func probe() {
        let start = lock.withLock {
            if probing { return false }
            probing = true
            return true
        }
        guard start else { return }
        Task.detached { [self] in
            lock.withLock {
                ticks += 1
                probing = false
            }
        }
    }
}

/// A hang guard: expired once `limit` seconds of pool time (see ``PoolClock``) have passed
/// since it was made.
struct HangGuard: Sendable {
    let limit: TimeInterval
    private let start: TimeInterval

    init(_ limit: TimeInterval) {
        self.limit = limit
        start = PoolClock.shared.now
    }

    var hasExpired: Bool { PoolClock.shared.now - start >= limit }
}
