/// A sequence of bits that supports insert, remove, set, rank (ones before an index) and
/// select (the index of the r-th one) in O(log n): which parent rows a filter shows.
///
/// Bits live in blocks of at most 2 × `blockBits` bits, packed in words; two Fenwick trees
/// over the blocks count their bits and their ones. A block that grows past its bound is
/// split (the trees are rebuilt in O(n / blockBits)), so edits are O(blockBits / 64 + log n)
/// amortised. Indexes must be in range (callers pass the parent's valid indexes).
struct RankedBits {
    private static let blockBits = 1024
    private var blocks: [Block] = []
    private var sizes = Fenwick()
    private var ones = Fenwick()

    /// Number of bits.
    private(set) var count = 0
    /// Number of ones.
    private(set) var oneCount = 0

    init<S: Sequence>(_ bits: S) where S.Element == Bool {
        var block = Block()
        for bit in bits {
            if block.count == Self.blockBits {
                blocks.append(block)
                block = Block()
            }
            block.insert(bit, at: block.count)
        }
        blocks.append(block)
        rebuildTrees()
    }

    /// The `count` bits packed in `words` (bit `i % 64` of word `i / 64`; bits past `count`
    /// must be clear). O(n / 64).
    init(words: [UInt64], count: Int) {
        let perBlock = Self.blockBits / 64
        var start = 0
        var remaining = count
        repeat {
            var block = Block()
            let bits = Swift.min(Self.blockBits, remaining)
            block.words = Array(words[start..<(start + (bits + 63) / 64)])
            block.count = bits
            block.ones = block.words.reduce(0) { $0 + $1.nonzeroBitCount }
            blocks.append(block)
            start += perBlock
            remaining -= bits
        } while remaining > 0
        rebuildTrees()
    }

    /// Between these bits and `other` (of the same count): the ranks, among this one's
    /// ones, of the ones that `other` clears (ascending), and the ranks, among `other`'s
    /// ones, of the ones it sets (ascending); `nil` when the counts differ.
    /// O(n / 64 + differences), word by word.
    func differences(to other: RankedBits) -> (deleted: [Int], inserted: [Int])? {
        guard count == other.count else { return nil }
        var deleted: [Int] = []
        var inserted: [Int] = []
        var oldRank = 0
        var newRank = 0
        var old = WordCursor(self)
        var new = WordCursor(other)
        var remaining = count
        while remaining > 0 {
            let width = min(64, remaining)
            let a = old.next(width)
            let b = new.next(width)
            if a == b {
                oldRank += a.nonzeroBitCount
                newRank += a.nonzeroBitCount
            } else {
                for bit in 0..<width {
                    let mask: UInt64 = 1 << UInt64(bit)
                    let was = a & mask != 0
                    let now = b & mask != 0
                    if was && !now { deleted.append(oldRank) }
                    if now && !was { inserted.append(newRank) }
                    if was { oldRank += 1 }
                    if now { newRank += 1 }
                }
            }
            remaining -= width
        }
        return (deleted, inserted)
    }

    /// Reads the bits of a ``RankedBits`` in order, `width` (at most 64) at a time.
    private struct WordCursor {
        let blocks: [Block]
        var block = 0
        var offset = 0

        init(_ bits: RankedBits) {
            blocks = bits.blocks
        }

        /// The next `width` bits, the first in the lowest bit.
        mutating func next(_ width: Int) -> UInt64 {
            var result: UInt64 = 0
            var filled = 0
            while filled < width {
                while offset >= blocks[block].count {
                    block += 1
                    offset = 0
                }
                let current = blocks[block]
                let take = min(width - filled, current.count - offset, 64 - (offset & 63))
                let word = current.words[offset >> 6] >> UInt64(offset & 63)
                let mask: UInt64 = take == 64 ? ~0 : (1 << UInt64(take)) - 1
                result |= (word & mask) << UInt64(filled)
                filled += take
                offset += take
            }
            return result
        }
    }

    /// The bit at `index`.
    func bit(at index: Int) -> Bool {
        let (block, offset) = locate(index)
        return blocks[block].bit(at: offset)
    }

    /// The number of ones before `index` (`index` may be `count`).
    func rank(_ index: Int) -> Int {
        let (block, offset) = locate(index)
        return ones.prefix(block) + blocks[block].rank(offset)
    }

    /// The index of the one of rank `rank` (0-based); `rank` must be below ``oneCount``.
    func select(_ rank: Int) -> Int {
        let (block, remaining) = ones.find(rank)
        return sizes.prefix(block) + blocks[block].select(remaining)
    }

    /// Inserts `bit` before `index` (`index == count` appends).
    mutating func insert(_ bit: Bool, at index: Int) {
        let (block, offset) = locate(index)
        blocks[block].insert(bit, at: offset)
        count += 1
        sizes.add(1, at: block)
        if bit {
            oneCount += 1
            ones.add(1, at: block)
        }
        if blocks[block].count >= 2 * Self.blockBits {
            let tail = blocks[block].split()
            blocks.insert(tail, at: block + 1)
            rebuildTrees()
        }
    }

