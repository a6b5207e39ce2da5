/// A set of `Element`s: an open-addressing table that stores each element next to its hash
/// value, so an element is hashed once, probing compares stored `Int`s, growing moves
/// elements without hashing them again, and only a hash match calls `==`.
///
/// `insert` is inlinable, so the duplicate check of a ``PaginatedDataSource`` is compiled
/// for the client's object type (see ``SeenIdentities``). Even unspecialised it instantiates
/// no generic type per call (elements go through their value witnesses), where a
/// `Set<Element>` in unspecialised code paid a runtime metadata lookup per operation and
/// rehashed every element when it grew: most of the source's cost per page.
///
/// Linear probing at a load factor of at most 3/4; removal shifts the following entries back
/// (no tombstones). Unequal elements with equal hash values are all kept. Complexity: O(1)
/// expected per operation, amortised over growth.
@usableFromInline
final class HashValueTable<Element: Hashable> {
    /// Per slot: 0 when empty, else the element's hash value with the top bit set.
    @usableFromInline var tags: UnsafeMutablePointer<UInt>
    @usableFromInline var elements: UnsafeMutablePointer<Element>
    /// The number of slots, a power of two.
    @usableFromInline var capacity: Int
    /// The number of elements.
    @usableFromInline var count = 0

    @usableFromInline
    init() {
        capacity = 16
        tags = .allocate(capacity: capacity)
        tags.initialize(repeating: 0, count: capacity)
        elements = .allocate(capacity: capacity)
    }

    deinit {
        destroyElements()
        tags.deallocate()
        elements.deallocate()
    }

    @inlinable
    static func tag(of element: Element) -> UInt {
        UInt(bitPattern: element.hashValue) | (1 << (UInt.bitWidth - 1))
    }

    /// Adds `element`; returns whether no equal element was there.
    @inlinable
    func insert(_ element: Element) -> Bool {
        let tag = Self.tag(of: element)
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: tag) & mask
        while tags[slot] != 0 {
            if tags[slot] == tag && elements[slot] == element { return false }
            slot = (slot + 1) & mask
        }
        if (count + 1) * 4 > capacity * 3 {
            grow(to: capacity * 2)
            place(tag, element)
        } else {
            tags[slot] = tag
            (elements + slot).initialize(to: element)
        }
        count += 1
        return true
    }

    /// Removes the element equal to `element`, if any.
    @usableFromInline
    func remove(_ element: Element) {
        let tag = Self.tag(of: element)
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: tag) & mask
        while tags[slot] != 0 {
            if tags[slot] == tag && elements[slot] == element {
                (elements + slot).deinitialize(count: 1)
                count -= 1
                closeGap(at: slot)
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// Removes every element and goes back to the initial capacity (as `Set.removeAll()`
    /// does), so a refresh after a long list does not keep walking a large table.
    @usableFromInline
    func removeAll() {
        destroyElements()
        guard capacity > 16 else { return }
        tags.deallocate()
        elements.deallocate()
        capacity = 16
        tags = .allocate(capacity: capacity)
        tags.initialize(repeating: 0, count: capacity)
        elements = .allocate(capacity: capacity)
    }

    /// Deinitialises every element and marks every slot empty.
    private func destroyElements() {
        for slot in 0..<capacity where tags[slot] != 0 {
            (elements + slot).deinitialize(count: 1)
            tags[slot] = 0
        }
        count = 0
    }

    /// Empties `gap` by moving back each following entry whose probe sequence passes it.
    private func closeGap(at gap: Int) {
        let mask = capacity - 1
        var gap = gap
        var slot = (gap + 1) & mask
        while tags[slot] != 0 {
            let home = Int(truncatingIfNeeded: tags[slot]) & mask
            // The entry may move to `gap` if `gap` lies cyclically in [home, slot).
            if (slot - home) & mask >= (slot - gap) & mask {
                tags[gap] = tags[slot]
                (elements + gap).moveInitialize(from: elements + slot, count: 1)
                gap = slot
            }
            slot = (slot + 1) & mask
        }
        tags[gap] = 0
    }

    /// Makes room for `additional` more elements, so inserting them grows the table at most
    /// once (here) rather than once per doubling. Complexity: O(capacity) when it grows.
    @inlinable
    func reserve(_ additional: Int) {
        let needed = count + max(0, additional)
        guard needed * 4 > capacity * 3 else { return }
        var newCapacity = capacity * 2
        while needed * 4 > newCapacity * 3 { newCapacity *= 2 }
        grow(to: newCapacity)
    }

    /// Puts an element known to be absent into the first free slot of its probe sequence.
    @inlinable
    func place(_ tag: UInt, _ element: consuming Element) {
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: tag) & mask
        while tags[slot] != 0 { slot = (slot + 1) & mask }
        tags[slot] = tag
        (elements + slot).initialize(to: element)
    }

    /// Moves every entry to a table of `newCapacity` slots (a larger power of two); their
    /// stored hash values place them, nothing is hashed again. Inlinable, so the moves are
    /// compiled for `Element`.
    @inlinable
    func grow(to newCapacity: Int) {
        let oldTags = tags, oldElements = elements, oldCapacity = capacity
        capacity = newCapacity
        tags = .allocate(capacity: capacity)
        tags.initialize(repeating: 0, count: capacity)
        elements = .allocate(capacity: capacity)
        let mask = capacity - 1
        for old in 0..<oldCapacity where oldTags[old] != 0 {
            var slot = Int(truncatingIfNeeded: oldTags[old]) & mask
            while tags[slot] != 0 { slot = (slot + 1) & mask }
            tags[slot] = oldTags[old]
            (elements + slot).moveInitialize(from: oldElements + old, count: 1)
        }
        oldTags.deallocate()
        oldElements.deallocate()
    }
}
