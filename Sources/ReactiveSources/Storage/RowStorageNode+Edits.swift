/// The structural edits of a node: insertion with splits, removal with merges, overwrite.
/// Each method expects `self` uniquely referenced (the caller copied it otherwise) and copies
/// a child before changing it unless the child is uniquely referenced too.
extension RowStorageNode {
    /// Inserts `items` at `offset` (`0...count`); returns the nodes of this height that must
    /// follow this one in its parent when it overflowed (`nil` otherwise, never empty). At the
    /// end of the tree (`atEnd`) the overflow is packed full, elsewhere nodes are split evenly.
    /// The overflow is optional, and built out of line, so that the common path names no
    /// array type: unspecialised callers (derived sources) would look up its metadata on
    /// every level. O(capacity * height + items.count).
    @inlinable
    func insert<C: Collection>(contentsOf items: C, at offset: Int, atEnd: Bool) -> ContiguousArray<RowStorageNode>? where C.Element == Element {
        let width = self.width
        if height == 0 {
            let itemCount = items.count
            if width + itemCount <= Self.leafCapacity {
                insertElements(items, at: offset)
                return nil
            }
            return insertSplitting(items, at: offset, atEnd: atEnd)
        }
        return insertIntoChild(items, at: offset, atEnd: atEnd)
    }

    /// ``insert(contentsOf:at:atEnd:)`` into a leaf without room: splits it (out of line, see
    /// there).
    @inlinable @inline(never)
    func insertSplitting<C: Collection>(_ items: C, at offset: Int, atEnd: Bool) -> ContiguousArray<RowStorageNode> where C.Element == Element {
        let width = self.width
        let itemCount = items.count
        if atEnd && offset == width {
            // An append: fill this leaf, then full leaves; each item is copied once.
            let split = items.index(items.startIndex, offsetBy: Self.leafCapacity - width)
            appendElements(items[..<split])
            return Self.leaves(items[split...], packed: true)
        }
        if !atEnd && itemCount <= Self.leafCapacity / 2 {
            // Split in two halves, then insert into the half that holds `offset`.
            let middle = width / 2
            let right = Self.makeLeaf()
            moveElements(from: middle, to: right)
            if offset <= middle {
                insertElements(items, at: offset)
            } else {
                right.insertElements(items, at: offset - middle)
            }
            return [right]
        }
        var all = ContiguousArray<Element>()
        all.reserveCapacity(width + itemCount)
        let own = UnsafeBufferPointer(elementBuffer)
        all.append(contentsOf: own[..<offset])
        all.append(contentsOf: items)
        all.append(contentsOf: own[offset...])
        var nodes = Self.leaves(all, packed: atEnd)
        replaceContent(byMovingFrom: nodes[0])
        nodes.removeFirst()
        return nodes
    }

    /// ``insert(contentsOf:at:atEnd:)`` into an inner node.
    @inlinable
    func insertIntoChild<C: Collection>(_ items: C, at offset: Int, atEnd: Bool) -> ContiguousArray<RowStorageNode>? where C.Element == Element {
        let width = self.width
        let (index, start) = child(insertingAt: offset)
        makeChildUnique(index)
        let entries = self.entries
        let added = entries[index].child.insert(contentsOf: items, at: offset - start, atEnd: atEnd)
        let inserted = items.count
        guard let added else {
            for position in index..<width { entries[position].end += inserted }
            updateSummary(shiftingKeysAfter: index, by: inserted)
            return nil
        }
        return insertEntries(added, after: index, inserted: inserted, atEnd: atEnd)
    }

    /// Adds `added` (the nodes child `index` overflowed into, after an insert of `inserted`
    /// elements) after that child, splitting this node when they do not fit; returns the
    /// nodes that must follow this one in its parent, or `nil`. Out of line (see
    /// ``insert(contentsOf:at:atEnd:)``).
    @inlinable @inline(never)
    func insertEntries(_ added: ContiguousArray<RowStorageNode>, after index: Int, inserted: Int, atEnd: Bool) -> ContiguousArray<RowStorageNode>? {
        let width = self.width
        let entries = self.entries
        defer { updateSummary() }
        // Running counts without reading the untouched children: theirs only shift.
        var running = (index == 0 ? 0 : entries[index - 1].end) + entries[index].child.count
        let total = width + added.count
        if total <= Self.innerCapacity {
            let after = index + 1 + added.count
            (entries + after).moveInitialize(from: entries + index + 1, count: width - index - 1)
            for position in after..<total { entries[position].end += inserted }
            entries[index].end = running
            for (position, node) in added.enumerated() {
                running += node.count
                (entries + index + 1 + position).initialize(to: Entry(child: node, end: running))
            }
            headerPointer.pointee.width = Int32(total)
            return nil
        }
        var all = ContiguousArray<Entry>()
        all.reserveCapacity(total)
        all.append(contentsOf: UnsafeBufferPointer(start: entries, count: index + 1))
        all[index].end = running
        for node in added {
            running += node.count
            all.append(Entry(child: node, end: running))
        }
        for position in (index + 1)..<width {
            all.append(Entry(child: entries[position].child, end: entries[position].end + inserted))
        }
        var nodes = all.withUnsafeBufferPointer { Self.parents(of: $0, height: height, packed: atEnd) }
        replaceContent(byMovingFrom: nodes[0])
        nodes.removeFirst()
        return nodes
    }

