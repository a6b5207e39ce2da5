/// The identities of the objects a ``PaginatedDataSource`` shows, for dropping duplicates:
/// an open-addressing table whose slot holds an identity's hash value and the position of
/// its object in the shown objects, not a copy of the object or identity.
///
/// A probe reads one control byte per slot it passes (seven bits of the hash value, or 0 for
/// an empty slot); the 16-byte slot itself is read only when those bits match (a duplicate,
/// or one probe in 128). The control bytes stay in cache between pages where the slots do
/// not (measurements in Benchmarks/BENCHMARKS.md, "HTTP"). Adding a page writes one control byte and one slot per new object. An identity is hashed once
/// per received object, in place; only a full hash match compares two objects' identities.
///
/// Positions count objects appended since the last ``removeAll()``; ``dropFirst(_:of:hash:)``
/// moves the base when the oldest objects go. The caller passes the shown objects as they
/// stand to every call, and appends what ``insertNew(_:after:hash:same:)`` returns. The generic
/// methods are inlinable, so the source's checks are compiled for the client's object type
/// (see ``SeenIdentities``).
///
/// Linear probing at a load factor of at most 3/4; removal shifts the following slots back
/// (no tombstones). Complexity: O(1) expected per object, amortised over growth.
@usableFromInline
final class IdentityTable {
    /// A used slot: `tag` is the identity's hash value with the top bit set.
    @usableFromInline
    struct Slot {
        @usableFromInline var tag: UInt
        @usableFromInline var position: Int

        @inlinable
        init(tag: UInt, position: Int) {
            self.tag = tag
            self.position = position
        }
    }

    /// One byte per slot: 0 when the slot is empty, otherwise ``control(_:)`` of its tag.
    @usableFromInline var controls: UnsafeMutablePointer<UInt8>
    /// The slots; a slot's contents mean something only where its control byte is not 0
    /// (the others are uninitialised memory, never read).
    @usableFromInline var slots: UnsafeMutablePointer<Slot>
    /// The number of slots, a power of two.
    @usableFromInline var capacity: Int
    /// The number of identities (one per shown object).
    @usableFromInline var count = 0
    /// The position of the first shown object.
    @usableFromInline var base = 0
    /// A hasher as `Hasher()` makes it, copied for each identity (cheaper than seeding one).
    @usableFromInline let seeded = Hasher()
    /// Room for one tag per object of a page, kept between pages.
    @usableFromInline var scratchTags: UnsafeMutablePointer<UInt>
    @usableFromInline var scratchCapacity = 64

    @usableFromInline
    init() {
        capacity = 16
        controls = .allocate(capacity: capacity)
        controls.initialize(repeating: 0, count: capacity)
        slots = .allocate(capacity: capacity)
        scratchTags = .allocate(capacity: scratchCapacity)
    }

    deinit {
        controls.deallocate()
        slots.deallocate()
        scratchTags.deallocate()
    }

    /// Room for `count` tags (the previous contents are not kept).
    @inlinable
    func scratch(_ count: Int) -> UnsafeMutablePointer<UInt> {
        if count > scratchCapacity {
            scratchTags.deallocate()
            scratchCapacity = count
            scratchTags = .allocate(capacity: count)
        }
        return scratchTags
    }

    /// The tag of an identity whose hash value is `hash`.
    @inlinable
    static func tag(hash: Int) -> UInt {
        UInt(bitPattern: hash) | (1 << (UInt.bitWidth - 1))
    }

    /// The control byte of a slot holding `tag`: its top byte, never 0 (the top bit is set),
    /// and independent of the low bits that choose the slot.
    @inlinable
    static func control(_ tag: UInt) -> UInt8 {
        UInt8(truncatingIfNeeded: tag >> (UInt.bitWidth - 8))
    }

