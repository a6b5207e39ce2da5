#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The graph's recursive lock: a plain pthread mutex plus the owning thread and a hold
/// count, so that a thread that already holds it (a derived closure reading other
/// properties, a `modify` body) re-enters with one atomic load and no mutex call.
///
/// `owner` is only ever set to a thread's own identifier by that thread, and cleared by it
/// before it releases the mutex, so a relaxed load that sees the caller's identifier proves
/// the caller holds the lock; any other value proves it does not.
@usableFromInline
final class GraphLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let owner = Atomic<UInt>(0)
    /// How many times the owning thread holds the lock. Only the owner reads or writes it.
    @usableFromInline @exclusivity(unchecked) var depth = 0

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always) func lock() {
        let me = currentThreadID()
        if owner.load(ordering: .relaxed) != me {
            pthread_mutex_lock(mutex)
            owner.store(me, ordering: .relaxed)
        }
        depth += 1
    }

    @inlinable @inline(__always) func unlock() {
        depth -= 1
        if depth == 0 {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
    }
}

/// A non-zero identifier of the calling thread.
@inlinable @inline(__always) func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A plain (non-recursive) mutex for small pieces of state outside the graph.
final class PlainLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
