/// What a `RowStorageNode` holds before its entries: how many entries it holds, its height,
/// whether its subtree is dense, and whether its search keys are valid.
@usableFromInline
struct RowStorageNodeHeader {
    /// Entries held directly: elements in a leaf, children in an inner node.
    @usableFromInline var width: Int32
    /// 0 for a leaf; otherwise one more than the children's height.
    @usableFromInline let height: Int16
    /// Whether every child but the last is full and the last is dense (always true for a
    /// leaf): the subtree is laid out as storage built by appends, and a read finds the
    /// child on each level from the offset's bits alone, as in Clojure's persistent vector.
    @usableFromInline var isDense: Bool
    /// Whether an inner node's `keys` hold its children's starts (false when its count
    /// exceeds `Int32.max`: then a search reads the entries' running counts).
    @usableFromInline var hasKeys: Bool

    @inlinable
    init(height: Int) {
        width = 0
        self.height = Int16(height)
        isDense = true
        hasKeys = false
    }
}

/// A node of a `RowStorage` tree: a leaf (`height == 0`) holding up to `leafCapacity`
/// elements, or an inner node holding up to `innerCapacity` children of height `height - 1`,
/// each with the running element count up to and including it. One allocation per node: the
/// elements or the (child, running count) entries live in the node object itself, after its
/// header, so going down a level reads one object (no separate buffers to reach). An inner
/// node also keeps its children's starts as `Int32` search keys right after its header (64
/// bytes), so that finding a child is one branch-free count. Every node
/// is allocated at full capacity. Nodes are shared between versions and mutated only while
/// uniquely referenced (the caller checks with `isKnownUniquelyReferenced`).
@usableFromInline
final class RowStorageNode<Element>: ManagedBuffer<RowStorageNodeHeader, Element> {
    /// A child of an inner node and the number of elements in it and the children before it.
    @usableFromInline
    struct Entry {
        @usableFromInline var child: RowStorageNode
        @usableFromInline var end: Int

        @inlinable
        init(child: RowStorageNode, end: Int) {
            self.child = child
            self.end = end
        }
    }

    /// Elements per leaf: about 1 KiB of elements, at least 16.
    @inlinable
    static var leafCapacity: Int { Swift.max(16, 1024 / Swift.max(1, MemoryLayout<Element>.stride)) }

    /// log2 of the children per inner node. 16 children, not 32: an edit of a version that
    /// is also held copies its path and retains every child of each copied node, and at 1M
    /// rows those retains, each a cache miss, were most of an edit's cost.
    @inlinable
    static var innerShift: Int { 4 }

    /// Children per inner node.
    @inlinable
    static var innerCapacity: Int { 1 << innerShift }

    /// Bytes of an inner node's search keys (`innerCapacity` `Int32`s).
    @inlinable
    static var keyBytes: Int { innerCapacity &* MemoryLayout<Int32>.stride }

    /// The tail capacity, in elements, that holds the keys and `innerCapacity` entries once
    /// aligned.
    @inlinable
    static var innerTailCapacity: Int {
        let bytes = (MemoryLayout<Int32>.alignment - 1) + keyBytes + (MemoryLayout<Entry>.alignment - 1)
            + innerCapacity * MemoryLayout<Entry>.stride
        let stride = Swift.max(1, MemoryLayout<Element>.stride)
        return (bytes + stride - 1) / stride
    }

    /// An empty leaf with room for `leafCapacity` elements. O(1).
    @inlinable
    static func makeLeaf() -> RowStorageNode {
        unsafeDowncast(create(minimumCapacity: leafCapacity) { _ in RowStorageNodeHeader(height: 0) }, to: RowStorageNode.self)
    }

    /// An inner node of height `height` (> 0) without children, with room for
    /// `innerCapacity` of them. O(1).
    @inlinable
    static func makeInner(height: Int) -> RowStorageNode {
        let node = unsafeDowncast(create(minimumCapacity: innerTailCapacity) { _ in RowStorageNodeHeader(height: height) }, to: RowStorageNode.self)
        node.withUnsafeMutablePointerToElements { tail in
            keysStart(tail).bindMemory(to: Int32.self, capacity: innerCapacity).initialize(repeating: .max, count: innerCapacity)
            _ = entriesStart(tail).bindMemory(to: Entry.self, capacity: innerCapacity)
        }
        return node
    }

