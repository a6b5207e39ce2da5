extension RowStorage {
    /// A storage holding `transform` of each element of `source`, in order, built bottom-up
    /// with full leaves filled in place (no intermediate array). Inlinable, so that from a
    /// caller that knows both element types the loop is compiled for them. O(n) calls of
    /// `transform`.
    @inlinable
    init<Source>(mapping source: RowStorage<Source>, _ transform: (Source) -> Element) {
        typealias Node = RowStorageNode<Element>
        let capacity = Node.leafCapacity
        var leaves = ContiguousArray<Node>()
        leaves.reserveCapacity((source.count + capacity - 1) / capacity)
        var leaf = Node.makeLeaf()
        var width = 0
        source.withChunks { chunk in
            var index = 0
            while index < chunk.count {
                let take = Swift.min(capacity - width, chunk.count - index)
                let target = leaf.elements + width
                for offset in 0..<take { (target + offset).initialize(to: transform(chunk[index + offset])) }
                width += take
                index += take
                leaf.headerPointer.pointee.width = Int32(width)
                if width == capacity {
                    leaves.append(leaf)
                    leaf = Node.makeLeaf()
                    width = 0
                }
            }
        }
        if width > 0 { leaves.append(leaf) }
        self.init(root: Node.root(over: leaves), count: source.count)
    }
}