    /// The objects of `objects` whose identity is neither in `shown` nor earlier in
    /// `objects` (the first of repeats is kept), in order; records them at the positions
    /// they will have once appended to `shown`. `hash` feeds an object's identity to a hasher
    /// (a copy of ``seeded``, finalised here) and `same` tells whether two objects have the
    /// same identity; both take the objects where they are stored (no copy is made to hash
    /// one). `same` runs only on a hash match, so an identity derived from the object is
    /// derived again there. Neither may call back into this table (it works on its slots
    /// without re-reading them).
    ///
    /// A hash match whose recorded position is not in `shown` or the new objects (left by
    /// an identity whose hash changed since it was recorded) counts as no match.
    ///
    /// When nothing repeats (the usual page) the result is `objects` itself, not a copy: the
    /// new objects are a prefix of `objects` until the first repeat, and a separate array is
    /// made only then. Hashes every object before probing (one word of scratch per object,
    /// kept between pages). The table is usually out of cache when a page arrives; probing
    /// after hashing lets the probes' cache misses overlap (a 50-object page over loopback
    /// HTTP: 6-7 µs, was 9). Copying a seeded hasher instead of seeding one per object saves
    /// a sixth of the check's instructions.
    @inlinable @inline(__always)
    func insertNew<Object>(
        _ objects: [Object], after shown: Slice<RowStorage<Object>>, hash: (inout Hasher, Object) -> Void, same: (Object, Object) -> Bool
    ) -> [Object] {
        reserve(objects.count)
        // Locals, not the stored properties, inside the loop: no exclusivity check per object
        // around the calls to `hash` and `same`.
        let controls = self.controls, slots = self.slots, mask = capacity - 1, base = self.base, firstNew = base + shown.count
        let tags = scratch(objects.count), seeded = self.seeded
        var fresh: [Object]?
        var freshCount = 0
        objects.withUnsafeBufferPointer { objects in
            for offset in objects.indices {
                var hasher = seeded
                hash(&hasher, objects[offset])
                tags[offset] = Self.tag(hash: hasher.finalize())
            }
        }
        candidates: for offset in objects.indices {
            let tag = tags[offset], control = Self.control(tag)
            var slot = Int(truncatingIfNeeded: tag) & mask
            while controls[slot] != 0 {
                if controls[slot] == control && slots[slot].tag == tag {
                    let index = slots[slot].position - base
                    var isRepeat = false
                    if index >= 0 && index < shown.count {
                        isRepeat = same(shown[shown.startIndex + index], objects[offset])
                    } else if index >= shown.count && index - shown.count < freshCount {
                        let earlier = index - shown.count
                        isRepeat = fresh.map { same($0[earlier], objects[offset]) } ?? same(objects[earlier], objects[offset])
                    }
                    if isRepeat {
                        if fresh == nil {
                            fresh = Array(objects[..<offset])
                            fresh!.reserveCapacity(objects.count - 1)
                        }
                        continue candidates
                    }
                }
                slot = (slot + 1) & mask
            }
            controls[slot] = control
            (slots + slot).initialize(to: Slot(tag: tag, position: firstNew + freshCount))
            freshCount += 1
            fresh?.append(objects[offset])
        }
        count += freshCount
        return fresh ?? objects
    }

    /// Forgets the identities of the first `dropped` objects of `shown` (`hash` as in
    /// ``insertNew(_:after:hash:same:)``), which the caller is about to remove; positions
    /// then count from the object after them. A `dropped` outside `0...shown.count` is clamped.
    @inlinable
    func dropFirst<Object>(_ dropped: Int, of shown: RowStorage<Object>, hash: (inout Hasher, Object) -> Void) {
        let dropped = min(max(0, dropped), shown.count)
        let mask = capacity - 1
        for index in 0..<dropped {
            var hasher = seeded
            hash(&hasher, shown[index])
            let tag = Self.tag(hash: hasher.finalize())
            let position = base + index
            let control = Self.control(tag)
            var slot = Int(truncatingIfNeeded: tag) & mask
            while controls[slot] != 0 {
                if controls[slot] == control && slots[slot].position == position {
                    count -= 1
                    closeGap(at: slot)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        base += dropped
    }

    /// Forgets every identity and goes back to the initial capacity (as `Set.removeAll()`
    /// does), so a refresh after a long list does not keep walking a large table.
    @usableFromInline
    func removeAll() {
        count = 0
        base = 0
        if capacity > 16 {
            controls.deallocate()
            slots.deallocate()
            capacity = 16
            controls = .allocate(capacity: capacity)
            slots = .allocate(capacity: capacity)
        }
        controls.initialize(repeating: 0, count: capacity)
    }

    /// Makes room for `additional` more identities, so adding them grows the table at most
    /// once (here). Complexity: O(capacity) when it grows.
    @inlinable
    func reserve(_ additional: Int) {
        let needed = count + max(0, additional)
        guard needed * 4 > capacity * 3 else { return }
        var newCapacity = capacity * 2
        while needed * 4 > newCapacity * 3 { newCapacity *= 2 }
        grow(to: newCapacity)
    }

    /// Moves every slot to a table of `newCapacity` slots; the stored hash values place them.
    @usableFromInline
    func grow(to newCapacity: Int) {
        let oldControls = controls, oldSlots = slots, oldCapacity = capacity
        capacity = newCapacity
        let controls = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        controls.initialize(repeating: 0, count: newCapacity)
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: newCapacity)
        let mask = newCapacity - 1
        for index in 0..<oldCapacity where oldControls[index] != 0 {
            var slot = Int(truncatingIfNeeded: oldSlots[index].tag) & mask
            while controls[slot] != 0 { slot = (slot + 1) & mask }
            controls[slot] = oldControls[index]
            (slots + slot).initialize(to: oldSlots[index])
        }
        self.controls = controls
        self.slots = slots
        oldControls.deallocate()
        oldSlots.deallocate()
    }

    /// Empties `gap` by moving back each following slot whose probe sequence passes it.
    @usableFromInline
    func closeGap(at gap: Int) {
        let mask = capacity - 1
        var gap = gap
        var slot = (gap + 1) & mask
        while controls[slot] != 0 {
            let home = Int(truncatingIfNeeded: slots[slot].tag) & mask
            // The slot may move to `gap` if `gap` lies cyclically in [home, slot).
            if (slot - home) & mask >= (slot - gap) & mask {
                controls[gap] = controls[slot]
                (slots + gap).initialize(to: slots[slot])
                gap = slot
            }
            slot = (slot + 1) & mask
        }
        controls[gap] = 0
    }
}
