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
            // Unretained: `self`, borrowed for the call, keeps the root and every node alive,
            // and no node is retained and released on the way down. The node type is taken
            // from the root (`type(of:)`), not named: unspecialised code (a derived source's)
            // would look its metadata up on every read.
            let root = Unmanaged.passUnretained(root.unsafelyUnwrapped)
            let (node, isDense, height) = root._withUnsafeGuaranteedRef { (type(of: $0), $0.isDense, $0.height) }
            let (leaf, offset) = isDense
                ? node.leaf(inDense: root, height: height, containing: position)
                : node.leaf(in: root, height: height, containing: position)
            return leaf._withUnsafeGuaranteedRef { $0.elements[offset] }
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
    /// ``Iterator``, one element a call of `next()`, which the compiler does not vectorise). O(n).
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        var iterator = makeIterator()
        while let first = iterator.next() {
            try body(first)
            // The rest of the chunk the iterator stands in (kept alive by the iterator).
            let rest = UnsafeBufferPointer(start: iterator.current, count: iterator.end - iterator.current)
            iterator.current = iterator.end
            for element in rest { try body(element) }
        }
    }

    /// Iterates the elements of a `RowStorage` chunk by chunk: `next()` reads through a
    /// pointer into the current chunk and moves it, as an array's loop does; at a chunk's
    /// end it steps to the next leaf of the same parent, and descends from the root
    /// (O(log n)) only when that parent is done. A full iteration is O(n).
    public struct Iterator: IteratorProtocol {
        /// Where an iterator stands: the next element of the current chunk and the chunk's
        /// end (equal when it is done), the inner node above the current leaf and the leaf's
        /// index in it (nil for the tail or a root leaf), and the offset after the chunk.
        @usableFromInline
        typealias Place = (
            current: UnsafePointer<Element>, end: UnsafePointer<Element>,
            parent: Unmanaged<RowStorageNode<Element>>?, childIndex: Int, nextOffset: Int
        )

        @usableFromInline let root: RowStorageNode<Element>?
        @usableFromInline let treeCount: Int
        @usableFromInline let tail: ContiguousArray<Element>
        /// See `Place`. `root` and `tail` keep every chunk alive, and a node or tail that
        /// someone holds is never changed in place (a mutation copies what another reference
        /// shares), so these pointers stay valid without retaining anything. The pointers
        /// are not optional: an optional costs a nil check an element.
        @usableFromInline var current: UnsafePointer<Element>
        @usableFromInline var end: UnsafePointer<Element>
        @usableFromInline var parent: Unmanaged<RowStorageNode<Element>>?
        @usableFromInline var childIndex: Int
        @usableFromInline var nextOffset: Int

        @inlinable
        init(root: RowStorageNode<Element>?, treeCount: Int, tail: ContiguousArray<Element>, from offset: Int) {
            self.root = root
            self.treeCount = treeCount
            self.tail = tail
            (current, end, parent, childIndex, nextOffset) = Self.place(at: offset, root: root, treeCount: treeCount, tail: tail)
        }

        /// The next element, or nil at the end. Amortized O(1).
        @inlinable
        public mutating func next() -> Element? {
            if _fastPath(current != end) {
                let element = current
                current = element + 1
                return element.pointee
            }
            // By value, not `inout self`: a call given the iterator's address would keep the
            // compiler from holding `current` in a register (a store an element).
            (current, end, parent, childIndex, nextOffset) = Self.place(
                after: parent, childIndex: childIndex, nextOffset: nextOffset, root: root, treeCount: treeCount, tail: tail
            )
            guard current != end else { return nil }
            let element = current
            current = element + 1
            return element.pointee
        }

        /// A pointer that is never read: `current` and `end` at the end.
        @inlinable
        static var none: UnsafePointer<Element> { UnsafePointer(bitPattern: MemoryLayout<Element>.alignment).unsafelyUnwrapped }

        /// The place of the next non-empty chunk after the one that ends before
        /// `nextOffset` (under `parent`, at `childIndex`), or an empty place at the end.
        @inlinable @inline(never)
        static func place(
            after parent: Unmanaged<RowStorageNode<Element>>?, childIndex: Int, nextOffset: Int,
            root: RowStorageNode<Element>?, treeCount: Int, tail: ContiguousArray<Element>
        ) -> Place {
            if nextOffset < treeCount, let parent, childIndex &+ 1 < parent._withUnsafeGuaranteedRef({ $0.width }) {
                let index = childIndex &+ 1
                let leaf = parent._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.entries[index].child) }
                let (chunk, count) = leaf._withUnsafeGuaranteedRef { (UnsafePointer($0.elements), $0.width) }
                if count > 0 { return (chunk, chunk + count, parent, index, nextOffset &+ count) }
            }
            return place(at: nextOffset, root: root, treeCount: treeCount, tail: tail)
        }

        /// The place of the element at `offset` (`0...count`; at or past the end, an empty
        /// place). O(log n).
        @inlinable
        static func place(at offset: Int, root: RowStorageNode<Element>?, treeCount: Int, tail: ContiguousArray<Element>) -> Place {
            if offset < treeCount, let root {
                let (leaf, local, parent, index) = descend(from: root, to: offset)
                let (chunk, count) = leaf._withUnsafeGuaranteedRef { (UnsafePointer($0.elements), $0.width) }
                return (chunk + local, chunk + count, parent, index, offset &- local &+ count)
            }
            let tailCount = tail.count
            if offset < treeCount + tailCount {
                let chunk = tail.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped }
                return (chunk + (offset - treeCount), chunk + tailCount, nil, 0, treeCount + tailCount)
            }
            return (none, none, nil, 0, offset)
        }

        /// The leaf holding `offset` (`0..<root.count`), the offset in it, and its parent and
        /// index there (nil and 0 when `root` is the leaf). Unretained: `root` keeps them
        /// alive. O(log n).
        @inlinable
        static func descend(
            from root: RowStorageNode<Element>, to offset: Int
        ) -> (leaf: Unmanaged<RowStorageNode<Element>>, local: Int, parent: Unmanaged<RowStorageNode<Element>>?, index: Int) {
            var node = Unmanaged.passUnretained(root)
            var local = offset
            var height = root.height
            var parent: Unmanaged<RowStorageNode<Element>>? = nil
            var childIndex = 0
            while height > 0 {
                let (index, start, child) = node._withUnsafeGuaranteedRef { node in
                    let (index, start) = node.child(containing: local)
                    return (index, start, Unmanaged.passUnretained(node.entries[index].child))
                }
                parent = node
                childIndex = index
                node = child
                local -= start
                height -= 1
            }
            return (node, local, parent, childIndex)
        }
    }
}
