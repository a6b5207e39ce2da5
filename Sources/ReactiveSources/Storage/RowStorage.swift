/// An ordered collection of rows that versions cheaply: a persistent B+tree of fixed-size
/// chunks (leaves of about 1 KiB of elements, inner nodes of 16 children with their running
/// counts), shared between copies and copied path by path on write, plus a tail chunk
/// outside the tree for the last elements (as Clojure's persistent vector has). Each node is
/// one allocation holding its elements or its children and their counts inline.
///
/// Copies are O(1) and share every node. A mutation copies only the nodes on its path that
/// another copy still holds: appending, inserting, removing or replacing k elements copies
/// O(k + chunk * log n) elements and node entries, never all n, and happens fully in place
/// when the storage is uniquely referenced. Appends go to the tail and touch the tree once
/// per chunk. Reading an element is O(log n): a subtree laid out as by appends (every
/// child but the last full: "dense") is walked by the offset's bits without reading a count,
/// as Clojure's persistent vector does; other nodes count the children's starts (kept as
/// 32-bit search keys) at or before the offset, without a branch. Iteration walks the chunks. Indices are the `Int`s `0..<count`, like an `Array`'s;
/// out-of-range indices trap.
public struct RowStorage<Element> {
    /// The tree holding the first `count - tail.count` elements; `nil` when it holds none.
    @usableFromInline var root: RowStorageNode<Element>?
    /// The number of elements, tree and tail (kept here so `count` reads no node).
    @usableFromInline var storedCount: Int
    /// The last elements, at most a leaf's capacity, outside the tree.
    @usableFromInline var tail: ContiguousArray<Element>

    @inlinable
    init(root: RowStorageNode<Element>?, count: Int) {
        self.root = root
        storedCount = count
        tail = []
    }

    /// The number of elements in the tree (those before the tail).
    @inlinable
    var treeCount: Int { storedCount - tail.count }

    /// An empty storage. O(1), allocates nothing.
    @inlinable
    public init() {
        self.init(root: nil, count: 0)
    }

    /// A storage holding `elements` in order, built bottom-up with full chunks. O(n).
    @inlinable
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init(collection: ContiguousArray(elements))
    }

    /// A storage holding `elements` in order, built bottom-up with full chunks, copying each
    /// element once. O(n).
    @inlinable
    public init<C: Collection>(_ elements: C) where C.Element == Element {
        self.init(collection: elements)
    }

    @inlinable
    init<C: Collection>(collection elements: C) where C.Element == Element {
        self.init(root: RowStorageNode.root(over: RowStorageNode.leaves(elements, packed: true)), count: elements.count)
    }

    /// Whether `self` and `other` are the same version: they share their whole tree (or are
    /// both empty), so they hold equal elements without comparing any. False does not mean
    /// they differ. O(1).
    @inlinable
    public func sharesStorage(with other: RowStorage) -> Bool {
        root === other.root && storedCount == other.storedCount
            && tail.withUnsafeBufferPointer { $0.baseAddress } == other.tail.withUnsafeBufferPointer { $0.baseAddress }
    }

    /// Makes the root uniquely referenced (copying it if another version holds it) and
    /// returns it; the storage must not be empty.
    @inlinable
    mutating func uniqueRoot() -> RowStorageNode<Element> {
        if !isKnownUniquelyReferenced(&root!) {
            root = root!.copy()
        }
        return root!
    }

    /// Inserts `items` (not empty) into the tree at `offset` (`0...treeCount`); the caller
    /// updates `storedCount`.
    @inlinable
    mutating func treeInsert<C: Collection>(_ items: C, at offset: Int) where C.Element == Element {
        if root == nil { return plantRoot(items) }
        // No local reference to the root here: it would defeat the uniqueness check.
        let atEnd = offset == root.unsafelyUnwrapped.count
        if let overflow = uniqueRoot().insert(contentsOf: items, at: offset, atEnd: atEnd) {
            growRoot(overflow)
        }
    }

    /// The tree of an empty storage after inserting `items` (not empty). Out of line, as
    /// ``growRoot(_:)``.
    @inlinable @inline(never)
    mutating func plantRoot<C: Collection>(_ items: C) where C.Element == Element {
        root = RowStorageNode.root(over: RowStorageNode.leaves(items, packed: true))
    }

    /// A new root over the old one and the nodes it overflowed into. Out of line: naming
    /// the node and array types costs unspecialised callers a metadata lookup each.
    @inlinable @inline(never)
    mutating func growRoot(_ overflow: ContiguousArray<RowStorageNode<Element>>) {
        var level = ContiguousArray([root!])
        level.append(contentsOf: overflow)
        root = RowStorageNode.root(over: level)
    }

    /// Removes `range` (not empty) of the tree's elements; the caller updates `storedCount`.
    @inlinable
    mutating func treeRemove(_ range: Range<Int>) {
        if range.count == root!.count {
            root = nil
            return
        }
        uniqueRoot().remove(range)
        while let node = root, node.height > 0, node.width == 1 {
            root = node.entries[0].child
        }
    }

    /// Moves the tail's elements to the end of the tree.
    @inlinable
    mutating func flushTail() {
        guard !tail.isEmpty else { return }
        let moved = tail
        tail = []
        treeInsert(moved, at: storedCount - moved.count)
    }
}