    /// Removes the bit at `index`.
    mutating func remove(at index: Int) {
        let (block, offset) = locate(index)
        let bit = blocks[block].remove(at: offset)
        count -= 1
        sizes.add(-1, at: block)
        if bit {
            oneCount -= 1
            ones.add(-1, at: block)
        }
        if blocks[block].count == 0 && blocks.count > 1 {
            blocks.remove(at: block)
            rebuildTrees()
        }
    }

    /// Sets the bit at `index`; returns the old bit.
    @discardableResult
    mutating func set(_ bit: Bool, at index: Int) -> Bool {
        let (block, offset) = locate(index)
        let old = blocks[block].set(bit, at: offset)
        if old != bit {
            let delta = bit ? 1 : -1
            oneCount += delta
            ones.add(delta, at: block)
        }
        return old
    }

    /// The block holding `index` and the offset in it; `count` maps past the last bit.
    private func locate(_ index: Int) -> (block: Int, offset: Int) {
        if index >= count { return (blocks.count - 1, blocks[blocks.count - 1].count - (count - index)) }
        let (block, offset) = sizes.find(index)
        return (block, offset)
    }

    private mutating func rebuildTrees() {
        sizes = Fenwick(blocks.map(\.count))
        ones = Fenwick(blocks.map(\.ones))
        count = blocks.reduce(0) { $0 + $1.count }
        oneCount = blocks.reduce(0) { $0 + $1.ones }
    }
}

/// Up to a few thousand bits packed in words.
private struct Block {
    var words: [UInt64] = []
    var count = 0
    var ones = 0

    func bit(at index: Int) -> Bool {
        words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    func rank(_ index: Int) -> Int {
        var total = 0
        let full = index >> 6
        for word in 0..<full { total += words[word].nonzeroBitCount }
        let rest = index & 63
        if rest > 0 { total += (words[full] & ((1 << UInt64(rest)) - 1)).nonzeroBitCount }
        return total
    }

    func select(_ rank: Int) -> Int {
        var remaining = rank
        for (index, word) in words.enumerated() {
            let ones = word.nonzeroBitCount
            if remaining < ones {
                var bits = word
                for _ in 0..<remaining { bits &= bits - 1 }
                return index << 6 + bits.trailingZeroBitCount
            }
            remaining -= ones
        }
        return count
    }

    /// Appends `bit` after the last bit. O(1).
    mutating func append(_ bit: Bool) {
        if count & 63 == 0 { words.append(0) }
        if bit {
            words[count >> 6] |= 1 << UInt64(count & 63)
            ones += 1
        }
        count += 1
    }

    mutating func insert(_ bit: Bool, at index: Int) {
        if count & 63 == 0 { words.append(0) }
        let first = index >> 6
        // Shift every bit at or after `index` up by one, from the last word down.
        var word = words.count - 1
        while word > first {
            words[word] = (words[word] << 1) | (words[word - 1] >> 63)
            word -= 1
        }
        let offset = UInt64(index & 63)
        let low = offset == 0 ? 0 : words[first] & ((1 << offset) - 1)
        let high = offset == 0 ? words[first] << 1 : (words[first] >> offset) << (offset + 1)
        words[first] = low | high | (bit ? 1 << offset : 0)
        count += 1
        if bit { ones += 1 }
    }

    mutating func remove(at index: Int) -> Bool {
        let bit = self.bit(at: index)
        let first = index >> 6
        let offset = UInt64(index & 63)
        let low = offset == 0 ? 0 : words[first] & ((1 << offset) - 1)
        let high = offset == 63 ? 0 : (words[first] >> (offset + 1)) << offset
        words[first] = low | high
        for word in first..<words.count {
            if word > first { words[word - 1] |= (words[word] & 1) << 63; words[word] >>= 1 }
        }
        count -= 1
        if bit { ones -= 1 }
        if count & 63 == 0 { words.removeLast() }
        return bit
    }

    mutating func set(_ bit: Bool, at index: Int) -> Bool {
        let old = self.bit(at: index)
        let mask: UInt64 = 1 << UInt64(index & 63)
        if bit { words[index >> 6] |= mask } else { words[index >> 6] &= ~mask }
        if old != bit { ones += bit ? 1 : -1 }
        return old
    }

    /// Moves the upper half out into a new block.
    mutating func split() -> Block {
        let half = (count / 2) & ~63
        var tail = Block()
        tail.words = Array(words[(half >> 6)...])
        tail.count = count - half
        tail.ones = tail.words.reduce(0) { $0 + $1.nonzeroBitCount }
        words.removeSubrange((half >> 6)...)
        count = half
        ones -= tail.ones
        return tail
    }
}

/// Prefix sums over a fixed number of slots with point updates, O(log n) each.
private struct Fenwick {
    private var tree: [Int] = [0]

    init() {}

    init(_ values: [Int]) {
        tree = [0] + values
        for index in 1..<tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }

    /// Sum of the slots before `slot`.
    func prefix(_ slot: Int) -> Int {
        var total = 0
        var index = slot
        while index > 0 {
            total += tree[index]
            index -= index & -index
        }
        return total
    }

    mutating func add(_ delta: Int, at slot: Int) {
        var index = slot + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// The slot where the running sum first exceeds `target`, and what is left of `target`
    /// at that slot's start.
    func find(_ target: Int) -> (slot: Int, remaining: Int) {
        var position = 0
        var remaining = target
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count && tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return (position, remaining)
    }
}
