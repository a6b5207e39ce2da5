import Synchronization

/// The timing state of one debounced or throttled observation: the value waiting to be
/// emitted, the one timer task sleeping on the clock, and when the last value went out.
///
/// `receive` may be called from any thread; `emit` is called with no lock held, either on
/// the receiving thread (a throttle's leading value) or on the timer's task. `cancel()` drops
/// the pending value and cancels the timer; nothing is emitted after it returns, except an
/// `emit` call another thread had already started.
final class TimerGate<Value: Sendable, C: Clock>: Sendable {
    enum Mode: Sendable {
        /// Emit a value once `interval` has passed without a newer one.
        case debounce
        /// Emit at most one value per `interval`: the first at once, then, at the end of the
        /// window, the latest (or the first) value received during it.
        case throttle(latest: Bool)
    }

    private struct State {
        var pending: Value?
        var timer: Task<Void, Never>?
        /// Which timer is current: a timer that wakes with an older number emits nothing.
        var generation: UInt64 = 0
        var lastEmission: C.Instant?
        var isCancelled = false
    }

    private let state = Mutex(State())
    private let interval: C.Duration
    private let clock: C
    private let mode: Mode
    private let emit: @Sendable (Value) -> Void

    init(interval: C.Duration, clock: C, mode: Mode, emit: @escaping @Sendable (Value) -> Void) {
        self.interval = interval
        self.clock = clock
        self.mode = mode
        self.emit = emit
    }

    /// Takes a new upstream value. O(1) plus the start of at most one task.
    func receive(_ value: Value) {
        switch mode {
        case .debounce:
            let replaced = state.withLock { state -> Task<Void, Never>? in
                guard !state.isCancelled else { return nil }
                state.pending = value
                let replaced = state.timer
                state.timer = startTimer(until: clock.now.advanced(by: interval), in: &state)
                return replaced
            }
            replaced?.cancel()
        case .throttle(let latest):
            let now = clock.now
            let emitNow = state.withLock { state -> Bool in
                guard !state.isCancelled else { return false }
                if state.timer == nil, state.lastEmission.map({ $0.duration(to: now) >= interval }) ?? true {
                    state.lastEmission = now
                    return true
                }
                if latest || state.pending == nil { state.pending = value }
                if state.timer == nil, let last = state.lastEmission {
                    state.timer = startTimer(until: last.advanced(by: interval), in: &state)
                }
                return false
            }
            if emitNow { emit(value) }
        }
    }

    /// Stops the gate: the pending value is dropped and the timer cancelled.
    func cancel() {
        let timer = state.withLock { state -> Task<Void, Never>? in
            state.isCancelled = true
            state.pending = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// Starts the task that emits the pending value at `deadline`. Caller holds the lock.
    private func startTimer(until deadline: C.Instant, in state: inout State) -> Task<Void, Never> {
        state.generation &+= 1
        let generation = state.generation
        return Task { [self] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            fire(generation)
        }
    }

    private func fire(_ generation: UInt64) {
        let now = clock.now
        let value = state.withLock { state -> Value? in
            guard state.generation == generation, !state.isCancelled else { return nil }
            state.timer = nil
            defer { state.pending = nil }
            if state.pending != nil { state.lastEmission = now }
            return state.pending
        }
        if let value { emit(value) }
    }
}