    /// Where an inner node's keys start in a tail at `tail`.
    @inlinable
    static func keysStart(_ tail: UnsafeMutablePointer<Element>) -> UnsafeMutableRawPointer {
        let raw = UnsafeMutableRawPointer(tail)
        return MemoryLayout<Element>.alignment >= MemoryLayout<Int32>.alignment ? raw : raw.alignedUp(toMultipleOf: MemoryLayout<Int32>.alignment)
    }

    /// Where an inner node's entries start in a tail at `tail` (after the keys): a constant
    /// offset when elements are aligned at least as entries (the tail then is, and the keys
    /// take a multiple of 8 bytes), so a read computes no alignment a level. Aligned by a
    /// constant, not `alignedUp(for: Entry.self)`: in unspecialized code (a derived source's
    /// generic methods) that looks up `Entry`'s metadata on every call.
    @inlinable
    static func entriesStart(_ tail: UnsafeMutablePointer<Element>) -> UnsafeMutableRawPointer {
        let alignment = MemoryLayout<Entry>.alignment
        if MemoryLayout<Element>.alignment >= alignment && keyBytes % alignment == 0 {
            return UnsafeMutableRawPointer(tail) + keyBytes
        }
        return (keysStart(tail) + keyBytes).alignedUp(toMultipleOf: alignment)
    }

    /// A leaf holding `items` (at most `leafCapacity`). O(items.count).
    @inlinable
    static func leaf<C: Collection>(_ items: C) -> RowStorageNode where C.Element == Element {
        let node = makeLeaf()
        node.appendElements(items)
        return node
    }

    /// An inner node of height `height` holding `entries` (at most `innerCapacity`), whose
    /// running counts are rebased to start after `before` elements. O(entries.count).
    @inlinable
    static func inner(height: Int, entries: UnsafeBufferPointer<Entry>, before: Int) -> RowStorageNode {
        let node = makeInner(height: height)
        let target = node.entries
        for index in entries.indices {
            (target + index).initialize(to: Entry(child: entries[index].child, end: entries[index].end - before))
        }
        node.headerPointer.pointee.width = Int32(entries.count)
        node.updateSummary()
        return node
    }

    /// An inner node of height `height` holding `children` (at most `innerCapacity`). O(children.count).
    @inlinable
    static func inner(height: Int, children: some Collection<RowStorageNode>) -> RowStorageNode {
        let node = makeInner(height: height)
        let target = node.entries
        var total = 0
        var index = 0
        for child in children {
            total += child.count
            (target + index).initialize(to: Entry(child: child, end: total))
            index += 1
        }
        node.headerPointer.pointee.width = Int32(index)
        node.updateSummary()
        return node
    }

    deinit {
        let width = self.width
        if height == 0 {
            elements.deinitialize(count: width)
        } else {
            Self.destroyEntries(entries, count: width)
        }
    }

    /// Copies `count` entries to uninitialized memory, retaining each child: the bytes in
    /// one copy, then a retain a child. `initialize(from:count:)` copies through the
    /// runtime's value witnesses (an indirect call an entry; a path copy at 1M rows copies
    /// ~100 entries), and a typed loop, in unspecialized code (a derived source's generic
    /// methods), looks up `Entry`'s metadata on each entry; raw memory needs neither.
    @inlinable
    static func copyEntries(from source: UnsafePointer<Entry>, to target: UnsafeMutablePointer<Entry>, count: Int) {
        let stride = MemoryLayout<Entry>.stride
        let raw = UnsafeRawPointer(source)
        UnsafeMutableRawPointer(target).copyMemory(from: raw, byteCount: count &* stride)
        for index in 0..<count {
            let child = raw.load(fromByteOffset: index &* stride, as: UnsafeRawPointer.self)
            _ = Unmanaged<RowStorageNode>.fromOpaque(child).retain()
        }
    }

