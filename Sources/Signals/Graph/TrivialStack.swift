/// A growable stack of trivial values in one buffer it owns: a push or pop is a bounds check
/// and a store, with no copy-on-write uniqueness check and no reference counting (an array
/// stored in a class pays both on every mutation). Used for the graph's per-thread work
/// stacks, which change several times per node update.
///
/// O(1) amortised push and pop. Not thread-safe: owned by one thread's ``Graph`` (other
/// threads read a waiting thread's stacks only under ``Suspensions``' mutex, while the owner
/// is blocked). Indices out of range are a precondition failure in debug builds. A copy
/// shares the buffer: the owner keeps one and frees it with ``deallocate()``.
@usableFromInline
struct TrivialStack<Element: BitwiseCopyable> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func deallocate() {
        base.deallocate()
    }

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable var indices: Range<Int> { 0..<count }

    @inlinable @inline(__always) mutating func append(_ element: Element) {
        if _slowPath(count == capacity) { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @usableFromInline mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// The last element, in place (one field of it can be written alone). Not empty.
    @inlinable var lastPointer: UnsafeMutablePointer<Element> {
        @inline(__always) get {
            assert(count > 0, "last of an empty stack")
            return base + (count &- 1)
        }
    }

    @inlinable @inline(__always) @discardableResult mutating func removeLast() -> Element {
        assert(count > 0, "removeLast on an empty stack")
        count &-= 1
        return base[count]
    }

    @inlinable @inline(__always) mutating func popLast() -> Element? {
        count > 0 ? removeLast() : nil
    }

    /// Drops the elements from `start` on.
    @inlinable @inline(__always) mutating func removeSuffix(from start: Int) {
        assert(start >= 0 && start <= count, "index out of range")
        count = start
    }

    @inlinable @inline(__always) subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "index out of range")
            return base[index]
        }
        nonmutating set {
            assert(index >= 0 && index < count, "index out of range")
            base[index] = newValue
        }
    }

    @inlinable mutating func swapAt(_ i: Int, _ j: Int) {
        let element = base[i]
        base[i] = base[j]
        base[j] = element
    }

    /// The elements from `start` on (valid until the next push).
    @inlinable func buffer(from start: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base + start, count: count - start)
    }

    @inlinable func contains(where predicate: (Element) -> Bool) -> Bool {
        for index in 0..<count where predicate(base[index]) { return true }
        return false
    }
}
