extension RowStorage: RandomAccessCollection, MutableCollection {
    /// Positions are the offsets `0..<count`, as an `Array`'s.
    public typealias Index = Int
    /// `0..<count`.
    public typealias Indices = Range<Int>
    /// A slice shares the storage; it does not copy.
    public typealias SubSequence = Slice<RowStorage>

    /// Always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The number of elements. O(1).
    @inlinable
    public var endIndex: Int { storedCount }

    /// The number of elements. O(1).
    @inlinable
    public var count: Int { storedCount }

    /// Whether there are no elements. O(1).
    @inlinable
    public var isEmpty: Bool { storedCount == 0 }

    /// `0..<count`. O(1).
    @inlinable
    public var indices: Range<Int> { 0..<storedCount }

    /// `i + 1`, unchecked (as an `Array`'s). O(1).
    @inlinable
    public func index(after i: Int) -> Int { i + 1 }

    /// `i - 1`, unchecked. O(1).
    @inlinable
    public func index(before i: Int) -> Int { i - 1 }

    /// `i + distance`, unchecked. O(1).
    @inlinable
    public func index(_ i: Int, offsetBy distance: Int) -> Int { i + distance }

    /// `end - start`. O(1).
    @inlinable
    public func distance(from start: Int, to end: Int) -> Int { end - start }

