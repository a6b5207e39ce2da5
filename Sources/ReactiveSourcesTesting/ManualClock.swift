import Foundation

/// A `Clock` whose time moves only when a test says so: ``advance(by:)`` and
/// ``advance(to:)`` wake the sleepers whose deadline has come, in deadline order.
///
/// Use it wherever the library takes a clock (retry back-off), then wait for the code under
/// test to sleep (``waitForSleepers(_:)``) and advance. A sleep whose task is cancelled
/// throws `CancellationError` at once; a sleep until a deadline already reached returns at
/// once. Thread-safe; each operation is O(sleepers).
public final class ManualClock: Clock, @unchecked Sendable {
    /// A point in the clock's virtual time: the time elapsed since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The virtual time since the clock's start.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later (earlier if negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Orders instants by their offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, as `Duration` prints it.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant()
    private var sleepers: [UInt64: Sleeper] = [:]
    /// Tasks waiting for a number of sleepers (at least `count`, or none).
    private var watchers: [(wants: SleeperCount, continuation: CheckedContinuation<Void, Never>)] = []

    private enum SleeperCount {
        case atLeast(Int)
        case none

        func holds(for count: Int) -> Bool {
            switch self {
            case .atLeast(let wanted): count >= wanted
            case .none: count == 0
            }
        }
    }
    private var nextID: UInt64 = 0

    /// Creates a clock at the instant zero.
    public init() {}

    /// The current virtual time.
    public var now: Instant { lock.withLock { current } }

    /// The clock's resolution: any duration is kept exactly.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Suspends until the clock reaches `deadline` (the tolerance is ignored). Throws
    /// `CancellationError` as soon as the calling task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: UInt64 = lock.withLock {
            nextID &+= 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, watchersDue): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= current { return (.success(()), []) }
                    sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, takeDueWatchers())
                }
                for watcher in watchersDue { watcher.resume() }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let (sleeper, watchersDue) = lock.withLock { (sleepers.removeValue(forKey: id), takeDueWatchers()) }
            for watcher in watchersDue { watcher.resume() }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` (a negative duration is ignored) and wakes the
    /// sleepers whose deadline is reached, earliest first.
    public func advance(by duration: Duration = .zero) {
        let target = lock.withLock { current.advanced(by: max(.zero, duration)) }
        advance(to: target)
    }

    /// Moves the clock to `instant` (an instant in the past is ignored) and wakes the
    /// sleepers whose deadline is reached, earliest first.
    public func advance(to instant: Instant) {
        let (due, watchersDue): ([Sleeper], [CheckedContinuation<Void, Never>]) = lock.withLock {
            if instant > current { current = instant }
            let reached = sleepers.filter { $0.value.deadline <= current }
            for id in reached.keys { sleepers[id] = nil }
            return (reached.values.sorted { $0.deadline < $1.deadline }, takeDueWatchers())
        }
        for watcher in watchersDue { watcher.resume() }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until at least `count` tasks are sleeping on this clock (returns at once if
    /// they are, or if the calling task is already cancelled). Use a test time limit to
    /// bound the wait.
    public func waitForSleepers(_ count: Int = 1) async {
        await waitForSleepers(.atLeast(count))
    }

    /// Waits until no task is sleeping on this clock (returns at once if none is, or if the
    /// calling task is already cancelled): for instance until a cancelled sleep has ended.
    public func waitForNoSleepers() async {
        await waitForSleepers(.none)
    }

    private func waitForSleepers(_ wanted: SleeperCount) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock {
                if wanted.holds(for: sleepers.count) || Task.isCancelled { return true }
                watchers.append((wanted, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Removes and returns the watchers whose count is reached. Caller holds the lock.
    private func takeDueWatchers() -> [CheckedContinuation<Void, Never>] {
        let count = sleepers.count
        var due: [CheckedContinuation<Void, Never>] = []
        watchers.removeAll { watcher in
            guard watcher.wants.holds(for: count) else { return false }
            due.append(watcher.continuation)
            return true
        }
        return due
    }
}
