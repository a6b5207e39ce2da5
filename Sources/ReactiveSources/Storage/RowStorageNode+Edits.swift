/// The structural edits of a node: insertion with splits, removal with merges, overwrite.
/// Each method expects `self` uniquely referenced (the caller copied it otherwise) and copies
/// a child before changing it unless the child is uniquely referenced too.
extension RowStorageNode {
    /// Inserts `items` at `offset` (`0...count`); returns the nodes of this height that must
    /// follow this one in its parent when it overflowed (empty otherwise). At the end of the
    /// tree (`atEnd`) the overflow is packed full, elsewhere nodes are split evenly.
    /// O(capacity * height + items.count).
    @inlinable
    func insert<C: Collection>(contentsOf items: C, at offset: Int, atEnd: Bool) -> ContiguousArray<RowStorageNode> where C.Element == Element {
        if height == 0 {
            if elements.count + items.count <= Self.leafCapacity {
                if offset == elements.count {
                    elements.append(contentsOf: items)
                } else {
                    elements.insert(contentsOf: items, at: offset)
                }
                return []
            }
            if atEnd && offset == elements.count {
                // An append: fill this leaf, then full leaves; each item is copied once.
                let split = items.index(items.startIndex, offsetBy: Self.leafCapacity - elements.count)
                elements.append(contentsOf: items[..<split])
                return Self.leaves(items[split...], packed: true)
            }
            if !atEnd && items.count <= Self.leafCapacity / 2 {
                // Split in two halves, then insert into the half that holds `offset`.
                let middle = elements.count / 2
                var right = ContiguousArray<Element>()
                right.reserveCapacity(Self.leafCapacity)
                right.append(contentsOf: elements[middle...])
                elements.removeSubrange(middle...)
                if offset <= middle {
                    elements.insert(contentsOf: items, at: offset)
                } else {
                    right.insert(contentsOf: items, at: offset - middle)
                }
                return [RowStorageNode(leaf: right)]
            }
            var all = ContiguousArray<Element>()
            all.reserveCapacity(elements.count + items.count)
            all.append(contentsOf: elements[..<offset])
            all.append(contentsOf: items)
            all.append(contentsOf: elements[offset...])
            var nodes = Self.leaves(all, packed: atEnd)
            elements = nodes[0].elements
            nodes[0] = self
            nodes.removeFirst()
            return nodes
        }
        let (index, start) = child(insertingAt: offset)
        makeChildUnique(index)
        let added = children[index].insert(contentsOf: items, at: offset - start, atEnd: atEnd)
        if added.isEmpty {
            let inserted = items.count
            for position in index..<ends.count { ends[position] += inserted }
            return []
        }
        children.insert(contentsOf: added, at: index + 1)
        // Running counts without reading the untouched children: theirs only shift.
        var running = (index == 0 ? 0 : ends[index - 1]) + children[index].count
        ends[index] = running
        if added.count == 1 {
            ends.insert(running + added[0].count, at: index + 1)
        } else {
            ends.insert(contentsOf: added.map { node in
                running += node.count
                return running
            }, at: index + 1)
        }
        let inserted = items.count
        for position in (index + 1 + added.count)..<ends.count { ends[position] += inserted }
        if children.count <= Self.innerCapacity { return [] }
        var nodes = Self.parents(of: children, ends: ends, height: height, packed: atEnd)
        children = nodes[0].children
        ends = nodes[0].ends
        nodes[0] = self
        nodes.removeFirst()
        return nodes
    }

