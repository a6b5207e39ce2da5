/// A node of a `RowStorage` tree: a leaf (`height == 0`) holding up to `leafCapacity`
/// elements, or an inner node holding up to `innerCapacity` children of height `height - 1`
/// with their running element counts. Nodes are shared between versions and mutated only
/// while uniquely referenced (the caller checks with `isKnownUniquelyReferenced`).
@usableFromInline
final class RowStorageNode<Element> {
    /// 0 for a leaf; otherwise one more than the children's height.
    @usableFromInline let height: Int
    /// A leaf's elements (empty in an inner node).
    @exclusivity(unchecked) @usableFromInline var elements: ContiguousArray<Element>
    /// An inner node's children (empty in a leaf).
    @exclusivity(unchecked) @usableFromInline var children: ContiguousArray<RowStorageNode>
    /// `ends[i]` is the number of elements in `children[0...i]` (empty in a leaf).
    @exclusivity(unchecked) @usableFromInline var ends: ContiguousArray<Int>

    @inlinable
    init(leaf elements: ContiguousArray<Element>) {
        height = 0
        self.elements = elements
        children = []
        ends = []
    }

    @inlinable
    init(height: Int, children: ContiguousArray<RowStorageNode>, ends: ContiguousArray<Int>) {
        self.height = height
        elements = []
        self.children = children
        self.ends = ends
    }

    @inlinable
    init(height: Int, children: ContiguousArray<RowStorageNode>) {
        self.height = height
        elements = []
        self.children = children
        ends = []
        recomputeEnds()
    }

    /// Elements per leaf: about 1 KiB of elements, at least 16.
    @inlinable
    static var leafCapacity: Int { Swift.max(16, 1024 / Swift.max(1, MemoryLayout<Element>.stride)) }

    /// Children per inner node.
    @inlinable
    static var innerCapacity: Int { 32 }

    /// Number of elements in this subtree.
    @inlinable
    var count: Int { height == 0 ? elements.count : (ends.last ?? 0) }

    /// Number of entries (elements or children) held directly by this node.
    @inlinable
    var width: Int { height == 0 ? elements.count : children.count }

    /// Whether this node holds fewer entries than half its capacity.
    @inlinable
    var isUnderfull: Bool {
        height == 0 ? elements.count < Self.leafCapacity / 2 : children.count < Self.innerCapacity / 2
    }

    @inlinable
    func recomputeEnds() {
        ends.removeAll(keepingCapacity: true)
        ends.reserveCapacity(Self.innerCapacity)
        var total = 0
        for child in children {
            total += child.count
            ends.append(total)
        }
    }

    /// A new node with the same content and full capacity reserved, to mutate in place of
    /// this shared one. O(capacity).
    @inlinable
    func copy() -> RowStorageNode {
        // Reserving capacity in a shared buffer copies it in one bulk initialization (an
        // `append(contentsOf:)` copies element by element in unspecialized code).
        if height == 0 {
            var copied = elements
            copied.reserveCapacity(Self.leafCapacity)
            return RowStorageNode(leaf: copied)
        }
        var copied = children
        copied.reserveCapacity(Self.innerCapacity)
        // The running counts stay shared until a count changes (an edit changes none).
        return RowStorageNode(height: height, children: copied, ends: ends)
    }

    /// The child holding element `offset` (`0 <= offset < count`) and the offset of that
    /// child's first element. O(1) when the children before it are equally full, else
    /// O(innerCapacity).
    @inlinable
    func child(containing offset: Int) -> (index: Int, start: Int) {
        ends.withUnsafeBufferPointer { ends in
            let last = ends.count - 1
            var index = Swift.min(offset / ends[0], last)
            while index > 0 && ends[index - 1] > offset { index -= 1 }
            while ends[index] <= offset { index += 1 }
            return (index, index == 0 ? 0 : ends[index - 1])
        }
    }

    /// Like `child(containing:)` but `offset == count` maps to the end of the last child
    /// (where an insertion at `offset` goes).
    @inlinable
    func child(insertingAt offset: Int) -> (index: Int, start: Int) {
        if offset >= count {
            let last = children.count - 1
            return (last, last == 0 ? 0 : ends[last - 1])
        }
        return child(containing: offset)
    }

    /// Replaces `children[index]` by a copy unless this node holds its only reference.
    @inlinable
    func makeChildUnique(_ index: Int) {
        if !isKnownUniquelyReferenced(&children[index]) {
            children[index] = children[index].copy()
        }
    }
}

extension RowStorageNode {
    /// Splits `count` entries into `parts` runs whose sizes differ by at most one.
    @inlinable
    static func evenSizes(_ count: Int, parts: Int) -> [Int] {
        let base = count / parts, extra = count % parts
        return (0..<parts).map { $0 < extra ? base + 1 : base }
    }

    /// Leaves holding `elements` in order, full except the last (`packed`) or evenly filled.
    @inlinable
    static func leaves<C: Collection>(_ elements: C, packed: Bool) -> ContiguousArray<RowStorageNode> where C.Element == Element {
        let capacity = leafCapacity
        let total = elements.count
        guard total > 0 else { return [] }
        let parts = (total + capacity - 1) / capacity
        var result = ContiguousArray<RowStorageNode>()
        result.reserveCapacity(parts)
        var start = elements.startIndex
        let sizes = packed ? nil : evenSizes(total, parts: parts)
        for part in 0..<parts {
            let size = sizes?[part] ?? Swift.min(capacity, total - part * capacity)
            let end = elements.index(start, offsetBy: size)
            var chunk = ContiguousArray<Element>()
            chunk.reserveCapacity(capacity)
            chunk.append(contentsOf: elements[start..<end])
            result.append(RowStorageNode(leaf: chunk))
            start = end
        }
        return result
    }

    /// Inner nodes of height `height` holding `nodes` in order, full except the last
    /// (`packed`) or evenly filled; `ends` are the nodes' running counts if known.
    @inlinable
    static func parents(of nodes: ContiguousArray<RowStorageNode>, ends: ContiguousArray<Int>? = nil, height: Int, packed: Bool) -> ContiguousArray<RowStorageNode> {
        let capacity = innerCapacity
        let total = nodes.count
        guard total > 0 else { return [] }
        let parts = (total + capacity - 1) / capacity
        let sizes = packed ? nil : evenSizes(total, parts: parts)
        var result = ContiguousArray<RowStorageNode>()
        result.reserveCapacity(parts)
        var start = 0
        for part in 0..<parts {
            let size = sizes?[part] ?? Swift.min(capacity, total - start)
            var group = ContiguousArray<RowStorageNode>()
            group.reserveCapacity(capacity)
            group.append(contentsOf: nodes[start..<(start + size)])
            if let ends {
                let before = start == 0 ? 0 : ends[start - 1]
                var groupEnds = ContiguousArray<Int>()
                groupEnds.reserveCapacity(capacity)
                for end in ends[start..<(start + size)] { groupEnds.append(end - before) }
                result.append(RowStorageNode(height: height, children: group, ends: groupEnds))
            } else {
                result.append(RowStorageNode(height: height, children: group))
            }
            start += size
        }
        return result
    }

    /// One root over `nodes` (all of one height), adding levels as needed. O(nodes.count).
    @inlinable
    static func root(over nodes: ContiguousArray<RowStorageNode>) -> RowStorageNode? {
        var level = nodes
        while level.count > 1 {
            level = parents(of: level, height: level[0].height + 1, packed: true)
        }
        return level.first
    }
}