    /// Deinitializes `count` entries, releasing each child, over raw memory for the reasons
    /// of `copyEntries` (every `deinit` of this generic class is unspecialized code).
    @inlinable
    static func destroyEntries(_ base: UnsafeMutablePointer<Entry>, count: Int) {
        let stride = MemoryLayout<Entry>.stride
        let raw = UnsafeMutableRawPointer(base)
        for index in 0..<count {
            let child = raw.load(fromByteOffset: index &* stride, as: UnsafeRawPointer.self)
            Unmanaged<RowStorageNode>.fromOpaque(child).release()
        }
    }

    /// The header, read and written through its address: `ManagedBuffer.header` would check
    /// exclusive access at run time on every read.
    @inlinable
    var headerPointer: UnsafeMutablePointer<RowStorageNodeHeader> { withUnsafeMutablePointerToHeader { $0 } }

    /// 0 for a leaf; otherwise one more than the children's height.
    @inlinable
    var height: Int { Int(headerPointer.pointee.height) }

    /// See `RowStorageNodeHeader.isDense`.
    @inlinable
    var isDense: Bool { headerPointer.pointee.isDense }

    /// The most elements a child of this inner node can hold.
    @inlinable
    var childCapacity: Int { Self.leafCapacity &<< (Self.innerShift &* (height &- 1)) }

    /// Recomputes an inner node's `isDense` (from its entries and its last child's flag) and
    /// its search keys (call after changing its entries). O(innerCapacity).
    @inlinable
    func updateSummary() {
        let width = self.width
        let entries = self.entries
        let header = headerPointer
        updateDensity()
        let fits = width == 0 || entries[width - 1].end <= Int(Int32.max)
        header.pointee.hasKeys = fits
        guard fits else { return }
        let keys = self.keys
        var start = 0
        for index in 0..<width {
            keys[index] = Int32(truncatingIfNeeded: start)
            start = entries[index].end
        }
        for index in width..<Self.innerCapacity { keys[index] = .max }
    }

    /// `updateSummary()` after the running counts from child `index` on moved by `delta`
    /// and nothing else changed: the keys after `index` move by `delta`. O(width).
    @inlinable
    func updateSummary(shiftingKeysAfter index: Int, by delta: Int) {
        updateDensity()
        let width = self.width
        guard headerPointer.pointee.hasKeys, entries[width - 1].end <= Int(Int32.max) else {
            updateSummary()
            return
        }
        let keys = self.keys
        let shift = Int32(truncatingIfNeeded: delta)
        for position in (index + 1)..<width { keys[position] &+= shift }
    }

    /// Recomputes an inner node's `isDense` from its entries and its last child's flag. O(1).
    @inlinable
    func updateDensity() {
        let width = self.width
        let entries = self.entries
        headerPointer.pointee.isDense = width == 0
            || ((width < 2 || entries[width - 2].end == (width - 1) * childCapacity) && entries[width - 1].child.isDense)
    }

    /// An inner node's search keys: key `i` is the offset of child `i`'s first element for
    /// `i < width`, `Int32.max` after (valid when `hasKeys`).
    @inlinable
    var keys: UnsafeMutablePointer<Int32> {
        withUnsafeMutablePointerToElements { Self.keysStart($0).assumingMemoryBound(to: Int32.self) }
    }

    /// Number of entries (elements or children) held directly by this node.
    @inlinable
    var width: Int { Int(headerPointer.pointee.width) }

    /// A leaf's elements (`width` of them are initialized); the node must stay alive while
    /// they are used.
    @inlinable
    var elements: UnsafeMutablePointer<Element> { withUnsafeMutablePointerToElements { $0 } }

    /// An inner node's entries (`width` of them are initialized); the node must stay alive
    /// while they are used.
    @inlinable
    var entries: UnsafeMutablePointer<Entry> {
        withUnsafeMutablePointerToElements { Self.entriesStart($0).assumingMemoryBound(to: Entry.self) }
    }

