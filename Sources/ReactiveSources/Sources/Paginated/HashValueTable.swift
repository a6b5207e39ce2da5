/// A set of `Element`s for code that runs unspecialised (generic over the client's type):
/// an open-addressing table that stores each element next to its hash value.
///
/// A `Set<Element>` (or a `Dictionary` with `Element` values) in unspecialised code pays a
/// runtime metadata lookup and a generic call per operation, and rehashes every element when
/// it grows; for a page of structs with string fields that was most of a
/// ``PaginatedDataSource``'s cost per page. Here an element is hashed once, probing compares
/// stored `Int`s, growing moves elements without hashing them again, and only a hash match
/// calls `==`. Elements are copied, moved and destroyed through their value witnesses; no
/// generic type is instantiated per call.
///
/// Linear probing at a load factor of at most 3/4; removal shifts the following entries back
/// (no tombstones). Unequal elements with equal hash values are all kept. Complexity: O(1)
/// expected per operation, amortised over growth.
final class HashValueTable<Element: Hashable> {
    /// Per slot: 0 when empty, else the element's hash value with the top bit set.
    private var tags: UnsafeMutablePointer<UInt>
    private var elements: UnsafeMutablePointer<Element>
    /// The number of slots, a power of two.
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 16
        tags = .allocate(capacity: capacity)
        tags.initialize(repeating: 0, count: capacity)
        elements = .allocate(capacity: capacity)
    }

    deinit {
        removeAll()
        tags.deallocate()
        elements.deallocate()
    }

    private static func tag(of element: Element) -> UInt {
        UInt(bitPattern: element.hashValue) | (1 << (UInt.bitWidth - 1))
    }

    /// Adds `element`; returns whether no equal element was there.
    func insert(_ element: Element) -> Bool {
        let tag = Self.tag(of: element)
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: tag) & mask
        while tags[slot] != 0 {
            if tags[slot] == tag && elements[slot] == element { return false }
            slot = (slot + 1) & mask
        }
        if (count + 1) * 4 > capacity * 3 {
            grow()
            place(tag, element)
        } else {
            tags[slot] = tag
            (elements + slot).initialize(to: element)
        }
        count += 1
        return true
    }

    /// Removes the element equal to `element`, if any.
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

    /// Removes every element (keeping the capacity).
    func removeAll() {
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

    /// Puts an element known to be absent into the first free slot of its probe sequence.
    private func place(_ tag: UInt, _ element: consuming Element) {
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: tag) & mask
        while tags[slot] != 0 { slot = (slot + 1) & mask }
        tags[slot] = tag
        (elements + slot).initialize(to: element)
    }

    /// Doubles the capacity, moving every entry (their stored hash values place them).
    private func grow() {
        let oldTags = tags, oldElements = elements, oldCapacity = capacity
        capacity *= 2
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