    /// The element at `position` (`0..<count`, else traps). Reading is O(log n); writing
    /// copies the chunk and the path to it if another version holds them, else is in place.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < storedCount, "RowStorage index out of range")
            let treeCount = self.treeCount
            if position >= treeCount { return tail[position - treeCount] }
            return withExtendedLifetime(root) {
                // Unretained: `root` keeps every node alive, and no node is retained and
                // released on the way down.
                let root = Unmanaged.passUnretained(root.unsafelyUnwrapped)
                let (isDense, height) = root._withUnsafeGuaranteedRef { ($0.isDense, $0.height) }
                let (leaf, offset) = isDense
                    ? RowStorageNode.leaf(inDense: root, height: height, containing: position)
                    : RowStorageNode.leaf(in: root, height: height, containing: position)
                return leaf._withUnsafeGuaranteedRef { $0.elements[offset] }
            }
        }
        _modify {
            precondition(position >= 0 && position < storedCount, "RowStorage index out of range")
            let treeCount = self.treeCount
            if position >= treeCount {
                yield &tail[position - treeCount]
                return
            }
            var node = uniqueRoot()
            var offset = position
            while node.height > 0 {
                let (index, start) = node.child(containing: offset)
                node.makeChildUnique(index)
                node = node.entries[index].child
                offset -= start
            }
            yield &node.elements[offset]
        }
    }

    /// The elements at `bounds` (a range of `0...count`, else traps) as a slice sharing
    /// this storage. O(1); setting a slice of equal length overwrites in place, any other
    /// length replaces the range.
    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<RowStorage> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= storedCount, "RowStorage range out of bounds")
            return Slice(base: self, bounds: bounds)
        }
        set {
            replaceSubrange(bounds, with: newValue)
        }
    }

    /// An iterator over the elements in order, walking the leaves. O(1) to make; a full
    /// iteration is O(n).
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(root: root, treeCount: treeCount, tail: tail, from: 0)
    }

    /// An iterator over the elements from `offset` on (`0...count`). O(log n) to make.
    @inlinable
    func makeIterator(from offset: Int) -> Iterator {
        Iterator(root: root, treeCount: treeCount, tail: tail, from: offset)
    }

    /// Copies the first elements into `buffer` chunk by chunk (what `Array(storage)` uses)
    /// and returns an iterator over the rest with the number copied. O(copied).
    @inlinable
    public func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>) -> (Iterator, Int) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return (makeIterator(), 0)
        }
        var copied = 0
        let limit = Swift.min(buffer.count, storedCount)
        let copy = { (source: UnsafeBufferPointer<Element>) -> Bool in
            let take = Swift.min(source.count, limit - copied)
            (base + copied).initialize(from: source.baseAddress.unsafelyUnwrapped, count: take)
            copied += take
            return copied < limit
        }
        var more = true
        if let root { more = withExtendedLifetime(root) { root.forEachChunk(copy) } }
        if more && !tail.isEmpty { _ = tail.withUnsafeBufferPointer(copy) }
        return (Iterator(root: root, treeCount: treeCount, tail: tail, from: copied), copied)
    }

    /// Calls `body` with each chunk of contiguous elements (up to about 1 KiB of elements
    /// each, never empty), in order: the fastest way to visit every element. O(n / chunk)
    /// calls; the buffers are valid only during the call.
    @inlinable
    public func withChunks(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        if let root {
            _ = try withExtendedLifetime(root) {
                try root.forEachChunk { chunk in
                    try body(chunk)
                    return true
                }
            }
        }
        if !tail.isEmpty { try tail.withUnsafeBufferPointer(body) }
    }

    /// Calls `body` with each element, in order: each chunk is walked by an array's loop,
    /// so a simple body compiles as it does over an `Array` (a `for in` loop goes through
    /// ``Iterator``, whose chunk switch keeps the compiler from vectorising). O(n).
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        var iterator = makeIterator()
        while let first = iterator.next() {
            try body(first)
            // The rest of the chunk the iterator stands in (kept alive by the iterator).
            let rest = UnsafeBufferPointer(
                start: iterator.elements.unsafelyUnwrapped + iterator.position, count: iterator.chunkCount - iterator.position
            )
            iterator.position = iterator.chunkCount
            for element in rest { try body(element) }
        }
    }

    /// Iterates the elements of a `RowStorage`, chunk by chunk.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let root: RowStorageNode<Element>?
        @usableFromInline let treeCount: Int
        @usableFromInline let tail: ContiguousArray<Element>
        /// The current chunk's elements. `root` and `tail` keep every chunk alive, and a
        /// node or tail that someone holds is never changed in place (a mutation copies what
        /// another reference shares), so this pointer and `parent` stay valid without
        /// retaining them.
        @usableFromInline var elements: UnsafePointer<Element>?
        @usableFromInline var position: Int
        @usableFromInline var chunkCount: Int
        /// The inner node above the current leaf and the leaf's index in it (unretained, as
        /// `elements`: `root` keeps it alive).
        @usableFromInline var parent: Unmanaged<RowStorageNode<Element>>?
        @usableFromInline var childIndex: Int
        /// The offset of the first element after the current chunk.
        @usableFromInline var nextOffset: Int

        @inlinable
        init(root: RowStorageNode<Element>?, treeCount: Int, tail: ContiguousArray<Element>, from offset: Int) {
            self.root = root
            self.treeCount = treeCount
            self.tail = tail
            elements = nil
            position = 0
            chunkCount = 0
            parent = nil
            childIndex = 0
            nextOffset = offset
            if offset < treeCount {
                enterLeaf(containing: offset)
            } else if offset < treeCount + tail.count {
                enterTail(at: offset - treeCount)
            }
        }

        /// The next element, or nil at the end. Amortized O(1).
        @inlinable
        public mutating func next() -> Element? {
            if position < chunkCount {
                defer { position += 1 }
                return elements.unsafelyUnwrapped[position]
            }
            return nextChunk()
        }

        @inlinable
        mutating func nextChunk() -> Element? {
            while true {
                if nextOffset < treeCount {
                    if let parent, childIndex + 1 < parent._withUnsafeGuaranteedRef({ $0.width }) {
                        childIndex += 1
                        let index = childIndex
                        let next = parent._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.entries[index].child) }
                        let (chunk, count) = next._withUnsafeGuaranteedRef { (UnsafePointer($0.elements), $0.width) }
                        start(chunk, count: count, at: 0)
                    } else {
                        enterLeaf(containing: nextOffset)
                    }
                } else if nextOffset == treeCount && !tail.isEmpty {
                    enterTail(at: 0)
                } else {
                    return nil
                }
                if position < chunkCount {
                    defer { position += 1 }
                    return elements.unsafelyUnwrapped[position]
                }
            }
        }

        @inlinable
        mutating func start(_ chunk: UnsafePointer<Element>?, count: Int, at local: Int) {
            elements = chunk
            position = local
            chunkCount = count
            nextOffset += count - local
        }

        @inlinable
        mutating func enterTail(at local: Int) {
            nextOffset = treeCount + local
            start(tail.withUnsafeBufferPointer { $0.baseAddress }, count: tail.count, at: local)
        }

        /// Descends from the root to the leaf holding `offset` and starts there.
        @inlinable
        mutating func enterLeaf(containing offset: Int) {
            var node = Unmanaged.passUnretained(root.unsafelyUnwrapped)
            var local = offset
            var height = node._withUnsafeGuaranteedRef { $0.height }
            while height > 0 {
                let (index, start, child) = node._withUnsafeGuaranteedRef { node in
                    let (index, start) = node.child(containing: local)
                    return (index, start, Unmanaged.passUnretained(node.entries[index].child))
                }
                if height == 1 {
                    parent = node
                    childIndex = index
                }
                node = child
                local -= start
                height -= 1
            }
            nextOffset = offset
            let (chunk, count) = node._withUnsafeGuaranteedRef { (UnsafePointer($0.elements), $0.width) }
            start(chunk, count: count, at: local)
        }
    }
}