    /// A leaf's elements as a buffer.
    @inlinable
    var elementBuffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: elements, count: width) }

    /// An inner node's entries as a buffer.
    @inlinable
    var entryBuffer: UnsafeMutableBufferPointer<Entry> { UnsafeMutableBufferPointer(start: entries, count: width) }

    /// Number of elements in this subtree. O(1).
    @inlinable
    var count: Int {
        let width = self.width
        if height == 0 { return width }
        return width == 0 ? 0 : entries[width - 1].end
    }

    /// Whether this node holds fewer entries than half its capacity.
    @inlinable
    var isUnderfull: Bool {
        width < (height == 0 ? Self.leafCapacity : Self.innerCapacity) / 2
    }

    /// A new node with the same content and full capacity, to mutate in place of this
    /// shared one. O(capacity).
    @inlinable
    func copy() -> RowStorageNode {
        let width = self.width
        if height == 0 {
            let node = Self.makeLeaf()
            node.elements.initialize(from: elements, count: width)
            node.headerPointer.pointee.width = Int32(width)
            return node
        }
        let node = Self.makeInner(height: height)
        Self.copyEntries(from: entries, to: node.entries, count: width)
        node.keys.update(from: keys, count: Self.innerCapacity)
        node.headerPointer.pointee = headerPointer.pointee
        return node
    }

    /// The child holding element `offset` (`0 <= offset < count`) and the offset of that
    /// child's first element. O(1) in a dense node (its children before the last are full),
    /// else O(innerCapacity).
    @inlinable
    func child(containing offset: Int) -> (index: Int, start: Int) {
        if isDense {
            let capacity = childCapacity
            let index = Int(bitPattern: UInt(bitPattern: offset) / UInt(bitPattern: Self.leafCapacity)) &>> (Self.innerShift &* (height &- 1))
            return (index, index &* capacity)
        }
        return searchChild(containing: offset)
    }

    /// `child(containing:)` for a node that is not dense: a count of its search keys
    /// (`searchKeys`), or, in a node over `Int32.max` elements (no keys), a first guess from
    /// the children's average count and a walk to the child. O(innerCapacity).
    @inlinable
    func searchChild(containing offset: Int) -> (index: Int, start: Int) {
        if _fastPath(headerPointer.pointee.hasKeys) {
            return Self.searchKeys(keys, containing: offset)
        }
        let entries = self.entries
        let last = width &- 1
        var index = offset &* (last &+ 1) / entries[last].end
        while index > 0 && entries[index &- 1].end > offset { index &-= 1 }
        while entries[index].end <= offset { index &+= 1 }
        return (index, index == 0 ? 0 : entries[index &- 1].end)
    }

    /// The child whose start is the last key at or before `offset` (below the node's count,
    /// so below `Int32.max`), and that start: the keys after `offset` counted four at a time
    /// with vector compares, no branch (the unused keys are `Int32.max` and always count;
    /// key 0 is 0 and never does). A scalar loop, or a search that stops early, compiles to
    /// a branch a key, mispredicted on every read. O(innerCapacity).
    @inlinable @inline(__always)
    static func searchKeys(_ keys: UnsafePointer<Int32>, containing offset: Int) -> (index: Int, start: Int) {
        let target = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: offset))
        let raw = UnsafeRawPointer(keys)
        var after = SIMD4<Int32>()
        for block in 0..<(innerCapacity / 4) {
            let four = raw.loadUnaligned(fromByteOffset: block &* 16, as: SIMD4<Int32>.self)
            after &+= SIMD4<Int32>(repeating: 0).replacing(with: 1, where: four .> target)
        }
        let index = innerCapacity &- 1 &- Int(after.wrappedSum())
        return (index, Int(keys[index]))
    }

    /// The leaf holding element `offset` of the dense subtree `node` of height `height`,
    /// and the element's offset in it: the leaf's number read `innerShift` bits a level, no
    /// count read. Unretained: the caller keeps the subtree alive. O(height).
    @inlinable @inline(__always)
    static func leaf(inDense node: Unmanaged<RowStorageNode>, height: Int, containing offset: Int) -> (Unmanaged<RowStorageNode>, Int) {
        let leafNumber = UInt(bitPattern: offset) / UInt(bitPattern: leafCapacity)
        let local = offset &- Int(bitPattern: leafNumber) &* leafCapacity
        let bits = UInt(bitPattern: innerShift)
        @inline(__always) func child(_ node: Unmanaged<RowStorageNode>, _ number: UInt) -> Unmanaged<RowStorageNode> {
            let index = Int(bitPattern: number & UInt(bitPattern: innerCapacity &- 1))
            return node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.entries[index].child) }
        }
        // Straight-line code for the heights of up to 4M rows of 16 bytes: a loop is
        // slower and lets fewer reads overlap (see BENCHMARKS.md, "Row storage").
        switch height {
        case 1: return (child(node, leafNumber), local)
        case 2: return (child(child(node, leafNumber &>> bits), leafNumber), local)
        case 3: return (child(child(child(node, leafNumber &>> (2 &* bits)), leafNumber &>> bits), leafNumber), local)
        case 4: return (child(child(child(child(node, leafNumber &>> (3 &* bits)), leafNumber &>> (2 &* bits)), leafNumber &>> bits), leafNumber), local)
        default:
            var node = node
            var shift = bits &* UInt(bitPattern: height)
            while shift > 0 {
                shift &-= bits
                node = child(node, leafNumber &>> shift)
            }
            return (node, local)
        }
    }

    /// The leaf holding element `offset` of the subtree `node` of height `height`, and the
    /// element's offset in it: a search on each level until a dense subtree. Unretained: the
    /// caller keeps the subtree alive. O(height * log innerCapacity).
    @inlinable
    static func leaf(in node: Unmanaged<RowStorageNode>, height: Int, containing offset: Int) -> (Unmanaged<RowStorageNode>, Int) {
        var node = node
        var offset = offset
        var height = height
        while height > 0 {
            let (header, keys, entries) = node._withUnsafeGuaranteedRef { ($0.headerPointer.pointee, $0.keys, $0.entries) }
            if header.isDense {
                return leaf(inDense: node, height: height, containing: offset)
            }
            // The key search stays here, outside the closure that reads the node, so that it
            // is inlined into this loop.
            let (index, start) = header.hasKeys
                ? searchKeys(keys, containing: offset)
                : node._withUnsafeGuaranteedRef { $0.searchChild(containing: offset) }
            offset &-= start
            node = Unmanaged.fromOpaque(UnsafeRawPointer(entries + index).load(as: UnsafeRawPointer.self))
            height &-= 1
        }
        return (node, offset)
    }

    /// Like `child(containing:)` but `offset == count` maps to the end of the last child
    /// (where an insertion at `offset` goes).
    @inlinable
    func child(insertingAt offset: Int) -> (index: Int, start: Int) {
        if offset >= count {
            let last = width - 1
            return (last, last == 0 ? 0 : entries[last - 1].end)
        }
        return child(containing: offset)
    }

    /// Replaces child `index` by a copy unless this node holds its only reference.
    @inlinable
    func makeChildUnique(_ index: Int) {
        let entry = entries + index
        if !isKnownUniquelyReferenced(&entry.pointee.child) {
            entry.pointee.child = entry.pointee.child.copy()
        }
    }
}

