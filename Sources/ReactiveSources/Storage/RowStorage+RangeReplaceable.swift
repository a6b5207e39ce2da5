extension RowStorage: RangeReplaceableCollection {
    /// Replaces the elements at `subrange` (a range of `0...count`, else traps) with
    /// `newElements`. Copies O(newElements.count + chunk * log n) elements and node entries
    /// when another version holds the touched nodes; in place otherwise. Replacing with as
    /// many elements overwrites them; otherwise it removes then inserts.
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= storedCount, "RowStorage range out of bounds")
        let newCount = newElements.count
        if newCount == subrange.count {
            guard newCount > 0 else { return }
            var source = newElements.makeIterator()
            let treeCount = self.treeCount
            if subrange.lowerBound < treeCount {
                uniqueRoot().overwrite(subrange.lowerBound..<Swift.min(subrange.upperBound, treeCount), from: &source)
            }
            for position in Swift.max(subrange.lowerBound, treeCount)..<Swift.max(subrange.upperBound, treeCount) {
                tail[position - treeCount] = source.next()!
            }
            return
        }
        if !subrange.isEmpty { removeElements(subrange) }
        if newCount > 0 { insertElements(newElements, count: newCount, at: subrange.lowerBound) }
    }

    /// Appends `element` to the tail chunk: in place (no allocation) when uniquely
    /// referenced and the tail has room; O(chunk) when another version shares the tail; once
    /// per chunk the full tail moves into the tree, O(chunk + log n). Amortized O(1).
    @inlinable
    public mutating func append(_ element: Element) {
        let capacity = RowStorageNode<Element>.leafCapacity
        if tail.count == capacity { flushTail() }
        if tail.isEmpty { tail.reserveCapacity(capacity) }
        tail.append(element)
        storedCount += 1
    }

    /// Appends `newElements`: into the tail chunk if they fit, else the tail and then the
    /// new elements go into the tree in full chunks. O(newElements.count + chunk * log n).
    @inlinable
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        let array = ContiguousArray(newElements)
        if !array.isEmpty { insertElements(array, count: array.count, at: storedCount) }
    }

    /// Inserts `element` at `index` (`0...count`, else traps). O(chunk * log n).
    @inlinable
    public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= storedCount, "RowStorage index out of range")
        insertElements(CollectionOfOne(element), count: 1, at: index)
    }

    /// Inserts `newElements` at `index` (`0...count`, else traps).
    /// O(newElements.count + chunk * log n).
    @inlinable
    public mutating func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        precondition(index >= 0 && index <= storedCount, "RowStorage index out of range")
        let newCount = newElements.count
        if newCount > 0 { insertElements(newElements, count: newCount, at: index) }
    }

    /// Removes and returns the element at `index` (`0..<count`, else traps).
    /// O(chunk * log n).
    @inlinable
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        let element = self[index]
        removeElements(index..<(index + 1))
        return element
    }

    /// Removes the elements at `bounds` (a range of `0...count`, else traps).
    /// O((chunk + removed chunks) * log n).
    @inlinable
    public mutating func removeSubrange(_ bounds: Range<Int>) {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= storedCount, "RowStorage range out of bounds")
        if !bounds.isEmpty { removeElements(bounds) }
    }

    /// Removes every element (other versions keep theirs). O(1) here.
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        root = nil
        tail = []
        storedCount = 0
    }

    /// Does nothing: chunks are allocated as elements arrive.
    @inlinable
    public mutating func reserveCapacity(_ n: Int) {}

    /// Inserts `items` (`count` of them, not zero) at `index`: into the tail when it falls
    /// there and fits, else into the tree (the tail moved into the tree first if needed).
    @inlinable
    mutating func insertElements<C: Collection>(_ items: C, count: Int, at index: Int) where C.Element == Element {
        let treeCount = self.treeCount
        if index >= treeCount && tail.count + count <= RowStorageNode<Element>.leafCapacity {
            if tail.isEmpty { tail.reserveCapacity(RowStorageNode<Element>.leafCapacity) }
            tail.insert(contentsOf: items, at: index - treeCount)
        } else {
            if index > treeCount { flushTail() }
            treeInsert(items, at: index)
        }
        storedCount += count
    }

    /// Removes `range` (not empty): its part in the tree from the tree, its part in the
    /// tail from the tail.
    @inlinable
    mutating func removeElements(_ range: Range<Int>) {
        if range.count == storedCount {
            removeAll()
            return
        }
        let treeCount = self.treeCount
        if range.upperBound > treeCount {
            tail.removeSubrange((Swift.max(range.lowerBound, treeCount) - treeCount)..<(range.upperBound - treeCount))
        }
        if range.lowerBound < treeCount {
            treeRemove(range.lowerBound..<Swift.min(range.upperBound, treeCount))
        }
        storedCount -= range.count
    }
}
