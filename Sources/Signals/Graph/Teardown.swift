#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Releases what dying nodes own in a loop, so that dropping the last reference to a chain
/// of any length uses constant stack.
///
/// A node's deinitialiser hands its dependencies and closure to ``release(_:)``. On a thread
/// that is not releasing yet, that starts a loop which drops them one at a time; a node that
/// dies inside the loop hands its own parts to the same thread's list and returns, so the
/// depth stays at one node's deinitialiser whatever the chain's length. Thread-local: it
/// needs no lock, and deinitialisers run on whichever thread drops the last reference.
enum Teardown {
    /// Moves `value` out of a dying node (leaving `empty` in its place) and releases it now,
    /// or after the parts being released on this thread.
    static func release<Part>(taking value: inout Part, leaving empty: Part) {
        let state = TeardownState.current
        state.adopt(&value, leaving: empty)
        state.drainUnlessDraining()
    }

    /// Releases a dying node's constant `part` (a closure in a `let`, which the node cannot
    /// move out) after the node's own reference to it: keeps a copy in this thread's list
    /// and, unless this thread is draining already, has the node's `trigger` drain it. The
    /// node declares `trigger` after `part`, so `part`'s field is released first (the copy
    /// keeps it alive) and the last release happens in the drain, not in a recursion down a
    /// chain. Call once from the node's `deinit`.
    static func release<Part>(_ part: Part, after trigger: borrowing TeardownTrigger) {
        let state = TeardownState.current
        state.pending.append(part)
        state.triggers &+= 1
        if !state.isDraining {
            state.isDraining = true
            state.drainingTrigger = state.triggers
        }
    }

    /// Moves a dying node's dependency list out and releases its storage likewise.
    static func release(taking dependencies: inout DependencyList) {
        let state = TeardownState.current
        state.adopt(&dependencies, leaving: DependencyList())
        state.drainUnlessDraining()
    }
}

/// Drains the thread's teardown list when it is destroyed, if ``Teardown/release(_:after:)``
/// found the thread not draining. Stored properties are destroyed in declaration order,
/// after every `deinit` body: a node declares its trigger after the constant it hands to the
/// list. Empty (it adds no byte to a node): the thread's state counts the triggers pending,
/// which nest as the nodes' destructions do, and knows which one drains.
struct TeardownTrigger: ~Copyable {
    init() {}

    deinit {
        let state = TeardownState.current
        let trigger = state.triggers
        state.triggers &-= 1
        if trigger == state.drainingTrigger {
            state.drainingTrigger = 0
            state.drain()
        }
    }
}

/// One thread's teardown list.
final class TeardownState {
    @exclusivity(unchecked) var pending: [Any] = []
    @exclusivity(unchecked) var isDraining = false
    /// How many ``TeardownTrigger``s are pending (released nodes whose fields are being
    /// destroyed), and the number of the one that drains (0 if none).
    @exclusivity(unchecked) var triggers = 0
    @exclusivity(unchecked) var drainingTrigger = 0

    /// Separate from the drain so that no local copy of `value` outlives this call.
    func adopt<Part>(_ value: inout Part, leaving empty: Part) {
        pending.append(value)
        value = empty
    }

    private func takeLast() -> Any? {
        pending.popLast()
    }

    @inline(never) private func drop(_ part: consuming Any) {
        _ = consume part
    }

    func drainUnlessDraining() {
        if isDraining { return }
        isDraining = true
        drain()
    }

    /// Drops the parts until none is left (those their release adds too), then marks the
    /// thread as not draining. Caller set ``isDraining``.
    func drain() {
        while let part = takeLast() {
            // Dropped here, outside any access to `pending`: may run deinitialisers that
            // append to it.
            drop(part)
        }
        isDraining = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<TeardownState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<TeardownState>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()

    /// This thread's state, made on first use and released when the thread exits.
    static var current: TeardownState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<TeardownState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = TeardownState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}