/// Element and entry moves inside one node; each keeps `width` right. The caller makes sure
/// the node is uniquely referenced and has room.
extension RowStorageNode {
    /// Appends `items` to a leaf with room for them. O(items.count).
    @inlinable
    func appendElements<C: Collection>(_ items: C) where C.Element == Element {
        let width = self.width
        let added = UnsafeMutableBufferPointer(start: elements + width, count: Self.leafCapacity - width).initialize(fromContentsOf: items)
        headerPointer.pointee.width = Int32(width + added)
    }

    /// Inserts `items` into a leaf with room for them at `offset` (`0...width`).
    /// O(width + items.count).
    @inlinable
    func insertElements<C: Collection>(_ items: C, at offset: Int) where C.Element == Element {
        let width = self.width
        let added = items.count
        let elements = self.elements
        (elements + offset + added).moveInitialize(from: elements + offset, count: width - offset)
        _ = UnsafeMutableBufferPointer(start: elements + offset, count: added).initialize(fromContentsOf: items)
        headerPointer.pointee.width = Int32(width + added)
    }

    /// Removes a leaf's elements at `range` (within `0..<width`). O(width).
    @inlinable
    func removeElements(_ range: Range<Int>) {
        let width = self.width
        Self.remove(range, from: elements, width: width)
        headerPointer.pointee.width = Int32(width - range.count)
    }

