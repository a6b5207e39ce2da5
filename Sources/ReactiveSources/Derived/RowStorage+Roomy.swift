/// Storage for a Filtered source's rows, which take inserts anywhere (a parent row edited
/// into the filter) but are mostly appended to or left alone.
extension RowStorage {
    /// A storage holding `elements` in order, with leaves and inner nodes filled to seven
    /// eighths, evenly: the first insert into a leaf splits nothing (built packed, it splits
    /// the leaf and the full nodes above it), for about 1.14x an `Array`'s bytes (three
    /// quarters, as ``init(spacedOut:)``, would hold 1.33x). O(n).
    @inlinable
    init<C: Collection>(roomy elements: C) where C.Element == Element {
        let total = elements.count
        guard total > 0 else {
            self.init()
            return
        }
        typealias Node = RowStorageNode<Element>
        let perLeaf = Swift.max(1, Node.leafCapacity * 7 / 8)
        var level = ContiguousArray<Node>()
        var start = elements.startIndex
        for size in Node.evenSizes(total, parts: (total + perLeaf - 1) / perLeaf) {
            let end = elements.index(start, offsetBy: size)
            level.append(Node.leaf(elements[start..<end]))
            start = end
        }
        let perInner = Node.innerCapacity * 7 / 8
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
