extension RowStorage {
    /// The first index whose element satisfies `belongsInSecondPartition`, or `count` if none
    /// does. The elements must be partitioned by it: every element that fails it comes before
    /// every element that satisfies it (as for `lowerBound` / `upperBound` in sorted rows);
    /// otherwise the result is some index, unspecified but in `0...count`.
    ///
    /// One descent of the tree: O(log n) calls of the predicate, and O(log² n / log chunk)
    /// node reads (each inner level probes its children's first elements), against the
    /// O(log² n) node reads of a binary search through the subscript.
    @inlinable
    public func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        let treeCount = self.treeCount
        if !tail.isEmpty {
            let inTail = treeCount == 0 ? true : !(try belongsInSecondPartition(tail[0]))
            if inTail {
                return try treeCount + tail.withUnsafeBufferPointer { try Self.partitioningIndex(in: $0, where: belongsInSecondPartition) }
            }
        }
        guard let root else { return 0 }
        return try withExtendedLifetime(root) {
            // Unretained: `root` keeps every node alive, and no node is retained and released
            // on the way down.
            var node = Unmanaged.passUnretained(root)
            var base = 0
            var height = root.height
            while height > 0 {
                // The last child whose first element fails the predicate holds the boundary
                // (or ends right before it); child 0 if every first element satisfies it.
                node = try node._withUnsafeGuaranteedRef { node in
                    let entries = node.entries
                    RowStorageNode.touchFirstLeaves(of: entries, count: node.width, height: height - 1)
                    var low = 1
                    var high = node.width
                    while low < high {
                        let middle = (low + high) / 2
                        if try belongsInSecondPartition(RowStorageNode.firstElement(of: entries[middle].child, height: height - 1)) {
                            high = middle
                        } else {
                            low = middle + 1
                        }
                    }
                    let index = low - 1
                    base += index == 0 ? 0 : entries[index - 1].end
                    return Unmanaged.passUnretained(entries[index].child)
                }
                height -= 1
            }
            return try node._withUnsafeGuaranteedRef { leaf in
                let elements = UnsafeBufferPointer(leaf.elementBuffer)
                RowStorageNode<Element>.touchLines(of: elements)
                return try base + Self.partitioningIndex(in: elements, where: belongsInSecondPartition)
            }
        }
    }

    /// Binary search for the partition point of one chunk. O(log chunk).
    @inlinable
    static func partitioningIndex(in elements: UnsafeBufferPointer<Element>, where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        try elements.partitioningIndex(where: belongsInSecondPartition)
    }
}

extension RowStorageNode {
    /// Loads every cache line of a leaf's `elements` before a binary search probes a few of
    /// them: the loads overlap, where the probes would wait for one line after another.
    /// Leaves of large elements (over 2 KiB) are left alone: the search reads few of their
    /// lines. O(chunk).
    @inlinable
    static func touchLines(of elements: UnsafeBufferPointer<Element>) {
        guard let start = elements.baseAddress, !elements.isEmpty else { return }
        let raw = UnsafeRawPointer(start)
        let bytes = elements.count * MemoryLayout<Element>.stride
        guard bytes <= 2048 else { return }
        var sum: UInt8 = 0
        var offset = 0
        while offset < bytes {
            sum &+= raw.load(fromByteOffset: offset, as: UInt8.self)
            offset += 64
        }
        keepLoaded(sum)
    }
    /// Loads the first leaf of each of `count` children (of height `height`) before a binary
    /// search probes some of them: the loads are independent, so their cache misses overlap,
    /// where the search's probes would wait for one after the other. O(count * height).
    @inlinable
    static func touchFirstLeaves(of entries: UnsafeMutablePointer<Entry>, count: Int, height: Int) {
        var elements = 0
        for index in 0..<count {
            var current = Unmanaged.passUnretained(entries[index].child)
            for _ in 0..<height {
                current = current._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.entries[0].child) }
            }
            elements &+= current._withUnsafeGuaranteedRef { $0.width }
        }
        precondition(elements > 0, "RowStorage: an empty leaf in a tree")
    }

    /// The first element of `node`'s subtree (never empty in a tree), `height` its height.
    /// O(height).
    @inlinable
    static func firstElement(of node: RowStorageNode, height: Int) -> Element {
        var current = Unmanaged.passUnretained(node)
        for _ in 0..<height {
            current = current._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.entries[0].child) }
        }
        return current._withUnsafeGuaranteedRef { $0.elements[0] }
    }
}

/// Takes a value computed only to load memory early, so the optimizer keeps those loads
/// (it cannot see through an unoptimised call). O(1).
@usableFromInline @inline(never) @_optimize(none)
func keepLoaded(_ value: UInt8) {}
