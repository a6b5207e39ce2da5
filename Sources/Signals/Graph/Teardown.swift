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

    /// Moves a dying node's dependency list out and releases its storage likewise.
    static func release(taking dependencies: inout DependencyList) {
        let state = TeardownState.current
        state.adopt(&dependencies, leaving: DependencyList())
        state.drainUnlessDraining()
    }
}

/// One thread's teardown list.
final class TeardownState {
    @exclusivity(unchecked) var pending: [Any] = []
    @exclusivity(unchecked) var isDraining = false

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