    /// Moves a leaf's elements from `offset` on to the empty leaf `other`. O(width - offset).
    @inlinable
    func moveElements(from offset: Int, to other: RowStorageNode) {
        let width = self.width
        other.elements.moveInitialize(from: elements + offset, count: width - offset)
        other.headerPointer.pointee.width = Int32(width - offset)
        headerPointer.pointee.width = Int32(offset)
    }

    /// Removes an inner node's entries at `range` (within `0..<width`), leaving the running
    /// counts of the others as they are. O(width).
    @inlinable
    func removeEntries(_ range: Range<Int>) {
        let width = self.width
        Self.destroyEntries(entries + range.lowerBound, count: range.count)
        (entries + range.lowerBound).moveInitialize(from: entries + range.upperBound, count: width - range.upperBound)
        headerPointer.pointee.width = Int32(width - range.count)
    }

    /// Deinitializes the elements at `range` of the `width` elements at `base` and moves the
    /// ones after it down to close the gap. O(width).
    @inlinable
    static func remove<Value>(_ range: Range<Int>, from base: UnsafeMutablePointer<Value>, width: Int) {
        (base + range.lowerBound).deinitialize(count: range.count)
        (base + range.lowerBound).moveInitialize(from: base + range.upperBound, count: width - range.upperBound)
    }

    /// Drops this node's content and takes `other`'s (of the same height), leaving `other`
    /// empty. O(width).
    @inlinable
    func replaceContent(byMovingFrom other: RowStorageNode) {
        let width = self.width, otherWidth = other.width
        if height == 0 {
            elements.deinitialize(count: width)
            elements.moveInitialize(from: other.elements, count: otherWidth)
        } else {
            Self.destroyEntries(entries, count: width)
            entries.moveInitialize(from: other.entries, count: otherWidth)
        }
        headerPointer.pointee.width = Int32(otherWidth)
        headerPointer.pointee.isDense = other.isDense
        if height > 0 {
            headerPointer.pointee.hasKeys = other.headerPointer.pointee.hasKeys
            keys.update(from: other.keys, count: Self.innerCapacity)
        }
        other.headerPointer.pointee.width = 0
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
            result.append(leaf(elements[start..<end]))
            start = end
        }
        return result
    }

    /// Inner nodes of height `height` holding `entries` in order (running counts from the
    /// first), full except the last (`packed`) or evenly filled. O(entries.count).
    @inlinable
    static func parents(of entries: UnsafeBufferPointer<Entry>, height: Int, packed: Bool) -> ContiguousArray<RowStorageNode> {
        let capacity = innerCapacity
        let total = entries.count
        guard total > 0 else { return [] }
        let parts = (total + capacity - 1) / capacity
        let sizes = packed ? nil : evenSizes(total, parts: parts)
        var result = ContiguousArray<RowStorageNode>()
        result.reserveCapacity(parts)
        var start = 0
        for part in 0..<parts {
            let size = sizes?[part] ?? Swift.min(capacity, total - start)
            let before = start == 0 ? 0 : entries[start - 1].end
            result.append(inner(height: height, entries: UnsafeBufferPointer(rebasing: entries[start..<(start + size)]), before: before))
            start += size
        }
        return result
    }

    /// Inner nodes of height `height` holding `nodes` in order, full except the last
    /// (`packed`) or evenly filled. O(nodes.count).
    @inlinable
    static func parents(of nodes: ContiguousArray<RowStorageNode>, height: Int, packed: Bool) -> ContiguousArray<RowStorageNode> {
        var entries = ContiguousArray<Entry>()
        entries.reserveCapacity(nodes.count)
        var total = 0
        for node in nodes {
            total += node.count
            entries.append(Entry(child: node, end: total))
        }
        return entries.withUnsafeBufferPointer { parents(of: $0, height: height, packed: packed) }
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