    /// Removes the elements at `range` (a non-empty part of `0..<count`, not all of it),
    /// merging children left below half their capacity with a neighbour.
    /// O((capacity + removed children) * height).
    @inlinable
    func remove(_ range: Range<Int>) {
        if height == 0 {
            removeElements(range)
            return
        }
        let entries = self.entries
        let removed = range.count
        let (first, firstStart) = child(containing: range.lowerBound)
        let (last, lastStart) = child(containing: range.upperBound - 1)
        if first == last && removed < entries[first].child.count {
            makeChildUnique(first)
            entries[first].child.remove((range.lowerBound - firstStart)..<(range.upperBound - firstStart))
            for position in first..<width { entries[position].end -= removed }
            if entries[first].child.isUnderfull {
                mergeIfUnderfull(first)
                updateSummary()
            } else {
                updateSummary(shiftingKeysAfter: first, by: -removed)
            }
            return
        }
        defer { updateSummary() }
        if first == last {
            for position in (first + 1)..<width { entries[position].end -= removed }
            removeEntries(first..<(first + 1))
            return
        }
        var removedEnd = last + 1
        if range.upperBound < entries[last].end {
            makeChildUnique(last)
            entries[last].child.remove(0..<(range.upperBound - lastStart))
            entries[last].end -= removed
            removedEnd = last
        }
        var removedStart = first
        if range.lowerBound > firstStart {
            makeChildUnique(first)
            entries[first].child.remove((range.lowerBound - firstStart)..<(entries[first].end - firstStart))
            entries[first].end = range.lowerBound
            removedStart = first + 1
        }
        for position in (last + 1)..<width { entries[position].end -= removed }
        removeEntries(removedStart..<removedEnd)
        mergeIfUnderfull(removedStart - 1)
        mergeIfUnderfull(removedStart)
    }

    /// Merges child `index` with a neighbour when it is underfull (and has one).
    @inlinable
    func mergeIfUnderfull(_ index: Int) {
        let width = self.width
        let entries = self.entries
        guard index >= 0, index < width, width > 1, entries[index].child.isUnderfull else { return }
        let left = index + 1 < width ? index : index - 1
        let merged = Self.merge(entries[left].child, entries[left + 1].child)
        var running = left == 0 ? 0 : entries[left - 1].end
        for (position, node) in merged.enumerated() {
            running += node.count
            entries[left + position] = Entry(child: node, end: running)
        }
        if merged.count == 1 { removeEntries((left + 1)..<(left + 2)) }
    }

    /// One or two new nodes holding the content of `left` then `right` (of one height),
    /// each at least half full when the two together fill one; the seam below is merged
    /// the same way. Neither argument is changed. O(capacity * height).
    @inlinable
    static func merge(_ left: RowStorageNode, _ right: RowStorageNode) -> ContiguousArray<RowStorageNode> {
        if left.height == 0 {
            if left.width + right.width <= leafCapacity {
                let node = leaf(UnsafeBufferPointer(left.elementBuffer))
                node.appendElements(UnsafeBufferPointer(right.elementBuffer))
                return [node]
            }
            var all = ContiguousArray<Element>()
            all.reserveCapacity(left.width + right.width)
            all.append(contentsOf: UnsafeBufferPointer(left.elementBuffer))
            all.append(contentsOf: UnsafeBufferPointer(right.elementBuffer))
            return leaves(all, packed: false)
        }
        var children = ContiguousArray<RowStorageNode>()
        children.reserveCapacity(left.width + right.width)
        for entry in left.entryBuffer { children.append(entry.child) }
        for entry in right.entryBuffer { children.append(entry.child) }
        let seam = left.width
        if children[seam - 1].isUnderfull || children[seam].isUnderfull {
            children.replaceSubrange((seam - 1)...seam, with: merge(children[seam - 1], children[seam]))
        }
        if children.count <= innerCapacity {
            return [inner(height: left.height, children: children)]
        }
        return parents(of: children, height: left.height, packed: false)
    }

    /// Overwrites the elements at `range` with the next ones of `source` (which has enough).
    /// O(range.count + (capacity * touched nodes)).
    @inlinable
    func overwrite<I: IteratorProtocol>(_ range: Range<Int>, from source: inout I) where I.Element == Element {
        if height == 0 {
            let elements = self.elements
            for position in range { elements[position] = source.next()! }
            return
        }
        let entries = self.entries
        let width = self.width
        var (index, start) = child(containing: range.lowerBound)
        while index < width && start < range.upperBound {
            let end = entries[index].end
            makeChildUnique(index)
            entries[index].child.overwrite((Swift.max(range.lowerBound, start) - start)..<(Swift.min(range.upperBound, end) - start), from: &source)
            start = end
            index += 1
        }
    }

    /// Calls `body` with each leaf's elements in order; `body` returns false to stop.
    /// Returns false if stopped. Retains no node on the way (the caller holds the root).
    @inlinable
    func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Bool) rethrows -> Bool {
        if height == 0 { return try body(UnsafeBufferPointer(elementBuffer)) }
        let entries = self.entries
        for index in 0..<width {
            unowned(unsafe) let node = entries[index].child
            if try !node.forEachChunk(body) { return false }
        }
        return true
    }
}
