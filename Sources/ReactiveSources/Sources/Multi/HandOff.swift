/// A value handed from one owner to the next exactly once: after ``take()`` the box no
/// longer holds it.
///
/// The Multi composer puts a child's snapshot update in one, inside the derived value that
/// pairs it with the load state: once the composer has taken it, that cached value no longer
/// shares the child's object storage, and the child's next append does not copy its array.
///
/// Threading: a box is filled when created and taken at most once, by one thread, after a
/// lock handed the box over (the graph's, for the composer); it does no locking of its own.
/// The value lives in a one-element buffer rather than an optional: unspecialised code pays
/// a runtime metadata lookup for every `Optional<Value>`.
@usableFromInline
final class HandOff<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    /// Whether the value was taken. Set only by ``take()`` (settable module-wide only so that
    /// `take()` can be inlinable); `deinit` relies on it.
    @usableFromInline var isTaken = false

    @usableFromInline
    init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        if !isTaken { storage.deinitialize(count: 1) }
        storage.deallocate()
    }

    /// The value, moved out. Precondition: not taken yet.
    @inlinable
    func take() -> Value {
        precondition(!isTaken, "HandOff: value taken twice")
        isTaken = true
        return storage.move()
    }
}
