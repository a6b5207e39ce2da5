/// The nodes (derived nodes and observations) that depend on a node, unretained, in the
/// order they subscribed.
///
/// One word. Most nodes have one subscriber: it is stored inline, so that a push down a
/// chain reads the next node straight from this one (no array buffer to reach) and a node
/// with one subscriber allocates nothing for it. Two or more live in one buffer this list
/// allocates (its address tagged in the low bit); the owning node frees it with
/// ``deallocate()`` in its deinit, and never copies the list. Guarded by the node's lock.
struct SubscriberList {
    /// 0: none; a node's address: that one subscriber; a buffer's address + 1: the buffer
    /// (capacity, count, then the subscribers' addresses).
    private var bits: UInt = 0

    init() {}

    /// Frees the buffer, if any: the owner's last use.
    mutating func deallocate() {
        buffer?.deallocate()
        bits = 0
    }

    private var buffer: UnsafeMutablePointer<UInt>? {
        bits & 1 == 1 ? UnsafeMutablePointer(bitPattern: bits &- 1) : nil
    }

    @inline(__always) private static func node(_ address: UInt) -> Unmanaged<GraphNode> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    var isEmpty: Bool { bits == 0 }

    /// The list as one word, for a walk that must not call back into the node (see
    /// ``single(_:)`` and ``forEach(_:_:)``): valid while the list is unchanged.
    @inline(__always) var rawBits: UInt { bits }

    /// The only subscriber of the list `bits`, if it has exactly one. O(1).
    @inline(__always) static func single(_ bits: UInt) -> Unmanaged<GraphNode>? {
        bits & 1 == 0 && bits != 0 ? node(bits) : nil
    }

    /// Calls `body` with each subscriber of the list `bits`, in order; `body` must not change
    /// the list. O(count).
    @inline(__always) static func forEach(_ bits: UInt, _ body: (Unmanaged<GraphNode>) -> Void) {
        if bits & 1 == 0 {
            if bits != 0 { body(node(bits)) }
            return
        }
        let buffer = UnsafeMutablePointer<UInt>(bitPattern: bits &- 1).unsafelyUnwrapped
        for index in 0..<Int(buffer[1]) { body(node(buffer[2 &+ index])) }
    }

    /// O(1).
    var count: Int {
        if bits == 0 { return 0 }
        if let buffer { return Int(buffer[1]) }
        return 1
    }

    /// Adds `node` last. Amortised O(1).
    mutating func append(_ node: Unmanaged<GraphNode>) {
        let address = UInt(bitPattern: node.toOpaque())
        if bits == 0 {
            bits = address
            return
        }
        var buffer: UnsafeMutablePointer<UInt>
        if let current = self.buffer {
            buffer = current
            if buffer[1] == buffer[0] { buffer = Self.grown(buffer, to: Int(buffer[0]) * 2) }
        } else {
            buffer = Self.grown(nil, to: 4)
            buffer[2] = bits
            buffer[1] = 1
        }
        buffer[2 + Int(buffer[1])] = address
        buffer[1] += 1
        bits = UInt(bitPattern: buffer) | 1
    }

    /// Removes `node` (the last match first: a changing dependency is usually the newest
    /// subscriber), keeping the others' order; nothing if it is not here. O(count).
    mutating func remove(_ node: Unmanaged<GraphNode>) {
        let address = UInt(bitPattern: node.toOpaque())
        guard let buffer else {
            if bits == address { bits = 0 }
            return
        }
        let count = Int(buffer[1])
        var index = count - 1
        while index >= 0 && buffer[2 + index] != address { index -= 1 }
        guard index >= 0 else { return }
        (buffer + 2 + index).update(from: buffer + 3 + index, count: count - index - 1)
        buffer[1] = UInt(count - 1)
        if count - 1 == 1 {
            // Back to one subscriber, inline.
            bits = buffer[2]
            buffer.deallocate()
        }
    }

    /// A buffer with room for `capacity` subscribers holding `old`'s (freed). O(count).
    private static func grown(_ old: UnsafeMutablePointer<UInt>?, to capacity: Int) -> UnsafeMutablePointer<UInt> {
        let buffer = UnsafeMutablePointer<UInt>.allocate(capacity: 2 + capacity)
        buffer[0] = UInt(capacity)
        buffer[1] = 0
        if let old {
            (buffer + 2).initialize(from: old + 2, count: Int(old[1]))
            buffer[1] = old[1]
            old.deallocate()
        }
        return buffer
    }
}
