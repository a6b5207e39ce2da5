/// Storage for rows that take inserts at any position (a Sorted or Filtered source's): built
/// with room in every node, and the paths of several inserts loaded together before they run.
extension RowStorage {
    /// A storage holding `elements` in order, for rows that will take inserts at any position:
    /// leaves and inner nodes are filled to `eighths` eighths of their capacity, evenly, so the
    /// first inserts into a leaf split nothing (built packed, the first insert into a full leaf
    /// splits it, and the full nodes above it with it). Bytes per row are about 8 / `eighths`
    /// times a packed storage's; reads search their child on each level, as after random
    /// inserts. `eighths` outside 1...8 is clamped. O(n).
    @inlinable
    init<C: Collection>(spacedOut elements: C, eighths: Int) where C.Element == Element {
        let total = elements.count
        guard total > 0 else {
            self.init()
            return
        }
        typealias Node = RowStorageNode<Element>
        let eighths = Swift.min(Swift.max(eighths, 1), 8)
        let perLeaf = Swift.max(1, Node.leafCapacity * eighths / 8)
        var level = ContiguousArray<Node>()
        var start = elements.startIndex
        for size in Node.evenSizes(total, parts: (total + perLeaf - 1) / perLeaf) {
            let end = elements.index(start, offsetBy: size)
            level.append(Node.leaf(elements[start..<end]))
            start = end
        }
        let perInner = Swift.max(2, Node.innerCapacity * eighths / 8)
        while level.count > 1 {
            var parents = ContiguousArray<Node>()
            var first = 0
            for size in Node.evenSizes(level.count, parts: (level.count + perInner - 1) / perInner) {
                parents.append(Node.inner(height: level[first].height + 1, children: level[first..<(first + size)]))
                first += size
            }
            level = parents
        }
        self.init(root: level[0], count: total)
    }

    /// Loads what inserts at `positions` (ascending; those in the tail are skipped) will read
    /// and write, level by level across the positions so the cache misses overlap: on each
    /// inner node of each path, its entries from the child taken on; on each leaf, the lines
    /// from the position on. Reads only. O(k (log n + chunk)).
    @inlinable
    func touchPaths(to positions: [Int]) {
        guard let root else { return }
        let treeCount = self.treeCount
        var count = 0
        while count < positions.count && positions[count] < treeCount { count += 1 }
        guard count > 0 else { return }
        withExtendedLifetime(root) {
            var nodes = [Unmanaged<RowStorageNode<Element>>](repeating: .passUnretained(root), count: count)
            var offsets = Array(positions[..<count])
            var sum = 0
            var height = root.height
            while height > 0 {
                for index in 0..<count {
                    nodes[index] = nodes[index]._withUnsafeGuaranteedRef { node in
                        let (child, start) = node.child(containing: offsets[index])
                        offsets[index] -= start
                        let entries = node.entries
                        var entry = child
                        while entry < node.width {
                            sum &+= entries[entry].end
                            entry += 4
                        }
                        return Unmanaged.passUnretained(entries[child].child)
                    }
                }
                height -= 1
            }
            var bytes: UInt8 = 0
            for index in 0..<count {
                nodes[index]._withUnsafeGuaranteedRef { leaf in
                    let raw = UnsafeRawPointer(leaf.elements)
                    let stride = MemoryLayout<Element>.stride
                    var offset = offsets[index] * stride
                    let end = leaf.width * stride
                    while offset < end {
                        bytes &+= raw.load(fromByteOffset: offset, as: UInt8.self)
                        offset += 64
                    }
                }
            }
            keepLoaded(bytes &+ UInt8(truncatingIfNeeded: sum))
        }
    }
}