    /// Removes the elements at `range` (a non-empty part of `0..<count`, not all of it),
    /// merging children left below half their capacity with a neighbour.
    /// O((capacity + removed children) * height).
    @inlinable
    func remove(_ range: Range<Int>) {
        if height == 0 {
            elements.removeSubrange(range)
            return
        }
        let (first, firstStart) = child(containing: range.lowerBound)
        let (last, lastStart) = child(containing: range.upperBound - 1)
        if first == last {
            if range.count == children[first].count {
                children.remove(at: first)
                ends.remove(at: first)
                for position in first..<ends.count { ends[position] -= range.count }
            } else {
                makeChildUnique(first)
                children[first].remove((range.lowerBound - firstStart)..<(range.upperBound - firstStart))
                let removed = range.count
                for position in first..<ends.count { ends[position] -= removed }
                if children[first].isUnderfull { mergeIfUnderfull(first) }
            }
            return
        }
        var removedEnd = last + 1
        if range.upperBound < ends[last] {
            makeChildUnique(last)
            children[last].remove(0..<(range.upperBound - lastStart))
            removedEnd = last
        }
        var removedStart = first
        if range.lowerBound > firstStart {
            makeChildUnique(first)
            children[first].remove((range.lowerBound - firstStart)..<(ends[first] - firstStart))
            removedStart = first + 1
        }
        children.removeSubrange(removedStart..<removedEnd)
        var newEnds = ContiguousArray<Int>()
        newEnds.reserveCapacity(Self.innerCapacity)
        newEnds.append(contentsOf: ends[..<first])
        if removedStart == first + 1 { newEnds.append(range.lowerBound) }
        if removedEnd == last { newEnds.append(ends[last] - range.count) }
        for end in ends[(last + 1)...] { newEnds.append(end - range.count) }
        ends = newEnds
        mergeIfUnderfull(removedStart - 1)
        mergeIfUnderfull(removedStart)
    }

    /// Merges `children[index]` with a neighbour when it is underfull (and has one).
    @inlinable
    func mergeIfUnderfull(_ index: Int) {
        guard index >= 0, index < children.count, children.count > 1, children[index].isUnderfull else { return }
        let left = index + 1 < children.count ? index : index - 1
        let merged = Self.merge(children[left], children[left + 1])
        children.replaceSubrange(left...(left + 1), with: merged)
        var running = left == 0 ? 0 : ends[left - 1]
        ends.replaceSubrange(left...(left + 1), with: merged.map { node in
            running += node.count
            return running
        })
    }

    /// One or two new nodes holding the content of `left` then `right` (of one height),
    /// each at least half full when the two together fill one; the seam below is merged
    /// the same way. Neither argument is changed. O(capacity * height).
    @inlinable
    static func merge(_ left: RowStorageNode, _ right: RowStorageNode) -> ContiguousArray<RowStorageNode> {
        if left.height == 0 {
            var all = ContiguousArray<Element>()
            all.reserveCapacity(leafCapacity)
            all.append(contentsOf: left.elements)
            all.append(contentsOf: right.elements)
            return all.count <= leafCapacity ? [RowStorageNode(leaf: all)] : leaves(all, packed: false)
        }
        var children = ContiguousArray<RowStorageNode>()
        children.reserveCapacity(left.children.count + right.children.count)
        children.append(contentsOf: left.children)
        children.append(contentsOf: right.children)
        let seam = left.children.count
        if children[seam - 1].isUnderfull || children[seam].isUnderfull {
            children.replaceSubrange((seam - 1)...seam, with: merge(children[seam - 1], children[seam]))
        }
        if children.count <= innerCapacity {
            children.reserveCapacity(innerCapacity)
            return [RowStorageNode(height: left.height, children: children)]
        }
        return parents(of: children, height: left.height, packed: false)
    }

    /// Overwrites the elements at `range` with the next ones of `source` (which has enough).
    /// O(range.count + (capacity * touched nodes)).
    @inlinable
    func overwrite<I: IteratorProtocol>(_ range: Range<Int>, from source: inout I) where I.Element == Element {
        if height == 0 {
            for position in range { elements[position] = source.next()! }
            return
        }
        var (index, start) = child(containing: range.lowerBound)
        while index < children.count && start < range.upperBound {
            let end = ends[index]
            makeChildUnique(index)
            children[index].overwrite((Swift.max(range.lowerBound, start) - start)..<(Swift.min(range.upperBound, end) - start), from: &source)
            start = end
            index += 1
        }
    }

    /// Calls `body` with each leaf's elements in order; `body` returns false to stop.
    /// Returns false if stopped. Retains no node on the way (the caller holds the root).
    @inlinable
    func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Bool) rethrows -> Bool {
        if height == 0 { return try elements.withUnsafeBufferPointer(body) }
        return try children.withUnsafeBufferPointer { nodes in
            for index in nodes.indices {
                unowned(unsafe) let node = nodes[index]
                if try !node.forEachChunk(body) { return false }
            }
            return true
        }
    }
}
