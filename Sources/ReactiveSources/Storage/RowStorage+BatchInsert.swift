/// Building storage for rows that take inserts at any position (a Sorted source's).
extension RowStorage {
    /// A storage holding `elements` in order, for rows that will take inserts at any position
    /// (a Sorted source's): leaves and inner nodes are filled to about three quarters, evenly.
    /// Built packed, the first insert into a full leaf splits it, and the full nodes above it
    /// with it (several allocations and copies each time); here the first few inserts into
    /// each leaf split nothing. Reads search their child on each level, as after random
    /// inserts. O(n).
    @inlinable
    init<C: Collection>(spacedOut elements: C) where C.Element == Element {
        let total = elements.count
        guard total > 0 else {
            self.init()
            return
        }
        typealias Node = RowStorageNode<Element>
        let perLeaf = Swift.max(1, Node.leafCapacity * 3 / 4)
        var level = ContiguousArray<Node>()
        var start = elements.startIndex
        for size in Node.evenSizes(total, parts: (total + perLeaf - 1) / perLeaf) {
            let end = elements.index(start, offsetBy: size)
            level.append(Node.leaf(elements[start..<end]))
            start = end
        }
        let perInner = Node.innerCapacity * 3 / 4
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
}
