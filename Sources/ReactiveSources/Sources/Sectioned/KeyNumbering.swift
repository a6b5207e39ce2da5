/// Numbers distinct keys densely in order of first appearance (the first key recorded gets
/// 0, the next different one 1, and so on) and counts how often each was recorded. The
/// grouping table of a Sectioned source.
///
/// An open-addressing hash table over manually allocated storage. It exists because this
/// module's generic code runs unspecialized for its clients' types: there a
/// `Dictionary<Key, Int>` lookup cost ~280 instructions per object in a callgrind profile of
/// the Sectioned benchmark (~100 of them hashing), and non-inlined `Array` calls fetch
/// generic metadata from the runtime on every call. Raw pointers need only `Key`'s own
/// value witnesses.
///
/// Complexity: ``record(_:)`` is O(1) on average (one `hashValue`, usually one `==`).
final class KeyNumbering<Key: Hashable> {
    /// Number of distinct keys seen.
    private(set) var count = 0
    /// The distinct keys by number; `keys[0..<count]` are initialised.
    private var keys: UnsafeMutablePointer<Key>
    /// `hashes[n]` is `keys[n].hashValue`.
    private var hashes: UnsafeMutablePointer<Int>
    /// `occurrences[n]` is how many times `keys[n]` was recorded.
    private var occurrences: UnsafeMutablePointer<Int>
    /// Capacity of `keys`, `hashes` and `occurrences`.
    private var capacity: Int
    /// Open-addressing slots (a power of two, at most half full): a key's number, or -1.
    private var slots: UnsafeMutablePointer<Int>
    private var slotMask: Int
    /// 64 minus log2 of the slot count: a hash's first slot is the top bits of a
    /// multiplicative scramble, so hash values that differ only in high bits still spread.
    private var slotShift: Int

    init() {
        capacity = 8
        keys = .allocate(capacity: capacity)
        hashes = .allocate(capacity: capacity)
        occurrences = .allocate(capacity: capacity)
        slotMask = 2 * capacity - 1
        slotShift = UInt.bitWidth - (slotMask + 1).trailingZeroBitCount
        slots = .allocate(capacity: slotMask + 1)
        slots.initialize(repeating: -1, count: slotMask + 1)
    }

    /// The first slot to probe for `hash`.
    private func firstSlot(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: hash) &* 0x9E37_79B9_7F4A_7C15) >> UInt(slotShift))
    }

    deinit {
        keys.deinitialize(count: count)
        keys.deallocate()
        hashes.deallocate()
        occurrences.deallocate()
        slots.deallocate()
    }

    /// The distinct keys, by number.
    var allKeys: [Key] { Array(UnsafeBufferPointer(start: keys, count: count)) }

    /// How many times each key was recorded, by number.
    var allOccurrences: [Int] { Array(UnsafeBufferPointer(start: occurrences, count: count)) }

    /// Counts one occurrence of `key` and returns its number, assigning the next one if the
    /// key is new.
    func record(_ key: Key) -> Int {
        let hash = key.hashValue
        var slot = firstSlot(hash)
        while true {
            let number = slots[slot]
            if number < 0 { break }
            if hashes[number] == hash && keys[number] == key {
                occurrences[number] += 1
                return number
            }
            slot = (slot &+ 1) & slotMask
        }
        if count == capacity {
            grow()
            slot = firstSlot(hash)
            while slots[slot] >= 0 { slot = (slot &+ 1) & slotMask }
        }
        let number = count
        (keys + number).initialize(to: key)
        hashes[number] = hash
        occurrences[number] = 1
        slots[slot] = number
        count += 1
        return number
    }

    /// Doubles the capacity and rebuilds the slots.
    private func grow() {
        let newCapacity = capacity * 2
        let newKeys = UnsafeMutablePointer<Key>.allocate(capacity: newCapacity)
        newKeys.moveInitialize(from: keys, count: count)
        keys.deallocate()
        keys = newKeys
        let newHashes = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        newHashes.initialize(from: hashes, count: count)
        hashes.deallocate()
        hashes = newHashes
        let newOccurrences = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        newOccurrences.initialize(from: occurrences, count: count)
        occurrences.deallocate()
        occurrences = newOccurrences
        capacity = newCapacity
        slots.deallocate()
        slotMask = 2 * newCapacity - 1
        slotShift = UInt.bitWidth - (slotMask + 1).trailingZeroBitCount
        slots = .allocate(capacity: slotMask + 1)
        slots.initialize(repeating: -1, count: slotMask + 1)
        for number in 0..<count {
            var slot = firstSlot(hashes[number])
            while slots[slot] >= 0 { slot = (slot &+ 1) & slotMask }
            slots[slot] = number
        }
    }
}
